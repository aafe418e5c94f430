package io.hasp.lock;

import io.hasp.internal.Futures;
import io.hasp.internal.EndingFuture;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * One acquisition of a {@link RedLock} for one holder: rounds of asking every master at once (no
 * wait on any), until a quorum grants it within the validity time, the wait is over, or too few
 * masters can answer. After a round that fell short, the masters that granted it are released
 * before anything else happens; the masters that said no are then asked whether they answer at all
 * (a lock query), so that a master that is down is told apart from one where another holder has it.
 * Ending the result from outside (cancel, the caller's own timeout) cancels the round in flight,
 * whose member futures give back a grant, and releases a hold taken as it ended. Thread-safe: the
 * fields are guarded by {@code this}.
 */
final class RedLockAttempt {

    /** The pause between rounds: random, so that competing holders do not keep colliding. */
    private static final long MIN_PAUSE_MILLIS = 5;
    private static final long MAX_PAUSE_MILLIS = 40;

    /** The longest a round waits for one master, however long the lease: a master that hangs is one that failed. */
    private static final long MAX_TRY_MILLIS = 1_000;
    private static final long MIN_TRY_MILLIS = 10;

    private final RedLock lock;
    private final long holderId;
    private final long leaseNanos;
    /** How long one master may take to answer one round: a tenth of the lease, within 10 ms..1 s. */
    private final long tryMillis;
    private final boolean bounded;
    private final long deadlineNanos;
    private final EndingFuture<Boolean> result = new EndingFuture<>(this::ended);
    private List<CompletableFuture<Boolean>> inFlight;  // guarded by this

    RedLockAttempt(RedLock lock, long holderId, long leaseNanos, long waitNanos) {
        this.lock = lock;
        this.holderId = holderId;
        this.leaseNanos = leaseNanos;
        this.tryMillis = Math.max(MIN_TRY_MILLIS, Math.min(MAX_TRY_MILLIS, lock.leaseMillis(leaseNanos) / 10));
        this.bounded = waitNanos >= 0;
        this.deadlineNanos = bounded ? System.nanoTime() + Math.min(waitNanos, Long.MAX_VALUE / 4) : 0;
    }

    CompletableFuture<Boolean> start() {
        round();
        return result;
    }

    private void round() {
        List<HaspLock> members = lock.members();
        List<CompletableFuture<Boolean>> tries = new ArrayList<>(members.size());
        long startNanos = System.nanoTime();
        for (HaspLock member : members) {
            CompletableFuture<Boolean> attempt;
            try {
                // A master that does not answer in time counts as failed; the timeout ends the member's
                // acquisition, which gives back a grant that arrives later.
                attempt = member.tryLockAsync(0, leaseNanos, TimeUnit.NANOSECONDS, member.owner(holderId))
                        .orTimeout(tryMillis, TimeUnit.MILLISECONDS);
            } catch (RuntimeException e) {
                attempt = CompletableFuture.failedFuture(e);
            }
            tries.add(attempt);
        }
        boolean ended;
        synchronized (this) {
            ended = result.isDone();
            if (!ended) {
                inFlight = tries;
            }
        }
        if (ended) {
            tries.forEach(t -> t.cancel(false));
            return;
        }
        CompletableFuture.allOf(tries.toArray(CompletableFuture[]::new))
                .whenComplete((all, error) -> onRound(members, tries, startNanos));
    }

    private void onRound(List<HaspLock> members, List<CompletableFuture<Boolean>> tries, long startNanos) {
        synchronized (this) {
            inFlight = null;
        }
        List<HaspLock> granted = new ArrayList<>();
        List<HaspLock> refused = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < tries.size(); i++) {
            CompletableFuture<Boolean> attempt = tries.get(i);
            if (attempt.isCompletedExceptionally()) {
                failures.add(members.get(i).toString() + ": " + failure(attempt));
            } else if (Boolean.TRUE.equals(attempt.getNow(false))) {
                granted.add(members.get(i));
            } else {
                refused.add(members.get(i));
            }
        }
        long leaseMillis = lock.leaseMillis(leaseNanos);
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
        long validityMillis = leaseMillis - tookMillis - (leaseMillis / 100 + 2);
        if (granted.size() >= lock.quorum() && validityMillis > 0) {
            if (result.isDone() || !lock.held(holderId, granted)) {
                release(granted);  // the caller gave up, or another attempt of this holder won
                result.complete(false);
                return;
            }
            if (!result.complete(true)) {
                // Ended by the caller as it was granted: nobody will unlock it.
                lock.unlockAsync(holderId);
            }
            return;
        }
        release(granted).whenComplete((ignored, releaseError) -> {
            if (releaseError != null) {
                // "Not acquired" would say nothing is held, but a master could not be released.
                result.completeExceptionally(Futures.unwrap(releaseError));
                return;
            }
            afterShortRound(refused, failures);
        });
    }

    /** After a round without the quorum (all it took already released): fail, give up, or go again. */
    private void afterShortRound(List<HaspLock> refused, List<String> failures) {
        int masters = lock.members().size();
        List<CompletableFuture<Boolean>> probes = new ArrayList<>(refused.size());
        for (HaspLock member : refused) {
            probes.add(member.isLockedAsync().orTimeout(tryMillis, TimeUnit.MILLISECONDS));  // fails: no answer
        }
        CompletableFuture.allOf(probes.toArray(CompletableFuture[]::new)).whenComplete((all, error) -> {
            List<String> unreachable = new ArrayList<>(failures);
            for (int i = 0; i < probes.size(); i++) {
                if (probes.get(i).isCompletedExceptionally()) {
                    unreachable.add(refused.get(i) + ": " + failure(probes.get(i)));
                }
            }
            int answered = masters - unreachable.size();
            if (answered < lock.quorum()) {
                result.completeExceptionally(new QuorumException(lock + ": only " + answered + " of " + masters
                        + " masters answered, " + lock.quorum() + " needed; " + String.join("; ", unreachable),
                        answered, masters, lock.quorum()));
                return;
            }
            long pauseNanos = TimeUnit.MILLISECONDS.toNanos(
                    ThreadLocalRandom.current().nextLong(MIN_PAUSE_MILLIS, MAX_PAUSE_MILLIS + 1));
            if (bounded && deadlineNanos - System.nanoTime() <= pauseNanos) {
                result.complete(false);
                return;
            }
            if (!result.isDone()) {
                CompletableFuture.delayedExecutor(pauseNanos, TimeUnit.NANOSECONDS).execute(this::round);
            }
        });
    }

    private static String failure(CompletableFuture<?> failed) {
        try {
            failed.join();
            return "no failure";
        } catch (RuntimeException e) {
            return String.valueOf(Futures.unwrap(e));
        }
    }

    /** Releases the holds this holder took on {@code granted}, all at once; see {@link #allReleased}. */
    private CompletableFuture<Void> release(List<HaspLock> granted) {
        List<CompletableFuture<Void>> unlocks = new ArrayList<>(granted.size());
        for (HaspLock member : granted) {
            try {
                unlocks.add(member.unlockAsync(member.owner(holderId)));
            } catch (RuntimeException e) {
                unlocks.add(CompletableFuture.failedFuture(e));
            }
        }
        return allReleased(unlocks);
    }

    /**
     * Completes once every one of {@code unlocks} did: normally when each released its master or found
     * the hold gone already ({@link IllegalMonitorStateException}, {@link HoldLostException}); else with
     * the first other failure (a master that may still hold it until its lease ends).
     */
    static CompletableFuture<Void> allReleased(List<CompletableFuture<Void>> unlocks) {
        return CompletableFuture.allOf(unlocks.toArray(CompletableFuture[]::new)).handle((all, ignored) -> {
            for (CompletableFuture<Void> unlock : unlocks) {
                if (unlock.isCompletedExceptionally()) {
                    Throwable cause = Futures.unwrap(unlock.handle((v, e) -> e).join());
                    if (!(cause instanceof IllegalMonitorStateException)) {
                        throw Futures.rethrowable(cause);
                    }
                }
            }
            return null;
        });
    }

    /** Ended by the caller (cancel, timeout): stops the round in flight, whose futures give back a grant. */
    private void ended() {
        if (!result.isCompletedExceptionally() && Boolean.TRUE.equals(result.getNow(false))) {
            return;
        }
        List<CompletableFuture<Boolean>> pending;
        synchronized (this) {
            pending = inFlight;
            inFlight = null;
        }
        if (pending != null) {
            pending.forEach(t -> t.cancel(false));
        }
    }
}
