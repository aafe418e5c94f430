package io.hasp.lock.rw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.lock.HoldEnd;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The read/write watchdog's passes, driven by hand with a fake clock and a scripted renewal. */
class RwRenewerTest {

    private static final long LEASE = 30_000;

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final RwHolds holds = new RwHolds();
    private final List<List<String>> sentNames = new ArrayList<>();
    private final List<List<LockMode>> sentModes = new ArrayList<>();
    private CompletableFuture<String> nextReply;

    private final RwRenewer renewer = new RwRenewer(holds, null, now::get, LEASE, 2, (names, owners, modes, lease) -> {
        sentNames.add(names);
        sentModes.add(modes);
        return nextReply != null ? nextReply : CompletableFuture.completedFuture("1".repeat(names.size()));
    });

    private RwHold watchdogHold(String name, LockMode mode) {
        return holds.acquired(name, mode, "c:1", 1, LEASE, /* watchdog= */ true, now.get());
    }

    @Test
    void renewsAllWatchdogHoldsInBatchesWithTheirModes() {
        watchdogHold("a", LockMode.READ);
        watchdogHold("b", LockMode.WRITE);
        watchdogHold("c", LockMode.READ);
        holds.acquired("d", LockMode.READ, "c:1", 1, 5_000, /* watchdog= */ false, now.get());
        renewer.renewNow().join();
        assertEquals(2, sentNames.size(), "three watchdog holds in batches of two");
        assertEquals(2, renewer.calls());
        List<String> all = new ArrayList<>();
        sentNames.forEach(all::addAll);
        assertEquals(3, all.size());
        assertFalse(all.contains("d"), "a hold with its own lease is never renewed");
        List<LockMode> modes = new ArrayList<>();
        sentModes.forEach(modes::addAll);
        assertTrue(modes.contains(LockMode.WRITE) && modes.contains(LockMode.READ));
    }

    @Test
    void holdNoLongerInRedisIsLost() {
        RwHold hold = watchdogHold("a", LockMode.READ);
        nextReply = CompletableFuture.completedFuture("0");
        renewer.renewNow().join();
        assertEquals(HoldEnd.LOST, hold.end.getNow(null));
        assertEquals(0, holds.size());
    }

    @Test
    void holdBeingUnlockedIsNotRenewed() {
        RwHold hold = watchdogHold("a", LockMode.WRITE);
        hold.beginClosing();
        renewer.renewNow().join();
        assertTrue(sentNames.isEmpty(), "no renewal may race the unlock");
    }

    @Test
    void unlockWaitsForTheRenewalInFlight() {
        RwHold hold = watchdogHold("a", LockMode.READ);
        nextReply = new CompletableFuture<>();
        CompletableFuture<Void> pass = renewer.renewNow();
        CompletableFuture<Void> gate = hold.beginClosing();
        assertFalse(gate.isDone(), "the unlock is held back while the renewal is in flight");
        nextReply.complete("1");
        pass.join();
        assertTrue(gate.isDone());
    }

    @Test
    void unreachableRedisLosesTheHoldOnlyOnceItsLeaseRanOut() {
        RwHold hold = watchdogHold("a", LockMode.READ);
        nextReply = CompletableFuture.failedFuture(new io.hasp.client.RedisTimeoutException("test"));
        renewer.renewNow().join();
        assertFalse(hold.end.isDone(), "tried again next tick");
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(LEASE + 1));
        renewer.renewNow().join();
        assertEquals(HoldEnd.LOST, hold.end.getNow(null));
    }

    @Test
    void holdWithItsOwnLeaseIsForgottenWellAfterIt() {
        RwHold hold = holds.acquired("a", LockMode.READ, "c:1", 1, 5_000, /* watchdog= */ false, now.get());
        renewer.renewNow().join();
        assertFalse(hold.end.isDone());
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(5_000 + LEASE + 1));
        renewer.renewNow().join();
        assertEquals(HoldEnd.EXPIRED, hold.end.getNow(null));
    }
}
