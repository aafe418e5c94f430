package io.hasp.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.lock.HaspLock;
import io.hasp.sync.HaspSemaphore;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Actuator endpoint {@code hasp} over HTTP, in a Boot application with a web server on a free port: the
 * client's holds, one lock inspected (a name with a slash too), force-unlock refused unless enabled, and when
 * enabled, a lock held by another client freed with its holders named; a synchronizer is not force-unlocked.
 */
class HaspEndpointIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final String PASSWORD = "endpoint-secret-4711";

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
    }

    private static RedisServer redis;
    private static RedisProbe probe;

    @BeforeAll
    static void start() {
        redis = RedisServer.builder().name("endpoint-it").option("requirepass", PASSWORD).start();
        probe = RedisProbe.connect(redis.port());
        probe.call("AUTH", PASSWORD);
    }

    @AfterAll
    static void stop() {
        if (probe != null) {
            probe.close();
        }
        if (redis != null) {
            redis.stop();
        }
    }

    private static ConfigurableApplicationContext app(String... properties) {
        return new SpringApplicationBuilder(App.class).web(WebApplicationType.REACTIVE)
                .properties("spring.main.banner-mode=off", "server.address=127.0.0.1", "server.port=0",
                        "spring.application.name=orders-service", "hasp.client-name=${spring.application.name}",
                        "spring.data.redis.port=" + redis.port(), "spring.data.redis.password=" + PASSWORD,
                        "management.endpoints.web.exposure.include=hasp")
                .properties(properties)
                .run();
    }

    /** An HTTP answer: its status and body. */
    record Response(int statusCode, String body) {
    }

    private static Response call(ConfigurableApplicationContext app, String method, String path) throws IOException {
        String port = app.getEnvironment().getProperty("local.server.port");
        HttpURLConnection connection = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + "/actuator/hasp" + path)
                .toURL().openConnection();
        try {
            connection.setRequestMethod(method);
            connection.setConnectTimeout((int) TIMEOUT.toMillis());
            connection.setReadTimeout((int) TIMEOUT.toMillis());
            int status = connection.getResponseCode();
            InputStream body = status < 400 ? connection.getInputStream() : connection.getErrorStream();
            try (InputStream in = body) {
                return new Response(status, in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        } finally {
            connection.disconnect();
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(Response response) {
        return JsonMapper.builder().build().readValue(response.body(), Map.class);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> first(Object list) {
        return ((List<Map<String, Object>>) list).get(0);
    }

    @Test
    void showsTheClientsHoldsAndInspectsALockAndRefusesForceUnlockByDefault() throws Exception {
        try (ConfigurableApplicationContext app = app()) {
            HaspClient client = app.getBean(HaspClient.class);
            HaspLock lock = client.getLock("orders:42");
            lock.lock();
            lock.lock();
            HaspLock slashed = client.getLock("jobs/nightly");
            slashed.lock();
            try {
                Response state = call(app, "GET", "");
                assertEquals(200, state.statusCode(), state.body());
                Map<String, Object> view = json(state);
                assertEquals(client.id(), view.get("clientId"));
                assertEquals(false, view.get("closed"));
                assertEquals(false, view.get("forceUnlockEnabled"));
                assertEquals(2, view.get("heldLocks"));
                assertFalse(state.body().contains(PASSWORD), "no credential: " + state.body());
                List<?> holds = (List<?>) view.get("holds");
                assertEquals(2, holds.size(), state.body());
                @SuppressWarnings("unchecked")
                Map<String, Object> hold = (Map<String, Object>) holds.get(1);   // sorted by name: jobs/..., orders:...
                assertEquals("orders:42", hold.get("name"));
                assertEquals(2, hold.get("holdCount"));
                assertEquals(true, hold.get("watchdog"));
                assertEquals(client.id(), hold.get("clientId"));

                Response inspected = call(app, "GET", "/orders:42");
                assertEquals(200, inspected.statusCode(), inspected.body());
                Map<String, Object> info = json(inspected);
                assertEquals("REENTRANT", info.get("kind"));
                assertEquals(true, info.get("held"));
                Map<String, Object> holder = first(info.get("holders"));
                assertEquals(client.id(), holder.get("clientId"));
                assertEquals(2, holder.get("holdCount"));
                assertEquals("orders-service", holder.get("application"));
                assertEquals(ProcessHandle.current().pid(), ((Number) holder.get("pid")).longValue());

                Map<String, Object> nested = json(call(app, "GET", "/jobs/nightly"));
                assertEquals("jobs/nightly", nested.get("name"));
                assertEquals(true, nested.get("held"));

                Map<String, Object> free = json(call(app, "GET", "/nobody:holds"));
                assertEquals("NONE", free.get("kind"));
                assertEquals(false, free.get("held"));

                Response refused = call(app, "DELETE", "/orders:42");
                assertEquals(403, refused.statusCode(), refused.body());
                assertTrue(refused.body().contains("hasp.endpoint.force-unlock-enabled"), refused.body());
                assertEquals(1L, probe.call("EXISTS", "orders:42"), "still held after a refused force-unlock");
                assertEquals(2, lock.getHoldCount());
            } finally {
                slashed.unlock();
                lock.unlock();
                lock.unlock();
            }
        }
    }

    @Test
    void whenEnabledForceUnlockFreesALockHeldElsewhereAndNamesItsHolders() throws Exception {
        try (ConfigurableApplicationContext app = app("hasp.endpoint.force-unlock-enabled=true");
                HaspClient elsewhere = HaspClient.create("redis://:" + PASSWORD + "@127.0.0.1:" + redis.port())) {
            HaspLock stuck = elsewhere.getLock("payments:7");
            stuck.lock();
            Response freed;
            ByteArrayOutputStream logged = new ByteArrayOutputStream();
            PrintStream stderr = System.err;
            System.setErr(new PrintStream(logged, true, StandardCharsets.UTF_8));   // where the test's logger writes
            try {
                freed = call(app, "DELETE", "/payments:7");
            } finally {
                System.setErr(stderr);
            }
            String log = logged.toString(StandardCharsets.UTF_8);
            assertTrue(log.contains("WARN") && log.contains("force-unlock of lock payments:7")
                    && log.contains(elsewhere.id()), "the use is logged with the holder it removed: " + log);
            assertEquals(200, freed.statusCode(), freed.body());
            Map<String, Object> body = json(freed);
            assertEquals(true, body.get("unlocked"));
            assertTrue(String.valueOf(body.get("holders")).contains(elsewhere.id()), freed.body());
            assertEquals(0L, probe.call("EXISTS", "payments:7"));
            assertTrue(app.getBean(HaspClient.class).getLock("payments:7").tryLock(), "free for another holder");
            app.getBean(HaspClient.class).getLock("payments:7").unlock();

            Map<String, Object> again = json(call(app, "DELETE", "/payments:7"));
            assertEquals(false, again.get("unlocked"), "nothing to free the second time");

            HaspSemaphore permits = elsewhere.getSemaphore("permits:1");
            permits.trySetPermits(3);
            Response notALock = call(app, "DELETE", "/permits:1");
            assertEquals(400, notALock.statusCode(), notALock.body());
            assertEquals("3", probe.call("GET", "permits:1"), "a synchronizer is left alone");

            probe.call("HSET", "stats:daily", "views", "10", "clicks", "3");   // numbers, as hold counts are
            Response notOwners = call(app, "DELETE", "/stats:daily");
            assertEquals(400, notOwners.statusCode(), notOwners.body());
            assertEquals(1L, probe.call("EXISTS", "stats:daily"), "an application's hash is left alone");
        }
    }
}
