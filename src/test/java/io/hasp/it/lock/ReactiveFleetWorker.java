package io.hasp.it.lock;

import io.hasp.HaspClient;
import io.hasp.RedisCommands;
import io.hasp.reactor.HaspReactiveClient;
import io.hasp.reactor.ReactiveLock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A child JVM of a fleet that counts under one lock through hasp-reactor: {@code owners} subscriptions at
 * once, each doing {@code increments} critical sections of GET, a 1 ms pause on another thread, then SET
 * of {@code counter} inside {@code withLock}. Prints {@code DONE <critical sections>}. Arguments are
 * {@code key=value}: {@code uri}, {@code lock}, {@code counter}, {@code owners}, {@code increments}.
 */
public final class ReactiveFleetWorker {

    private ReactiveFleetWorker() {
    }

    public static void main(String[] argv) {
        Map<String, String> args = new HashMap<>();
        for (String a : argv) {
            int eq = a.indexOf('=');
            args.put(a.substring(0, eq), a.substring(eq + 1));
        }
        int owners = Integer.parseInt(args.get("owners"));
        int increments = Integer.parseInt(args.get("increments"));
        String counter = args.get("counter");
        try (HaspClient client = HaspClient.create(args.get("uri"))) {
            RedisCommands redis = client.commands();
            ReactiveLock lock = HaspReactiveClient.of(client).getLock(args.get("lock"));
            Mono<Long> increment = lock.withLock(Mono.fromFuture(() -> redis.get(counter))
                    .map(Long::parseLong)
                    .defaultIfEmpty(0L)
                    .delayElement(Duration.ofMillis(1))
                    .flatMap(seen -> Mono.fromFuture(() -> redis.set(counter, Long.toString(seen + 1))).thenReturn(seen + 1)));
            Long done = Flux.range(0, owners)
                    .flatMap(owner -> Flux.range(0, increments).concatMap(i -> increment))
                    .count()
                    .block(Duration.ofMinutes(5));
            System.out.println("DONE " + done);
            System.out.flush();
        }
        System.exit(0);
    }
}
