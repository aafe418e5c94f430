package io.hasp.lock;

import io.hasp.HaspClient;
import io.hasp.internal.ClientInternals;
import io.hasp.internal.Futures;
import io.hasp.internal.lock.LockArguments;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A lock over N independent Redis masters (N odd, at least 3): held when a quorum of N/2+1 of them
 * granted it, in time. It answers "what if my Redis dies": with three masters, one may be down, or
 * lose its data, and the lock still holds. Each master is a {@link HaspClient} of its own; on each,
 * the lock is the reentrant lock named {@code name}.
 *
 * <pre>{@code
 * RedLock lock = RedLock.of("payments:7", clientA, clientB, clientC);
 * if (lock.tryLock(Duration.ofSeconds(1), Duration.ofSeconds(10))) {
 *     try { pay(7); } finally { lock.unlock(); }
 * }
 * }</pre>
 *
 * <p><b>One attempt.</b> The lock is asked of every master at once (one round trip each, no wait).
 * It is held when at least a quorum granted it and the validity time is still positive: the lease,
 * minus the time the round took, minus a clock-drift allowance (1% of the lease plus 2 ms). With
 * the watchdog (no lease), the lease is the shortest watchdog lease of the masters' clients.
 * Otherwise every master that granted it is released, and the next round follows after a short
 * random pause, until the wait is over. A master whose client's connection is down (reconnecting) is
 * not asked and costs a round nothing; a master that does not answer within a tenth of the lease (10 ms
 * to 1 s) has failed that round, is not asked again until it answered, and its late grant is given back.
 * When the wait is over, the call returns {@code false} if a quorum answered in time in the last round
 * (another holder has it), or fails with {@link QuorumException} saying what each master did (down, how
 * late, its error). When masters that are down or answer with errors leave fewer than a quorum that can
 * answer at all, it fails with {@link QuorumException} at once.
 *
 * <p><b>While held.</b> Each master's hold is renewed by its client's watchdog (or runs out with its
 * lease). {@link #holdEnd} completes with {@link HoldEnd#LOST} once so many masters lost their hold
 * (found gone by a renewal, or ran out) that fewer than a quorum still hold it: from then on the
 * holder has no mutual exclusion. {@link #unlock} releases every master that granted it, and returns
 * once a quorum released it and the others released it too, are down, or had a round's time: a master
 * that is down then keeps the hold until its lease ends (its unlock is still sent, and applies if it comes
 * back in time); that is logged as a warning, not thrown.
 *
 * <p><b>Timing assumptions.</b> RedLock is safe only if the masters' clocks advance at about the
 * same rate, a process does not pause longer than the validity time it has left, and messages are
 * not delayed beyond it. A GC pause, a clock jump or a slow network can break all three, and the
 * lock cannot tell: when a stale holder must never write, use a {@link FencedLock} and have the
 * resource check its token.
 *
 * <p>Not reentrant: a holder that holds it and asks again is refused with
 * {@link IllegalMonitorStateException}. The blocking methods hold it for the calling thread; the
 * async ones take a holder id. Thread-safe; {@code newCondition()} is not supported.
 */
public final class RedLock implements Lock {

    private static final Logger log = LoggerFactory.getLogger(RedLock.class);
    private static final String OPERATION = "a blocking RedLock call";

    /**
     * The current holds of every RedLock in this JVM, by lock (name and clients) and holder: like a
     * lock's state, a hold outlives the {@code RedLock} view it was taken through, so a hold taken
     * through one view is released through another.
     */
    private static final ConcurrentHashMap<HoldKey, RedHold> HOLDS = new ConcurrentHashMap<>();

    private final String name;
    private final List<HaspLock> members;
    private final List<HaspClient> clients;
    private final List<String> clientIds;
    private final int quorum;
    private final long watchdogLeaseMillis;

    private RedLock(String name, List<HaspLock> members, List<HaspClient> clients, List<String> clientIds,
            long watchdogLeaseMillis) {
        this.name = name;
        this.members = members;
        this.clients = clients;
        this.clientIds = clientIds;
        this.quorum = members.size() / 2 + 1;
        this.watchdogLeaseMillis = watchdogLeaseMillis;
    }

    /** One holder's hold on one RedLock: its name, its masters' clients, the holder id. */
    private record HoldKey(String name, List<String> clientIds, long holderId) {
    }

    private HoldKey key(long holderId) {
        return new HoldKey(name, clientIds, holderId);
    }

    /**
     * The lock {@code name} over {@code masters}, one client per independent master.
     *
     * @throws IllegalArgumentException when the name is null or empty, or the masters are not an odd
     *     number of at least 3 distinct clients
     */
    public static RedLock of(String name, HaspClient... masters) {
        if (masters == null) {
            throw new IllegalArgumentException("masters: null (expected: an odd number, at least 3)");
        }
        return of(name, List.of(masters));
    }

    /**
     * The lock {@code name} over {@code masters}, one client per independent master.
     *
     * @throws IllegalArgumentException when the name is null or empty, or the masters are not an odd
     *     number of at least 3 distinct clients
     */
    public static RedLock of(String name, List<HaspClient> masters) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("name: " + (name == null ? "null" : "\"\"") + " (expected: a lock name)");
        }
        if (masters == null || masters.size() < 3 || masters.size() % 2 == 0) {
            throw new IllegalArgumentException("masters: " + (masters == null ? "null" : masters.size())
                    + " (expected: an odd number of independent masters, at least 3)");
        }
        Set<HaspClient> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
        List<HaspLock> members = new ArrayList<>(masters.size());
        List<String> clientIds = new ArrayList<>(masters.size());
        long watchdog = Long.MAX_VALUE;
        for (HaspClient master : masters) {
            if (master == null || !distinct.add(master)) {
                throw new IllegalArgumentException("masters: " + (master == null ? "a null client" : "a client twice")
                        + " (expected: one client per independent master)");
            }
            members.add(master.getLock(name));
            clientIds.add(master.id());
            watchdog = Math.min(watchdog, master.config().watchdogLease().toMillis());
        }
        return new RedLock(name, List.copyOf(members), List.copyOf(masters), List.copyOf(clientIds), watchdog);
    }

    /** The lock's name: its key on every master. */
    public String getName() {
        return name;
    }

    /** How many masters must grant it: N/2+1. */
    public int quorum() {
        return quorum;
    }

    /** The lock on each master, in the order the masters were given. */
    public List<HaspLock> locks() {
        return members;
    }

    // ---------------------------------------------------------------- blocking

    /** Acquires it with the watchdog lease, trying again as long as needed; interrupts are deferred. */
    @Override
    public void lock() {
        LockCalls.checkBlockingAllowed(OPERATION);
        LockCalls.join(start(LockCalls.WATCHDOG, LockCalls.NO_DEADLINE, LockCalls.currentHolder()), OPERATION);
    }

    /** Acquires it with the watchdog lease, trying again until held or the thread is interrupted. */
    @Override
    public void lockInterruptibly() throws InterruptedException {
        acquireInterruptibly(LockCalls.WATCHDOG, LockCalls.NO_DEADLINE);
    }

    /** One attempt (watchdog lease). */
    @Override
    public boolean tryLock() {
        LockCalls.checkBlockingAllowed(OPERATION);
        return LockCalls.join(start(LockCalls.WATCHDOG, 0, LockCalls.currentHolder()), OPERATION);
    }

    /** Attempts for at most {@code time} (watchdog lease). */
    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        return acquireInterruptibly(LockCalls.WATCHDOG, LockArguments.waitNanos(time, unit));
    }

    /** Attempts for at most {@code waitTime}, for {@code leaseTime} on each master. */
    public boolean tryLock(Duration waitTime, Duration leaseTime) throws InterruptedException {
        long wait = LockArguments.waitNanos(waitTime);
        return acquireInterruptibly(LockCalls.leaseNanos(leaseTime), wait);
    }

    /**
     * Releases the calling thread's hold on every master that granted it.
     *
     * @throws IllegalMonitorStateException when the calling thread does not hold it
     * @throws HoldLostException when fewer than a quorum of masters still held it (it was released where held)
     * @throws io.hasp.RedisException when fewer than a quorum of masters could be released
     */
    @Override
    public void unlock() {
        LockCalls.join(unlockAsync(LockCalls.currentHolder()), OPERATION);
    }

    /** Completes when the calling thread's hold ends; see {@link #holdEnd(long)}. */
    public CompletableFuture<HoldEnd> holdEnd() {
        return holdEnd(LockCalls.currentHolder());
    }

    /** Not supported: there are no distributed conditions. */
    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("newCondition: distributed conditions are not supported");
    }

    // ---------------------------------------------------------------- async

    /**
     * Attempts for at most {@code waitTime}, for {@code leaseTime} on each master, for holder
     * {@code holderId}; completes with {@code true} once a quorum granted it in time, {@code false}
     * when the wait passed (nothing left held), or fails with {@link QuorumException} when fewer than
     * a quorum of masters can answer. Cancelling it gives back what it took.
     */
    public CompletableFuture<Boolean> tryLockAsync(Duration waitTime, Duration leaseTime, long holderId) {
        long wait = LockArguments.waitNanos(waitTime);
        return start(LockCalls.leaseNanos(leaseTime), wait, holderId);
    }

    /**
     * Releases holder {@code holderId}'s hold on every master that granted it. Completes once a quorum
     * released it and every other master released it too, is down, or had a round's time (see the class
     * comment). Fails with {@link IllegalMonitorStateException} when it holds none, with
     * {@link HoldLostException} ({@link HoldEnd#LOST}) when fewer than a quorum still held it, and with the
     * first master's error when fewer than a quorum could be released.
     */
    public CompletableFuture<Void> unlockAsync(long holderId) {
        RedHold hold = HOLDS.remove(key(holderId));
        if (hold == null) {
            return CompletableFuture.failedFuture(new IllegalMonitorStateException(
                    "unlock of " + this + ": holder " + holderId + " does not hold it"));
        }
        return hold.release();
    }

    /**
     * Completes when holder {@code holderId}'s hold ends: {@link HoldEnd#RELEASED} at its unlock (or at
     * once when it holds none), {@link HoldEnd#LOST} when fewer than a quorum of masters still hold it.
     */
    public CompletableFuture<HoldEnd> holdEnd(long holderId) {
        RedHold hold = HOLDS.get(key(holderId));
        return hold == null ? CompletableFuture.completedFuture(HoldEnd.RELEASED) : hold.end.copy();
    }

    @Override
    public String toString() {
        return "RedLock[" + name + ", " + members.size() + " masters, quorum " + quorum + ']';
    }

    // ---------------------------------------------------------------- engine side

    /** A blocking acquisition for the calling thread that an interrupt ends, giving back what it took. */
    private boolean acquireInterruptibly(long leaseNanos, long waitNanos) throws InterruptedException {
        LockCalls.checkBlockingAllowed(OPERATION);
        long holder = LockCalls.currentHolder();
        return LockCalls.awaitInterruptibly(start(leaseNanos, waitNanos, holder), OPERATION,
                () -> unlockAsync(holder));
    }

    private CompletableFuture<Boolean> start(long leaseNanos, long waitNanos, long holderId) {
        RedHold current = HOLDS.get(key(holderId));
        if (current != null && current.end.isDone()) {
            HOLDS.remove(key(holderId), current);  // a hold that was lost: its survivors are released already
        } else if (current != null) {
            return CompletableFuture.failedFuture(new IllegalMonitorStateException(
                    this + " is already held by holder " + holderId + " (it is not reentrant)"));
        }
        return new RedLockAttempt(this, holderId, leaseNanos, waitNanos).start();
    }

    List<HaspLock> members() {
        return members;
    }

    /** Whether master {@code index}'s client has lost its connection to it (and is reconnecting) now. */
    boolean knownDown(int index) {
        return ClientInternals.knownDown(clients.get(index), name);
    }

    /** Master {@code index} for messages: its position and address. */
    String describe(int index) {
        return "master " + index + " (" + clients.get(index).config().redactedUri() + ")";
    }

    /** The lease the validity is counted from, in milliseconds: {@code leaseNanos}, or the watchdog's. */
    long leaseMillis(long leaseNanos) {
        return leaseNanos < 0 ? watchdogLeaseMillis : TimeUnit.NANOSECONDS.toMillis(leaseNanos);
    }

    /**
     * Records that holder {@code holderId} holds it through {@code granted}; false when it already
     * holds it (a concurrent attempt of the same holder won). {@code graceMillis}: how long its unlock
     * waits for a master once a quorum released it (a round's limit).
     */
    boolean held(long holderId, List<HaspLock> granted, long graceMillis) {
        RedHold hold = new RedHold(holderId, granted, graceMillis);
        if (HOLDS.putIfAbsent(key(holderId), hold) != null) {
            return false;
        }
        hold.watch();
        return true;
    }

    /** One holder's hold: the masters that granted it, and its end. */
    private final class RedHold {

        final CompletableFuture<HoldEnd> end = new CompletableFuture<>();
        private final long holderId;
        private final List<HaspLock> granted;
        private final long graceMillis;
        private int ended;          // guarded by this: masters whose hold ended other than by our unlock
        private boolean releasing;  // guarded by this

        RedHold(long holderId, List<HaspLock> granted, long graceMillis) {
            this.holderId = holderId;
            this.granted = granted;
            this.graceMillis = graceMillis;
        }

        /**
         * Follows each master's hold: every end that is not this hold's own unlock (lost, expired, the
         * client closed, or gone before it was watched) counts, and once fewer than a quorum still
         * hold it, the hold is lost and the masters still holding it are released.
         */
        void watch() {
            for (HaspLock member : granted) {
                member.holdEnd(member.owner(holderId)).whenComplete((how, error) -> {
                    boolean quorumLost;
                    synchronized (this) {
                        if (releasing) {
                            return;
                        }
                        ended++;
                        quorumLost = granted.size() - ended < quorum;
                    }
                    if (quorumLost && end.complete(HoldEnd.LOST)) {
                        RedLockAttempt.allReleased(unlockAll());  // no use holding a minority; the next unlock reports the loss
                    }
                });
            }
        }

        /**
         * Releases every master that granted it. Completes normally once a quorum released it and every
         * other master released it too, is known down, or had {@code graceMillis} more: the masters left
         * keep their unlock going (it applies if they answer within its retry budget), a hold there that
         * could not be released is logged once and ends with its lease. Fails when fewer than a quorum
         * could be released: with the first error, the others suppressed in it.
         */
        CompletableFuture<Void> release() {
            synchronized (this) {
                releasing = true;
            }
            if (end.isDone()) {
                return CompletableFuture.failedFuture(new HoldLostException("unlock of " + RedLock.this
                        + ": fewer than " + quorum + " masters still held it", HoldEnd.LOST));
            }
            boolean[] down = new boolean[granted.size()];
            for (int i = 0; i < down.length; i++) {
                down[i] = knownDown(members.indexOf(granted.get(i)));
            }
            List<CompletableFuture<Void>> unlocks = unlockAll();
            QuorumRelease release = new QuorumRelease(unlocks, down);
            for (CompletableFuture<Void> unlock : unlocks) {
                unlock.whenComplete((v, e) -> release.settle());
            }
            CompletableFuture.delayedExecutor(graceMillis, TimeUnit.MILLISECONDS).execute(release::graceOver);
            release.settle();
            return release.done.thenCompose(ignored -> {
                if (end.complete(HoldEnd.RELEASED)) {
                    return CompletableFuture.<Void>completedFuture(null);
                }
                return CompletableFuture.<Void>failedFuture(new HoldLostException("unlock of " + RedLock.this
                        + ": fewer than " + quorum + " masters still held it", HoldEnd.LOST));
            });
        }

        private List<CompletableFuture<Void>> unlockAll() {
            List<CompletableFuture<Void>> unlocks = new ArrayList<>(granted.size());
            for (HaspLock member : granted) {
                CompletableFuture<Void> unlock = Futures.sent(() -> member.unlockAsync(member.owner(holderId)));
                unlocks.add(unlock);
            }
            return unlocks;
        }

        /** The caller's side of one unlock of this hold: when it may return, and what it says. */
        private final class QuorumRelease {

            final CompletableFuture<Void> done = new CompletableFuture<>();
            private final List<CompletableFuture<Void>> unlocks;
            private final boolean[] down;
            private volatile boolean graceOver;

            QuorumRelease(List<CompletableFuture<Void>> unlocks, boolean[] down) {
                this.unlocks = unlocks;
                this.down = down;
            }

            void graceOver() {
                graceOver = true;
                settle();
            }

            /** Completes {@link #done} once it may (see {@link RedHold#release}); idempotent. */
            void settle() {
                if (done.isDone()) {
                    return;
                }
                int released = 0;
                boolean allSettled = true;
                boolean waitFor = false;
                for (int i = 0; i < unlocks.size(); i++) {
                    CompletableFuture<Void> unlock = unlocks.get(i);
                    if (!unlock.isDone()) {
                        allSettled = false;
                        waitFor |= !down[i] && !graceOver;
                    } else if (RedLockAttempt.released(unlock)) {
                        released++;
                    }
                }
                if (released >= quorum && !waitFor) {
                    if (done.complete(null)) {
                        reportUnconfirmed();
                    }
                } else if (allSettled) {
                    try {
                        RedLockAttempt.allReleased(unlocks).join();
                        done.complete(null);
                    } catch (RuntimeException e) {
                        done.completeExceptionally(Futures.unwrap(e));
                    }
                }
            }

            /** Logs, once each, the masters whose release is not confirmed: failed, or still going on. */
            private void reportUnconfirmed() {
                for (int i = 0; i < unlocks.size(); i++) {
                    String master = describe(members.indexOf(granted.get(i)));
                    unlocks.get(i).whenComplete((v, e) -> {
                        if (e != null && !(Futures.unwrap(e) instanceof IllegalMonitorStateException)) {
                            log.warn("{}: holder {} released it on a quorum, but {} did not confirm its release ({});"
                                    + " the hold there ends with its lease", RedLock.this, holderId, master,
                                    Futures.unwrap(e).toString());
                        }
                    });
                }
            }
        }
    }
}
