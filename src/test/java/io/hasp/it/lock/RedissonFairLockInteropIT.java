package io.hasp.it.lock;

import static io.hasp.it.lock.Clients.await;
import static io.hasp.it.lock.Clients.seconds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.lock.HaspLock;
import io.hasp.lock.LockOwner;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * hasp's fair lock beside Redisson's {@code getFairLock} on one name: one line for both, served in the order the
 * waiters came whichever library each uses and whichever holds the lock first; each library's unlock wakes the
 * other's waiter at the head of the line on its own channel; a hasp waiter that gives up does not hold up a
 * Redisson waiter behind it.
 */
@ExtendWith(RedisServerExtension.class)
class RedissonFairLockInteropIT {

    private static final Duration SLACK = Duration.ofSeconds(30);

    private static HaspClient hasp;
    /** Parks for up to 20 s between looks at the lock: only a wake-up serves it sooner. */
    private static HaspClient patient;
    private static RedissonClient redisson;
    private static RedisProbe probe;

    private String name;

    @BeforeAll
    static void start(RedisServer server) {
        hasp = Clients.hasp(server.uri(), seconds(30));
        patient = Clients.hasp(server.uri(), seconds(60));
        Config config = new Config();
        config.useSingleServer().setAddress(server.uri());
        redisson = Redisson.create(config);
        probe = RedisProbe.connect(server.port());
    }

    @AfterAll
    static void stop() {
        hasp.close();
        patient.close();
        redisson.shutdown();
        probe.close();
    }

    @BeforeEach
    void name(TestInfo test) {
        name = "fair-interop:" + test.getTestMethod().orElseThrow().getName();
    }

    private List<?> line() {
        return (List<?>) probe.call("LRANGE", "redisson_lock_queue:{" + name + "}", "0", "-1");
    }

    private void awaitLine(int length) throws InterruptedException {
        await("a line of " + length, SLACK, () -> line().size() == length);
    }

    /** Eight waiters, hasp and Redisson in turn, behind a holder of either library: served as they came. */
    private void servedInOrder(boolean haspHoldsFirst) throws Exception {
        HaspLock haspHeld = hasp.getFairLock(name);
        LockOwner haspHolder = haspHeld.owner(1_000);
        RLock redissonHeld = redisson.getFairLock(name);
        if (haspHoldsFirst) {
            haspHeld.lockAsync(haspHolder).get(10, TimeUnit.SECONDS);
        } else {
            redissonHeld.lockAsync(1_000L).toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        List<Integer> order = Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<?>> done = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            int number = i;
            if (i % 2 == 0) {
                HaspLock lock = (i % 4 == 0 ? hasp : patient).getFairLock(name);
                LockOwner owner = lock.owner(i + 1);
                done.add(lock.lockAsync(owner).thenCompose(granted -> {
                    order.add(number);
                    return lock.unlockAsync(owner);
                }));
            } else {
                RLock lock = redisson.getFairLock(name);
                long thread = i + 1;
                done.add(lock.lockAsync(thread).toCompletableFuture().thenCompose(granted -> {
                    order.add(number);
                    return lock.unlockAsync(thread).toCompletableFuture();
                }));
            }
            awaitLine(i + 1);
        }
        if (haspHoldsFirst) {
            haspHeld.unlockAsync(haspHolder).get(10, TimeUnit.SECONDS);
        } else {
            redissonHeld.unlockAsync(1_000L).toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        assertEquals(IntStream.range(0, 8).boxed().toList(), order);
        assertEquals(0L, probe.call("EXISTS", name));
        assertEquals(List.of(), line());
    }

    @Test
    void oneLineForBothLibrariesBehindAHaspHolder() throws Exception {
        servedInOrder(true);
    }

    @Test
    void oneLineForBothLibrariesBehindARedissonHolder() throws Exception {
        servedInOrder(false);
    }

    @Test
    void haspsUnlockWakesARedissonWaiterAtTheHead() throws Exception {
        // The holder's lease is 60 s: a Redisson waiter that is not woken looks again only when it runs out.
        HaspLock held = patient.getFairLock(name);
        LockOwner holder = held.owner(1);
        held.lockAsync(holder).get(10, TimeUnit.SECONDS);
        RLock waiting = redisson.getFairLock(name);
        CompletableFuture<Void> served = waiting.lockAsync(7L).toCompletableFuture();
        awaitLine(1);
        held.unlockAsync(holder).get(10, TimeUnit.SECONDS);
        served.get(15, TimeUnit.SECONDS);
        assertTrue(waiting.isHeldByThread(7L));
        waiting.unlockAsync(7L).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void redissonsUnlockWakesAHaspWaiterAtTheHead() throws Exception {
        RLock held = redisson.getFairLock(name);
        held.lockAsync(1L).toCompletableFuture().get(10, TimeUnit.SECONDS);
        HaspLock waiting = patient.getFairLock(name);
        LockOwner owner = waiting.owner(2);
        CompletableFuture<Void> served = waiting.lockAsync(owner);
        awaitLine(1);
        held.unlockAsync(1L).toCompletableFuture().get(10, TimeUnit.SECONDS);
        served.get(15, TimeUnit.SECONDS);
        assertTrue(waiting.isHeldBy(owner));
        waiting.unlockAsync(owner).get(10, TimeUnit.SECONDS);
    }

    @Test
    void aHaspWaiterThatGivesUpDoesNotHoldUpARedissonWaiterBehindIt() throws Exception {
        RLock held = redisson.getFairLock(name);
        held.lockAsync(1L).toCompletableFuture().get(10, TimeUnit.SECONDS);
        HaspLock ahead = hasp.getFairLock(name);
        CompletableFuture<Void> givesUp = ahead.lockAsync(ahead.owner(2));
        awaitLine(1);
        RLock behind = redisson.getFairLock(name);
        CompletableFuture<Void> served = behind.lockAsync(3L).toCompletableFuture();
        awaitLine(2);
        givesUp.cancel(false);   // the lock is held: nothing can be granted to it meanwhile
        await("the hasp waiter left the line", SLACK, () -> line().size() == 1);
        held.unlockAsync(1L).toCompletableFuture().get(10, TimeUnit.SECONDS);
        served.get(15, TimeUnit.SECONDS);
        assertTrue(behind.isHeldByThread(3L));
        behind.unlockAsync(3L).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
