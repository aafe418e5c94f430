package io.hasp.internal.lock;

import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.internal.ClientInternals;
import io.hasp.testing.RedisServer;
import io.hasp.testing.TcpProxy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * What the lock tests that lose, delay or hold back replies share: a real server seen through a
 * {@link ServerView}, a {@link TcpProxy} in front of it, a client of the proxy whose command timeout
 * (20 s) lets delayed replies arrive rather than time out, and an observer client, connected
 * directly, that records every message published on one unlock channel. {@link #close} undoes the
 * proxy's faults, closes everything and checks that the proxy's threads stopped; close the lock
 * services made on the client first.
 */
final class ProxiedServer implements AutoCloseable {

    /** The bound of every wait in these tests: generous for loaded machines, never a timing measured. */
    static final Duration SLACK = Duration.ofSeconds(30);

    final ServerView view;
    final TcpProxy proxy;
    final HaspClient client;
    final HaspClient observer;
    /** The messages published on the observed channel, in order. */
    final LinkedBlockingQueue<String> messages = new LinkedBlockingQueue<>();

    ProxiedServer(RedisServer server, String observedChannel) throws Exception {
        view = new ServerView(server);
        proxy = TcpProxy.start(server.port());
        client = HaspClient.create(HaspConfig.builder().uri(proxy.uri()).commandTimeout(Duration.ofSeconds(20))
                .build());
        client.commands().ping().get(SLACK.toSeconds(), TimeUnit.SECONDS);
        observer = HaspClient.create(server.uri());
        ClientInternals.pubSub(observer).subscribe(observedChannel, (channel, message) -> messages.add(message))
                .get(SLACK.toSeconds(), TimeUnit.SECONDS);
    }

    /** A lock service named {@code clientId} with its commands on {@code commands} and its subscriptions on {@code pubSub}. */
    static LockService service(String clientId, HaspClient commands, HaspClient pubSub, Duration watchdog) {
        HaspConfig config = commands.config();
        return new LockService(clientId, new PartsTopology(commands.commands(), ClientInternals.pubSub(pubSub)),
                ClientInternals.timer(commands), watchdog,
                config.timerTick(), config.commandTimeout());
    }

    /** The future's result, waiting at most {@link #SLACK}. */
    static <T> T get(CompletableFuture<T> future) throws Exception {
        return future.get(SLACK.toSeconds(), TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        proxy.blackhole(false);
        proxy.delay(Duration.ZERO);
        proxy.rejectNewConnections(false);
        client.close();
        observer.close();
        proxy.close();
        view.close();
        assertTrue(proxy.threadsStopped());
    }
}
