package io.hasp.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.RedisCommands;
import io.hasp.internal.topology.Topology;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.LockOwner;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import io.hasp.testing.TcpProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The watchdog's batching, loss detection and unlock/renewal ordering. Every renewal runs its real
 * script on a real redis-server (through a {@link TcpProxy} that can make it unreachable); the
 * client-side lease accounting runs on a manual timer and clock, and each reply from Redis is
 * handed to the renewer by the test ({@link Call#deliver}), like a network that delivers it then.
 */
@ExtendWith(RedisServerExtension.class)
class LeaseRenewerTest {

    private static final long LEASE = 30_000;
    private static final LockKind KIND = ReentrantKind.INSTANCE;
    private static final LockOwner OWNER = LockOwner.of("client", 1);

    private final ServerView view;
    private final TcpProxy proxy;
    private final HaspClient client;
    private final ManualTimer timer = new ManualTimer();
    private final HoldRegistry holds = new HoldRegistry();
    private final List<Call> calls = new ArrayList<>();
    private final LeaseRenewer renewer;

    LeaseRenewerTest(RedisServer server) throws Exception {
        view = new ServerView(server);
        proxy = TcpProxy.start(server.port());
        client = HaspClient.create(HaspConfig.builder().uri(proxy.uri()).commandTimeout(Duration.ofMillis(500)).build());
        client.commands().ping().get(30, TimeUnit.SECONDS);
        renewer = new LeaseRenewer(holds, timer, timer::nanoTime, LEASE, 100, (kind, keys, owners, lease) -> {
            Call call = new Call(kind, List.copyOf(keys), List.copyOf(owners), lease,
                    kind.renew(client.commands(), keys, owners, lease, true), new CompletableFuture<>());
            calls.add(call);
            return call.toRenewer();
        });
    }

    @AfterEach
    void stop() {
        renewer.close();
        client.close();
        proxy.close();
        view.close();
    }

    /** One renewal call: its real reply from Redis, and the future the renewer sees, completed by {@link #deliver}. */
    private record Call(LockKind kind, List<String> keys, List<LockOwner> owners, long lease,
            CompletableFuture<String> fromRedis, CompletableFuture<String> toRenewer) {

        /** Waits for Redis's reply and hands it to the renewer on this thread; returns it (null when it failed). */
        String deliver() {
            try {
                String outcome = fromRedis.get(30, TimeUnit.SECONDS);
                toRenewer.complete(outcome);
                return outcome;
            } catch (ExecutionException e) {
                toRenewer.completeExceptionally(e.getCause());
                return null;
            } catch (InterruptedException | TimeoutException e) {
                throw new AssertionError("no reply from Redis", e);
            }
        }
    }

    /** Lock {@code name} held in Redis by {@link #OWNER}, with {@code ttlMillis} left. */
    private void heldInRedis(String name, long ttlMillis) {
        view.holdAs(name, OWNER.field(), ttlMillis);
    }

    private Hold watchdogHold(String name) {
        return holds.acquired(KIND, name, OWNER, 1, LEASE, true, timer.nanoTime());
    }

    @Test
    void renewsEveryThirdOfTheLeaseInBatchesOfAtMostOneHundred() {
        view.call("EVAL", "for i = 0, 249 do redis.call('hset', 'lock-' .. i, ARGV[1], 1);"
                + " redis.call('pexpire', 'lock-' .. i, 5000) end", "0", OWNER.field());
        for (int i = 0; i < 250; i++) {
            watchdogHold("lock-" + i);
        }
        renewer.start();
        timer.advance(LEASE / 3 - 1, TimeUnit.MILLISECONDS);
        assertEquals(0, calls.size(), "nothing before a third of the lease");
        timer.advance(1, TimeUnit.MILLISECONDS);
        assertEquals(3, calls.size());
        assertEquals(List.of(100, 100, 50), calls.stream().map(c -> c.keys().size()).toList());
        assertTrue(calls.stream().allMatch(c -> c.lease() == LEASE && c.owners().stream().allMatch(OWNER::equals)));
        for (Call call : calls) {
            assertEquals("1".repeat(call.keys().size()), call.deliver());
        }
        assertTrue(view.pttl("lock-0") > 5_000 && view.pttl("lock-249") > 5_000, "Redis reset the leases");
        assertEquals(3, view.scriptCalls(RenewScript.SCRIPT).size(), "three script calls reached Redis");
        timer.advance(LEASE / 3, TimeUnit.MILLISECONDS);
        assertEquals(6, calls.size(), "the next pass renews them all again");
        assertEquals(6, renewer.calls());
        assertEquals(250, holds.size());
    }

    @Test
    void aHoldFoundGoneIsReportedLostAndNoLongerRenewed() {
        heldInRedis("kept", 60_000);
        heldInRedis("gone", 60_000);
        Hold kept = watchdogHold("kept");
        Hold gone = watchdogHold("gone");
        view.delete("gone");
        renewer.renewNow();
        Call call = calls.get(0);
        StringBuilder expected = new StringBuilder("11");
        expected.setCharAt(call.keys().indexOf("gone"), '0');
        assertEquals(expected.toString(), call.deliver());

        assertEquals(HoldEnd.LOST, gone.end.getNow(null));
        assertFalse(kept.end.isDone());
        renewer.renewNow();
        assertEquals(List.of("kept"), calls.get(1).keys());
    }

    @Test
    void redisUnreachableIsRetriedAndReportedLostOnlyOnceTheLeaseRanOut() {
        heldInRedis("lock", 60_000);
        Hold hold = watchdogHold("lock");
        proxy.rejectNewConnections(true);
        proxy.cutAll();
        renewer.renewNow();
        assertNull(calls.get(0).deliver(), "Redis is unreachable");
        assertFalse(hold.end.isDone(), "one failed renewal is not a loss");

        timer.advance(LEASE - 1, TimeUnit.MILLISECONDS);
        renewer.renewNow();
        assertNull(calls.get(calls.size() - 1).deliver());
        assertFalse(hold.end.isDone(), "the lease has not run out yet");

        timer.advance(1, TimeUnit.MILLISECONDS);
        renewer.renewNow();
        assertNull(calls.get(calls.size() - 1).deliver());
        assertEquals(HoldEnd.LOST, hold.end.getNow(null));
        proxy.rejectNewConnections(false);
        assertEquals(0, holds.size());
    }

    @Test
    void aConfirmedRenewalExtendsTheLeaseFromItsSendTime() {
        heldInRedis("lock", 60_000);
        Hold hold = watchdogHold("lock");
        timer.advance(LEASE / 2, TimeUnit.MILLISECONDS);
        renewer.renewNow();
        assertEquals("1", calls.get(0).deliver());
        timer.advance(LEASE - 1, TimeUnit.MILLISECONDS);
        assertFalse(hold.leaseRunOut(timer.nanoTime()));
        timer.advance(1, TimeUnit.MILLISECONDS);
        assertTrue(hold.leaseRunOut(timer.nanoTime()));
    }

    @Test
    void anUnlockWaitsForTheRenewalInFlightAndNoRenewalStartsWhileItRuns() {
        heldInRedis("lock", 60_000);
        Hold hold = watchdogHold("lock");
        renewer.renewNow();
        Call inFlight = calls.get(0);

        CompletableFuture<Void> mayUnlock = hold.beginClosing();
        assertFalse(mayUnlock.isDone(), "the unlock must wait for the renewal already sent");
        renewer.renewNow();
        assertEquals(1, calls.size(), "no second renewal of a hold in flight");

        assertEquals("1", inFlight.deliver());
        assertTrue(mayUnlock.isDone());
        renewer.renewNow();
        assertEquals(1, calls.size(), "no renewal of a hold being unlocked");

        holds.end(hold, HoldEnd.RELEASED);
        renewer.renewNow();
        assertEquals(1, calls.size(), "no renewal after the unlock");
        assertEquals(HoldEnd.RELEASED, hold.end.getNow(null));
    }

    @Test
    void anUnlockThatLeavesHoldsBehindLetsRenewalResume() {
        Hold hold = watchdogHold("lock");
        assertNull(hold.beginClosing(), "no renewal in flight: the unlock may be sent at once");
        hold.endClosing(1);
        renewer.renewNow();
        assertEquals(1, calls.size());
    }

    @Test
    void holdsWithAnExplicitLeaseAreNeverRenewedAndForgottenWellAfterTheyExpire() {
        Hold fixed = holds.acquired(KIND, "fixed", OWNER, 1, 5_000, false, timer.nanoTime());
        renewer.renewNow();
        assertEquals(0, calls.size());
        assertNull(fixed.end.getNow(null));

        timer.advance(5_000 + LEASE + 1, TimeUnit.MILLISECONDS);
        renewer.renewNow();
        assertEquals(HoldEnd.EXPIRED, fixed.end.getNow(null));
        assertEquals(0, holds.size());
    }

    @Test
    void aReacquiredHoldIsNotEndedByTheOutcomeOfTheOldOne() {
        Hold first = watchdogHold("lock");  // not in Redis any more: the renewal answers '0'
        renewer.renewNow();
        holds.end(first, HoldEnd.RELEASED);
        Hold second = watchdogHold("lock");
        assertEquals("0", calls.get(0).deliver());
        assertEquals(HoldEnd.RELEASED, first.end.getNow(null));
        assertFalse(second.end.isDone());
        assertSame(second, holds.get(KIND, "lock", OWNER));
    }

    @Test
    void closeStopsThePeriodicTask() {
        watchdogHold("lock");
        renewer.start();
        renewer.close();
        timer.advance(LEASE, TimeUnit.MILLISECONDS);
        assertEquals(0, calls.size());
        assertEquals(0, timer.pending());
    }

    @Test
    void anAcquisitionLandingAsTheHoldIsFoundLostStartsANewHoldThatIsRenewed() {
        Hold old = watchdogHold("lock");
        holds.end(old, HoldEnd.LOST);
        assertFalse(old.acquired(2, LEASE, true, timer.nanoTime()), "an ended hold takes no new acquisition");
        Hold fresh = holds.acquired(KIND, "lock", OWNER, 2, LEASE, true, timer.nanoTime());
        assertFalse(fresh == old);
        assertEquals(HoldEnd.LOST, old.end.getNow(null));
        renewer.renewNow();
        assertEquals(List.of("lock"), calls.get(0).keys(), "the new hold is renewed");
    }

    @Test
    void holdsOfTwoKindsOnOneNameAreTwoHoldsRenewedInOneBatchPerKind() {
        LockKind other = new OtherKind();
        for (int i = 0; i < 3; i++) {
            heldInRedis("lock-" + i, 60_000);
            heldInRedis("other:lock-" + i, 60_000);
            watchdogHold("lock-" + i);
            holds.acquired(other, "lock-" + i, OWNER, 1, LEASE, true, timer.nanoTime());
        }
        assertEquals(6, holds.size());
        assertEquals(3, holds.size(other));
        Hold mine = holds.get(KIND, "lock-1", OWNER);
        Hold theirs = holds.get(other, "lock-1", OWNER);
        view.delete("other:lock-1");
        renewer.renewNow();
        assertEquals(2, calls.size(), "one call per kind");
        assertEquals(Set.of(KIND, other), Set.of(calls.get(0).kind(), calls.get(1).kind()));
        assertTrue(calls.stream().allMatch(c -> c.keys().size() == 3));
        Call ofOther = calls.get(0).kind() == other ? calls.get(0) : calls.get(1);
        Call ofMine = calls.get(0) == ofOther ? calls.get(1) : calls.get(0);
        StringBuilder expected = new StringBuilder("111");
        expected.setCharAt(ofOther.keys().indexOf("lock-1"), '0');
        assertEquals(expected.toString(), ofOther.deliver());
        assertEquals("111", ofMine.deliver());
        assertEquals(HoldEnd.LOST, theirs.end.getNow(null));
        assertFalse(mine.end.isDone(), "the other kind's loss is not this kind's");
        assertSame(mine, holds.get(KIND, "lock-1", OWNER));
    }

    /** A second kind of lock, its hashes under {@code other:<name>}; the renewer reads its identity and renews. */
    private static final class OtherKind implements LockKind {
        @Override
        public String channel(String name) {
            return "other:{" + name + "}";
        }

        @Override
        public String holdField(LockOwner owner) {
            return owner.field() + ":other";
        }

        @Override
        public CompletableFuture<AcquireOutcome> acquire(Topology topology, String name, LockOwner owner, long leaseMillis,
                int targetCount) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<ReleaseOutcome> release(Topology topology, String name, LockOwner owner, String requestId,
                long leaseMillis, long latchMillis) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<Boolean> rollback(Topology topology, String name, LockOwner owner,
                int targetCount, long leaseMillis) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<String> renew(RedisCommands redis, List<String> names, List<LockOwner> owners,
                long leaseMillis, boolean keysDeclared) {
            return RenewScript.run(redis, names.stream().map(n -> "other:" + n).toList(), owners, leaseMillis,
                    keysDeclared);
        }

        @Override
        public CompletableFuture<Boolean> forceRelease(Topology topology, String name) {
            throw new UnsupportedOperationException();
        }
    }
}
