package io.hasp.it.lock;

import static io.hasp.it.lock.Clients.await;
import static io.hasp.it.lock.Clients.seconds;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.it.Topology;
import io.hasp.it.TopologyServers;
import io.hasp.lock.HaspLock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link HaspClient#commandsInFlight()} on one server, on a Redis Cluster and behind Sentinel: the commands a
 * server holds back (its writes paused with {@code CLIENT PAUSE ... WRITE}) are counted, whether they travel on
 * the multiplexed connections or, for a blocking lock call, on a direct connection, and the count is back to 0
 * once their replies arrived.
 */
@ParameterizedClass
@EnumSource(Topology.class)
class CommandsInFlightIT {

    private static final Duration SLACK = Duration.ofSeconds(30);

    private static TopologyServers servers;
    private static HaspClient client;

    @Parameter
    Topology topology;

    private String name;

    @BeforeParameterizedClassInvocation
    static void start(Topology topology) {
        servers = TopologyServers.start(topology);
        client = Clients.hasp(servers.uri(), seconds(30), seconds(60));
    }

    @AfterParameterizedClassInvocation
    static void stop() {
        try {
            client.close();
        } finally {
            servers.close();
        }
    }

    @BeforeEach
    void name(TestInfo test) throws InterruptedException {
        name = "{in-flight}:" + test.getTestMethod().orElseThrow().getName();
        await("an idle client", SLACK, () -> client.commandsInFlight() == 0);
    }

    /** Runs {@code action} while the server of {@link #name}'s slot holds every write back. */
    private void whilePaused(ThrowingRunnable action) throws Exception {
        servers.call(name, "CLIENT", "PAUSE", "60000", "WRITE");
        try {
            action.run();
        } finally {
            servers.call(name, "CLIENT", "UNPAUSE");
        }
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    @Test
    void asyncAcquisitionsAreInFlightUntilTheServerAnswers() throws Exception {
        List<HaspLock> locks = new ArrayList<>();
        List<CompletableFuture<Void>> acquires = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            locks.add(client.getLock(name + ":" + i));   // one hash tag: one server in a cluster
        }
        whilePaused(() -> {
            for (HaspLock lock : locks) {
                acquires.add(lock.lockAsync(lock.owner(1)));
            }
            await("four acquisitions in flight", SLACK, () -> client.commandsInFlight() >= 4);
            assertTrue(acquires.stream().noneMatch(CompletableFuture::isDone), "the paused server answered nothing");
        });
        for (int i = 0; i < locks.size(); i++) {
            acquires.get(i).get(30, TimeUnit.SECONDS);
            locks.get(i).unlockAsync(locks.get(i).owner(1)).get(30, TimeUnit.SECONDS);
        }
        await("every reply arrived", SLACK, () -> client.commandsInFlight() == 0);
    }

    @Test
    void aBlockingLockCallIsInFlightOnItsOwnConnectionToo() throws Exception {
        HaspLock lock = client.getLock(name);
        lock.lock();   // opens the direct connection blocking calls read their replies on (none in a cluster)
        lock.unlock();
        CompletableFuture<Void> locked = new CompletableFuture<>();
        Thread caller = new Thread(() -> {
            try {
                lock.lock();
                lock.unlock();
                locked.complete(null);
            } catch (RuntimeException e) {
                locked.completeExceptionally(e);
            }
        }, "in-flight-caller");
        whilePaused(() -> {
            caller.start();
            await("the blocking acquisition in flight", SLACK, () -> client.commandsInFlight() >= 1);
            assertTrue(!locked.isDone(), "the paused server answered nothing");
        });
        locked.get(30, TimeUnit.SECONDS);
        caller.join(TimeUnit.SECONDS.toMillis(30));
        await("every reply arrived", SLACK, () -> client.commandsInFlight() == 0);
    }
}
