package io.hasp.it.lock;

import static io.hasp.it.lock.Clients.await;
import static io.hasp.it.lock.Clients.seconds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.lock.HaspLock;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.HoldLostException;
import io.hasp.lock.LockOwner;
import io.hasp.lock.rw.HaspReadWriteLock;
import io.hasp.lock.rw.HaspReadWriteLocks;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import io.hasp.testing.TcpProxy;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code extend}: a held lock with a fixed lease gets a new lease from now and says whether it was
 * still held; a hold that ended is not revived; a watchdog hold is refused; an extension whose reply
 * was lost is sent again and answers the same. The client talks to Redis through a proxy.
 */
@ExtendWith(RedisServerExtension.class)
class ExtendIT {

    private static final Duration SLACK = Duration.ofSeconds(20);

    private static TcpProxy proxy;
    private static HaspClient client;
    private static RedisProbe probe;

    private String name;

    @BeforeAll
    static void start(RedisServer server) throws Exception {
        proxy = TcpProxy.start(server.port());
        client = Clients.hasp(proxy.uri(), seconds(30));
        probe = RedisProbe.connect(server.port());
    }

    @AfterAll
    static void stop() {
        client.close();
        proxy.close();
        probe.close();
    }

    @BeforeEach
    void name(TestInfo test) {
        name = "extend:" + test.getTestMethod().orElseThrow().getName();
    }

    private long pttl(String key) {
        return ((Number) probe.call("PTTL", key)).longValue();
    }

    @Test
    void aHeldLeaseIsResetFromNow() throws Exception {
        HaspLock lock = client.getLock(name);
        assertTrue(lock.tryLock(Duration.ofSeconds(5), Duration.ofSeconds(2)));
        assertTrue(pttl(name) <= 2_000);
        assertTrue(lock.extend(Duration.ofSeconds(60)));
        assertTrue(pttl(name) > 2_000, "the lease now runs for a minute: " + pttl(name));
        assertTrue(lock.extend(30, TimeUnit.SECONDS));
        assertTrue(pttl(name) <= 30_000 && pttl(name) > 2_000, "reset, not added: " + pttl(name));
        lock.unlock();
        assertFalse(lock.isLocked());
    }

    @Test
    void anEndedHoldIsNotRevived() throws Exception {
        HaspLock lock = client.getLock(name);
        assertTrue(lock.tryLock(Duration.ofSeconds(5), Duration.ofMillis(300)));
        await("the lease ran out in Redis", SLACK, () -> !lock.isLocked());
        assertFalse(lock.extend(Duration.ofSeconds(30)));
        assertFalse(lock.isLocked(), "nothing was created");
        HoldLostException lost = assertThrows(HoldLostException.class, lock::unlock);
        assertEquals(HoldEnd.EXPIRED, lost.holdEnd());
    }

    @Test
    void onlyTheHoldersLeaseIsExtended() throws Exception {
        HaspLock lock = client.getLock(name);
        LockOwner holder = lock.owner(Long.MAX_VALUE - 1);   // not the test thread's id
        assertTrue(lock.tryLockAsync(Duration.ofSeconds(5), Duration.ofSeconds(5), holder).get(10, TimeUnit.SECONDS));
        assertFalse(lock.extendAsync(Duration.ofSeconds(60), lock.owner(Long.MAX_VALUE - 2)).get(10, TimeUnit.SECONDS));
        assertFalse(lock.extend(Duration.ofSeconds(60)), "the calling thread holds nothing");
        assertTrue(pttl(name) <= 5_000, "the holder's lease is untouched: " + pttl(name));
        lock.unlockAsync(holder).get(10, TimeUnit.SECONDS);
    }

    @Test
    void aWatchdogHoldIsRefused() {
        HaspLock lock = client.getLock(name);
        lock.lock();
        try {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> lock.extend(Duration.ofSeconds(5)));
            assertTrue(e.getMessage().contains("renewed by the watchdog"), e.getMessage());
            assertTrue(pttl(name) > 5_000, "the watchdog lease is untouched");
        } finally {
            lock.unlock();
        }
    }

    @Test
    void badLeasesAreRejectedBeforeAnythingIsSent() {
        HaspLock lock = client.getLock(name);
        assertThrows(IllegalArgumentException.class, () -> lock.extend(null));
        assertThrows(IllegalArgumentException.class, () -> lock.extend(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> lock.extend(-1, TimeUnit.SECONDS));
        assertThrows(IllegalArgumentException.class, () -> lock.extendAsync(Duration.ofSeconds(1), null));
    }

    @Test
    void anExtensionWhoseReplyWasLostIsSentAgain() throws Exception {
        HaspLock lock = client.getLock(name);
        assertTrue(lock.tryLock(Duration.ofSeconds(5), Duration.ofSeconds(10)));
        int accepted = proxy.acceptedCount();
        proxy.dropNextReplyAndCut();
        assertTrue(lock.extend(Duration.ofSeconds(60)), "the retry finds the hold and answers true");
        assertTrue(pttl(name) > 10_000, "extended: " + pttl(name));
        await("the client reconnected", SLACK, () -> proxy.acceptedCount() > accepted);
        lock.unlock();
    }

    @Test
    void aReadHoldIsExtendedToo() throws Exception {
        HaspReadWriteLock rw = HaspReadWriteLocks.get(client, name);
        assertTrue(rw.readLock().tryLock(Duration.ofSeconds(5), Duration.ofSeconds(2)));
        assertTrue(rw.readLock().extend(Duration.ofSeconds(60)));
        assertTrue(pttl(name) > 2_000, "the lock's hash lives as long as its longest read hold: " + pttl(name));
        rw.readLock().unlock();
        assertFalse(rw.isLocked());
    }
}
