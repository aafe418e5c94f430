package io.hasp.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.annotation.Locked;
import io.hasp.testing.RedisCluster;
import io.hasp.testing.RedisSentinel;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * The starter in real Spring Boot applications on a real redis-server: the client built from
 * {@code spring.data.redis.*} and {@code hasp.*}, {@code @Locked} beans, the health indicator, the
 * back-off before an application's own client, bad values stopping the startup with the property's
 * name, a cluster from {@code cluster.nodes}, a Sentinel deployment from {@code sentinel.*}, and two application JVMs keeping a counter exact
 * (also on virtual threads, on the Temurin 25 JDK).
 */
@ExtendWith(RedisServerExtension.class)
class HaspAutoConfigurationIT {

    /** An application with one @Locked service. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
        @Bean
        Greeter greeter(HaspClient client) {
            return new Greeter(client);
        }
    }

    public static class Greeter {
        private final HaspClient client;

        public Greeter(HaspClient client) {
            this.client = client;
        }

        @Locked(value = "greet", key = "#name")
        public String greet(String name) {
            return "hello " + name + ", held " + client.getLock("greet:" + name).isLocked();
        }
    }

    /** An application that brings its own client. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class OwnClientApp {
        static HaspClient own;

        @Bean(destroyMethod = "")
        HaspClient myClient() {
            return own;
        }
    }

    private static ConfigurableApplicationContext run(Class<?> app, String... properties) {
        List<String> all = new ArrayList<>(List.of("spring.main.banner-mode=off"));
        all.addAll(List.of(properties));
        return new SpringApplicationBuilder(app).web(WebApplicationType.NONE).properties(all.toArray(new String[0])).run();
    }

    @Test
    void theClientComesFromSpringDataRedisAndHaspProperties(RedisServer redis) {
        HaspClient client;
        try (ConfigurableApplicationContext context = run(App.class, "spring.data.redis.host=" + redis.host(),
                "spring.data.redis.port=" + redis.port(), "spring.data.redis.database=2", "spring.data.redis.timeout=3s",
                "hasp.watchdog-lease=7s", "hasp.pool-size=1", "hasp.direct-connections=3")) {
            client = context.getBean(HaspClient.class);
            assertEquals(Duration.ofSeconds(7), client.config().watchdogLease());
            assertEquals(Duration.ofSeconds(3), client.config().commandTimeout());
            assertEquals(2, client.config().database());
            assertEquals(1, client.config().poolSize());
            assertEquals(3, client.config().directConnections());
            assertEquals("hello ada, held true", context.getBean(Greeter.class).greet("ada"), "@Locked works");
            assertFalse(client.getLock("greet:ada").isLocked());
            Health health = context.getBean("haspHealthIndicator", HealthIndicator.class).health();
            assertEquals(Status.UP, health.getStatus());
            assertEquals(client.config().redactedUri(), health.getDetails().get("server"));
        }
        assertTrue(client.isClosed(), "closed with the application");
    }

    @Test
    void aUrlAndCredentialsReachAServerWithAPassword() {
        try (RedisServer secured = RedisServer.builder().name("starter-auth").option("requirepass", "s3cret").start();
                ConfigurableApplicationContext context = run(App.class,
                        "spring.data.redis.url=redis://:s3cret@" + secured.host() + ":" + secured.port())) {
            assertEquals("hello bob, held true", context.getBean(Greeter.class).greet("bob"));
            assertFalse(context.getBean(HaspClient.class).config().toString().contains("s3cret"), "no password in the config's text");
        }
    }

    @Test
    void theHealthIsDownWhenTheServerIsGone() {
        RedisServer doomed = RedisServer.builder().name("starter-health").start();
        try (ConfigurableApplicationContext context = run(App.class, "spring.data.redis.port=" + doomed.port(),
                "spring.data.redis.timeout=500ms")) {
            HealthIndicator indicator = context.getBean("haspHealthIndicator", HealthIndicator.class);
            assertEquals(Status.UP, indicator.health().getStatus());
            doomed.stop();
            assertEquals(Status.DOWN, indicator.health().getStatus());
        } finally {
            doomed.close();
        }
    }

    @Test
    void anApplicationsOwnClientIsUsedAndNoSecondOneIsMade(RedisServer redis) {
        try (HaspClient own = HaspClient.create(redis.uri())) {
            OwnClientApp.own = own;
            try (ConfigurableApplicationContext context = run(OwnClientApp.class, "spring.data.redis.port=1")) {
                assertSame(own, context.getBean(HaspClient.class));
                assertEquals(1, context.getBeansOfType(HaspClient.class).size());
            }
            assertFalse(own.isClosed(), "the application's client stays the application's to close");
        }
    }

    @Test
    void aBadValueStopsTheStartupNamingTheProperty(RedisServer redis) {
        String port = "spring.data.redis.port=" + redis.port();
        assertMentions(startupFailure(port, "hasp.watchdog-lease=-5s"), "Property: hasp.watchdog-lease");
        assertMentions(startupFailure(port, "hasp.watchdog-lease=soon"), "Property: hasp.watchdog-lease");
        assertMentions(startupFailure(port, "hasp.pool-size=0"), "Property: hasp.pool-size");
        assertMentions(startupFailure(port, "hasp.direct-connections=-1"), "Property: hasp.direct-connections");
        assertMentions(startupFailure("spring.data.redis.sentinel.master=mymaster"), "spring.data.redis.sentinel");
        assertMentions(startupFailure("spring.data.redis.cluster.nodes=no-port"), "spring.data.redis.cluster.nodes");
    }

    private static void assertMentions(String messages, String property) {
        assertTrue(messages.contains(property), "the failure names " + property + ": " + messages);
    }

    /**
     * What the startup failure tells: the messages of the exception and its causes, and the
     * property a binding failure names (what Spring Boot's failure report prints as "Property:").
     */
    private static String startupFailure(String... properties) {
        Throwable failure = assertThrows(Throwable.class, () -> run(App.class, properties).close());
        StringBuilder told = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            told.append(t.getMessage()).append('\n');
            if (t instanceof BindException bind && bind.getProperty() != null) {
                told.append("Property: ").append(bind.getProperty().getName()).append('\n');
            }
        }
        return told.toString();
    }

    @Test
    void clusterNodesMakeAClusterClient() {
        try (RedisCluster cluster = RedisCluster.start();
                ConfigurableApplicationContext context = run(App.class,
                        "spring.data.redis.cluster.nodes=" + cluster.seeds())) {
            HaspClient client = context.getBean(HaspClient.class);
            assertTrue(client.config().isCluster());
            assertEquals("hello cy, held true", context.getBean(Greeter.class).greet("cy"));
        }
    }

    @Test
    void sentinelPropertiesMakeAClientOfTheMasterTheSentinelsName() {
        try (RedisSentinel deployment = RedisSentinel.start();
                ConfigurableApplicationContext context = run(App.class,
                        "spring.data.redis.sentinel.master=" + RedisSentinel.MASTER_NAME,
                        "spring.data.redis.sentinel.nodes=" + deployment.sentinelAddresses())) {
            HaspClient client = context.getBean(HaspClient.class);
            assertTrue(client.config().isSentinel());
            assertEquals("hello di, held true", context.getBean(Greeter.class).greet("di"));
            client.getLock("greet:probe").lock();
            try (RedisProbe probe = deployment.master().probe()) {
                assertEquals(1L, probe.call("EXISTS", "greet:probe"), "the lock is on the master");
            } finally {
                client.getLock("greet:probe").unlock();
            }
            Health health = context.getBean("haspHealthIndicator", HealthIndicator.class).health();
            assertEquals(Status.UP, health.getStatus());
        }
    }

    @Test
    void twoApplicationJvmsKeepACounterExact(RedisServer redis) throws Exception {
        assertCounterExact(redis, currentJava(), "two-jvms");
    }

    @Test
    void twoApplicationJvmsOnVirtualThreadsKeepACounterExact(RedisServer redis) throws Exception {
        String java = "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java";
        Assumptions.assumeTrue(Files.isExecutable(Path.of(java)), "no Temurin 25 JDK (virtual threads need Java 21+)");
        List<String> lines = assertCounterExact(redis, java, "virtual", "--spring.threads.virtual.enabled=true");
        assertTrue(lines.stream().allMatch(l -> l.endsWith("virtual=true")), "the tasks ran on virtual threads: " + lines);
    }

    private List<String> assertCounterExact(RedisServer redis, String java, String run, String... extra) throws Exception {
        try (RedisProbe probe = redis.probe()) {
            probe.call("DEL", "starter:fleet:value");
        }
        int increments = 150;
        List<Process> jvms = new ArrayList<>();
        List<CompletableFuture<List<String>>> outputs = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:TieredStopAtLevel=1",
                        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", System.getProperty("java.class.path"),
                        CounterApp.class.getName(), Integer.toString(increments), "8",
                        "--spring.data.redis.port=" + redis.port()));
                command.addAll(List.of(extra));
                Process jvm = new ProcessBuilder(command).redirectErrorStream(true).start();
                jvms.add(jvm);
                outputs.add(CompletableFuture.supplyAsync(() -> lines(jvm)));
            }
            List<String> done = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                assertTrue(jvms.get(i).waitFor(3, TimeUnit.MINUTES), run + ": the application ended");
                List<String> output = outputs.get(i).get(30, TimeUnit.SECONDS);
                assertEquals(0, jvms.get(i).exitValue(), String.join("\n", output));
                String line = output.stream().filter(l -> l.startsWith("DONE ")).findFirst().orElse(null);
                assertNotNull(line, String.join("\n", output));
                done.add(line);
            }
            try (RedisProbe probe = redis.probe()) {
                assertEquals(Integer.toString(2 * increments), probe.call("GET", "starter:fleet:value"), run);
                assertEquals(0L, probe.call("EXISTS", "starter:fleet"), "no lock left behind");
            }
            return done;
        } finally {
            jvms.forEach(Process::destroyForcibly);
        }
    }

    private static List<String> lines(Process process) {
        List<String> lines = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lines.add(line);
            }
        } catch (IOException e) {
            lines.add("(output lost: " + e + ")");
        }
        return lines;
    }

    private static String currentJava() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
