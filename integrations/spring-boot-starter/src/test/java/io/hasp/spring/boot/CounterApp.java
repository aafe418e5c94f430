package io.hasp.spring.boot;

import io.hasp.HaspClient;
import io.hasp.annotation.Locked;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.task.AsyncTaskExecutor;

/**
 * A Spring Boot application that increments a plain Redis counter (GET then SET) through a
 * {@link Locked} service method, from several tasks on the application's task executor, then
 * prints {@code DONE <increments> virtual=<true|false>} and exits. Run by the tests in child JVMs:
 * {@code CounterApp <increments> <tasks> --spring.data.redis.port=... [--spring.threads.virtual.enabled=true]}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class CounterApp {

    /** The service whose method the lock guards. */
    public static class Counter {
        private final HaspClient client;

        public Counter(HaspClient client) {
            this.client = client;
        }

        @Locked(value = "starter", key = "#name", retryCount = 0, retryInterval = 5)
        public void increment(String name) throws Exception {
            String value = client.commands().get("starter:" + name + ":value").get(10, TimeUnit.SECONDS);
            long next = (value == null ? 0 : Long.parseLong(value)) + 1;
            client.commands().set("starter:" + name + ":value", Long.toString(next)).get(10, TimeUnit.SECONDS);
        }
    }

    @Bean
    Counter counter(HaspClient client) {
        return new Counter(client);
    }

    public static void main(String[] args) throws Exception {
        int increments = Integer.parseInt(args[0]);
        int tasks = Integer.parseInt(args[1]);
        String[] springArgs = java.util.Arrays.copyOfRange(args, 2, args.length);
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(CounterApp.class)
                .web(WebApplicationType.NONE).properties(Map.of("spring.main.banner-mode", "off")).run(springArgs)) {
            Counter counter = context.getBean(Counter.class);
            AsyncTaskExecutor executor = context.getBean("applicationTaskExecutor", AsyncTaskExecutor.class);
            List<Future<Boolean>> running = new ArrayList<>();
            for (int t = 0; t < tasks; t++) {
                int share = increments / tasks + (t < increments % tasks ? 1 : 0);
                running.add(executor.submit(() -> {
                    for (int i = 0; i < share; i++) {
                        counter.increment("fleet");
                    }
                    return isVirtual(Thread.currentThread());
                }));
            }
            boolean virtual = true;
            for (Future<Boolean> task : running) {
                virtual &= task.get(5, TimeUnit.MINUTES);
            }
            System.out.println("DONE " + increments + " virtual=" + virtual);
        }
    }

    /** Thread.isVirtual() where the runtime has it (Java 21+), false before. */
    private static boolean isVirtual(Thread thread) {
        try {
            return (Boolean) Thread.class.getMethod("isVirtual").invoke(thread);
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }
}
