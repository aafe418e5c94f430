package io.hasp.it.rw;

import static io.hasp.it.rw.RwTesting.get;
import static io.hasp.it.rw.RwTesting.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.Replies;
import io.hasp.it.RedissonRelease;
import io.hasp.lock.HaspLock;
import io.hasp.lock.LockOwner;
import io.hasp.lock.rw.HaspReadWriteLock;
import io.hasp.lock.rw.HaspReadWriteLocks;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RReadWriteLock;
import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

/**
 * hasp's read/write lock and Redisson's {@code RReadWriteLock} on one name and one server: they
 * share reads, exclude each other's writers and wake each other. Redisson holders are addressed by
 * explicit thread ids through its async API. Runs against Redisson 4.x here and against the last
 * 3.x release in hasp-interop-redisson3.
 */
@ExtendWith(RedisServerExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedissonReadWriteInteropIT {

    private HaspClient hasp;
    private RedissonClient redisson;
    private HaspReadWriteLock lock;
    private RReadWriteLock peer;

    private String uri;

    @BeforeAll
    void connect(RedisServer redis) {
        uri = redis.uri();
        hasp = RwTesting.client(redis.uri());
        Config config = new Config();
        config.useSingleServer().setAddress(redis.uri());
        redisson = Redisson.create(config);
    }

    @Test
    void runsAgainstTheRedissonReleaseTheBuildNames() throws Exception {
        assertEquals(RedissonRelease.named(), RedissonRelease.onClassPath());
    }

    @AfterAll
    void close() {
        if (redisson != null) {
            redisson.shutdown();
        }
        if (hasp != null) {
            hasp.close();
        }
    }

    @BeforeEach
    void locks(TestInfo test) {
        String name = "interop-" + test.getTestMethod().orElseThrow().getName();
        lock = HaspReadWriteLocks.of(hasp).get(name);
        peer = redisson.getReadWriteLock(name);
    }

    private static <T> T peerGet(CompletionStage<T> stage) {
        return get(stage.toCompletableFuture());
    }

    private static boolean peerTry(RLock mode, long threadId) {
        return peerGet(mode.tryLockAsync(0, -1, TimeUnit.MILLISECONDS, threadId));
    }

    @Test
    void haspAndRedissonReadersShare() {
        LockOwner reader = lock.readLock().owner(1);
        assertTrue(get(lock.readLock().tryLockAsync(reader)));
        assertTrue(peerTry(peer.readLock(), 11), "a Redisson reader joins a hasp reader");
        assertTrue(peer.readLock().isLocked());
        get(lock.readLock().unlockAsync(reader));
        assertTrue(lock.readLock().isLocked(), "the Redisson reader still holds it");
        assertFalse(get(lock.writeLock().tryLockAsync(lock.writeLock().owner(2))));
        peerGet(peer.readLock().unlockAsync(11));
        assertFalse(lock.isLocked());

        assertTrue(peerTry(peer.readLock(), 12));
        assertTrue(get(lock.readLock().tryLockAsync(reader)), "a hasp reader joins a Redisson reader");
        peerGet(peer.readLock().unlockAsync(12));
        get(lock.readLock().unlockAsync(reader));
        assertFalse(lock.isLocked());
    }

    @Test
    void haspWriterExcludesRedissonReadersAndWriters() {
        LockOwner writer = lock.writeLock().owner(1);
        assertTrue(get(lock.writeLock().tryLockAsync(writer)));
        assertTrue(peer.writeLock().isLocked());
        assertFalse(peerTry(peer.readLock(), 21));
        assertFalse(peerTry(peer.writeLock(), 22));
        get(lock.writeLock().unlockAsync(writer));
        assertTrue(peerTry(peer.writeLock(), 22));
        peerGet(peer.writeLock().unlockAsync(22));
    }

    @Test
    void redissonWriterExcludesHaspReadersAndWriters() {
        assertTrue(peerTry(peer.writeLock(), 31));
        assertTrue(lock.writeLock().isLocked());
        assertFalse(get(lock.readLock().tryLockAsync(lock.readLock().owner(1))));
        assertFalse(get(lock.writeLock().tryLockAsync(lock.writeLock().owner(2))));
        peerGet(peer.writeLock().unlockAsync(31));
        assertTrue(get(lock.writeLock().tryLockAsync(lock.writeLock().owner(2))));
        get(lock.writeLock().unlockAsync(lock.writeLock().owner(2)));
    }

    @Test
    void readersOfOneSideHoldOffWritersOfTheOther() {
        assertTrue(peerTry(peer.readLock(), 41));
        assertFalse(get(lock.writeLock().tryLockAsync(lock.writeLock().owner(1))));
        peerGet(peer.readLock().unlockAsync(41));

        LockOwner reader = lock.readLock().owner(2);
        assertTrue(get(lock.readLock().tryLockAsync(reader)));
        assertFalse(peerTry(peer.writeLock(), 42));
        get(lock.readLock().unlockAsync(reader));
        assertTrue(peerTry(peer.writeLock(), 42));
        peerGet(peer.writeLock().unlockAsync(42));
    }

    @Test
    void redissonWriteUnlockWakesHaspReaders() {
        assertTrue(peerTry(peer.writeLock(), 51));   // Redisson's watchdog: a 30 s lease
        CompletableFuture<Void> r1 = lock.readLock().lockAsync(lock.readLock().owner(1));
        CompletableFuture<Void> r2 = lock.readLock().lockAsync(lock.readLock().owner(2));
        assertFalse(r1.isDone() || r2.isDone());
        peerGet(peer.writeLock().unlockAsync(51));
        get(CompletableFuture.allOf(r1, r2).orTimeout(10, TimeUnit.SECONDS));
        get(lock.readLock().unlockAsync(lock.readLock().owner(1)));
        get(lock.readLock().unlockAsync(lock.readLock().owner(2)));
    }

    /** Script calls the server has run so far (EVAL and EVALSHA), from INFO commandstats. */
    private long scriptCalls() {
        String stats = get(hasp.commands().execute(Replies.STRING, "INFO", "commandstats"));
        long calls = 0;
        for (String line : stats.split("\r?\n")) {
            if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
                int at = line.indexOf("calls=") + "calls=".length();
                calls += Long.parseLong(line.substring(at, line.indexOf(',', at)));
            }
        }
        return calls;
    }

    @Test
    void haspWriteUnlockWakesRedissonReaders() {
        LockOwner writer = lock.writeLock().owner(1);
        assertTrue(get(lock.writeLock().tryLockAsync(0, 5, TimeUnit.SECONDS, writer)));   // a 5 s lease
        // The wake-up hasp owes the readers: "1" (everyone look) on the read/write lock's channel.
        RTopic channel = redisson.getTopic("redisson_rwlock:{" + lock.getName() + "}", StringCodec.INSTANCE);
        CompletableFuture<String> published = new CompletableFuture<>();
        int listener = channel.addListener(String.class, (topic, message) -> published.complete(message));
        long scriptsBefore = scriptCalls();
        CompletableFuture<Void> r1 = peer.readLock().lockAsync(61).toCompletableFuture();
        CompletableFuture<Void> r2 = peer.readLock().lockAsync(62).toCompletableFuture();
        // Unlock only once both Redisson readers wait: each tries, subscribes, and tries again.
        // A READ_UNLOCK message that reaches Redisson between a reader's second try and the moment
        // it starts listening wakes nobody there (it releases only the permits already asked
        // for), so that reader would sleep for the writer's whole lease: a Redisson race, not ours.
        until(Duration.ofSeconds(20), "both Redisson readers subscribed and tried again",
                () -> scriptCalls() - scriptsBefore >= 4);
        assertFalse(r1.isDone() || r2.isDone());
        get(lock.writeLock().unlockAsync(writer));
        assertEquals("1", get(published), "the write unlock told every waiting reader to look");
        channel.removeListener(listener);
        // Woken by that message, at once as a rule. If it slipped through the Redisson race above, a
        // reader wakes when the writer's lease would have ended (5 s): the bound covers both.
        get(CompletableFuture.allOf(r1, r2).orTimeout(20, TimeUnit.SECONDS));
        peerGet(peer.readLock().unlockAsync(61));
        peerGet(peer.readLock().unlockAsync(62));
        assertFalse(lock.isLocked());
    }

    @Test
    void redissonReadUnlockWakesHaspWriter() {
        assertTrue(peerTry(peer.readLock(), 71));
        LockOwner writer = lock.writeLock().owner(1);
        CompletableFuture<Void> writing = lock.writeLock().lockAsync(writer);
        assertFalse(writing.isDone());
        peerGet(peer.readLock().unlockAsync(71));
        get(writing.orTimeout(10, TimeUnit.SECONDS));
        get(lock.writeLock().unlockAsync(writer));
    }

    @Test
    void haspReadUnlockWakesRedissonWriter() {
        LockOwner reader = lock.readLock().owner(1);
        assertTrue(get(lock.readLock().tryLockAsync(reader)));
        CompletableFuture<Void> writing = peer.writeLock().lockAsync(81).toCompletableFuture();
        assertFalse(writing.isDone());
        get(lock.readLock().unlockAsync(reader));
        get(writing.orTimeout(10, TimeUnit.SECONDS));
        peerGet(peer.writeLock().unlockAsync(81));
    }

    @Test
    void redissonUnlockKeepsTheHashAliveForALongerHaspHold() {
        LockOwner reader = lock.readLock().owner(1);
        assertTrue(get(lock.readLock().tryLockAsync(0, 60, TimeUnit.SECONDS, reader)));
        assertTrue(peerGet(peer.readLock().tryLockAsync(0, 5, TimeUnit.SECONDS, 91)));
        peerGet(peer.readLock().unlockAsync(91));
        long ttl = lock.readLock().remainTimeToLive();
        assertTrue(ttl > 5_000, "Redisson's unlock kept the hash for hasp's 60 s hold: " + ttl);
        get(lock.readLock().unlockAsync(reader));
        assertFalse(lock.isLocked());
    }

    @Test
    void aRedissonWriterIsServedWhileHaspProcessesTakeTurnsAtTheWriteLock() throws Exception {
        // Four hasp processes (clients of their own) contend for the write lock and take turns; Redisson's writer
        // does not read the turns, and is woken by every hasp write unlock's message.
        List<HaspClient> processes = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        AtomicBoolean running = new AtomicBoolean(true);
        long[] counter = {0};
        try {
            for (int i = 0; i < 4; i++) {
                HaspClient process = RwTesting.client(uri);
                processes.add(process);
                HaspLock write = HaspReadWriteLocks.of(process).get(lock.getName()).writeLock();
                Thread thread = new Thread(() -> {
                    while (running.get()) {
                        write.lock();
                        try {
                            counter[0]++;
                        } finally {
                            write.unlock();
                        }
                    }
                }, "hasp-writer-" + i);
                threads.add(thread);
                thread.start();
            }
            until(RwTesting.DEADLINE, "the hasp processes contend", () -> counter[0] > 100);
            for (int i = 0; i < 20; i++) {
                assertTrue(peerGet(peer.writeLock().tryLockAsync(20, 5, TimeUnit.SECONDS, 101)),
                        "Redisson's writer served, acquisition " + i);
                counter[0]++;
                peerGet(peer.writeLock().unlockAsync(101));
            }
        } finally {
            running.set(false);
            for (Thread thread : threads) {
                thread.join(TimeUnit.SECONDS.toMillis(20));
            }
            for (HaspClient process : processes) {
                process.close();
            }
        }
        assertTrue(threads.stream().noneMatch(Thread::isAlive), "the hasp writers stopped");
    }
}
