package io.hasp.lock;

import io.hasp.internal.Futures;
import io.hasp.internal.EndingFuture;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One attempt of a {@link MultiLock} to acquire all its members for one holder: the members one after
 * another, in the multi-lock's order, through their async methods, each with what is left of the
 * shared wait. Its result completes with {@code true} once every member is held. When a member is
 * not had in time or fails, the members acquired are released in reverse order first, then the
 * result completes with {@code false} or the failure. When the caller ends the result (cancel, its
 * own timeout), the members acquired are released right after, and a member acquisition still in
 * flight is cancelled (which gives back a lock it is granted at that moment). Thread-safe: the fields are guarded by
 * {@code this}; calls to members are made outside the monitor.
 */
final class MultiAcquisition {

    private final List<HaspLock> members;
    private final long holderId;
    private final long leaseNanos;       // -1: the watchdog
    private final boolean bounded;
    private final long deadlineNanos;
    private final EndingFuture<Boolean> result = new EndingFuture<>(this::ended);

    private List<HaspLock> held = new ArrayList<>();  // guarded by this; in acquisition order
    private CompletableFuture<?> inFlight;            // guarded by this

    /**
     * @param leaseNanos each member's lease in nanoseconds, or -1 for the watchdog
     * @param waitNanos the wait shared by all members, or -1 for none (wait as long as needed)
     */
    MultiAcquisition(List<HaspLock> members, long holderId, long leaseNanos, long waitNanos) {
        this.members = members;
        this.holderId = holderId;
        this.leaseNanos = leaseNanos;
        this.bounded = waitNanos >= 0;
        this.deadlineNanos = bounded ? System.nanoTime() + Math.min(waitNanos, Long.MAX_VALUE / 4) : 0;
    }

    /** Starts with the first member; returns the result (see the class comment). */
    CompletableFuture<Boolean> start() {
        next(0);
        return result;
    }

    /**
     * Starts with the first member; returns a future that completes with null once every member is
     * held. However the caller ends it first, the attempt stops and gives back what it holds, even
     * all of the members when they were all granted at that moment.
     */
    CompletableFuture<Void> startLocking() {
        EndingFuture<Void> view = new EndingFuture<>(() -> result.cancel(false));  // no-op once it ended
        result.whenComplete((all, error) -> {
            if (error != null) {
                view.completeExceptionally(Futures.unwrap(error));
            } else if (!Boolean.TRUE.equals(all)) {
                view.completeExceptionally(new IllegalStateException("not every lock was acquired"));
            } else if (!view.complete(null)) {
                release(members, holderId);  // the caller ended the view first: nobody will unlock
            }
        });
        next(0);
        return view;
    }

    private void next(int index) {
        if (index == members.size()) {
            result.complete(true);
            return;
        }
        HaspLock member = members.get(index);
        CompletableFuture<?> step;
        try {
            LockOwner owner = member.owner(holderId);
            step = bounded
                    ? member.tryLockAsync(Math.max(0, deadlineNanos - System.nanoTime()), leaseNanos,
                            TimeUnit.NANOSECONDS, owner)
                    : member.lockAsync(leaseNanos, TimeUnit.NANOSECONDS, owner);
        } catch (RuntimeException e) {
            fail(e);
            return;
        }
        boolean ended;
        synchronized (this) {
            ended = result.isDone();
            if (!ended) {
                inFlight = step;  // ended() cancels it if the caller gives up while it runs
            }
        }
        if (ended) {
            step.cancel(false);  // the caller gave up meanwhile: a grant is given back
            return;
        }
        step.whenComplete((value, error) -> onStep(index, member, value, error));
    }

    private void onStep(int index, HaspLock member, Object value, Throwable error) {
        boolean got = error == null && !Boolean.FALSE.equals(value);  // lockAsync answers null once held
        boolean giveBack = false;
        synchronized (this) {
            inFlight = null;
            if (got) {
                if (result.isDone()) {
                    giveBack = true;  // ended by the caller as this member was granted
                } else {
                    held.add(member);
                }
            }
        }
        if (giveBack) {
            release(List.of(member), holderId);
            return;
        }
        if (error != null) {
            fail(Futures.unwrap(error));
        } else if (!got) {
            fail(null);
        } else {
            next(index + 1);
        }
    }

    /**
     * Ends the attempt without every member: first gives back the members it holds, then completes
     * the result with {@code false} ({@code failure} null) or {@code failure}, so that a caller told
     * "no" finds nothing of it still held; a member that could not be released fails the result
     * with that error instead of {@code false}.
     */
    private void fail(Throwable failure) {
        List<HaspLock> toRelease;
        synchronized (this) {
            toRelease = held;
            held = new ArrayList<>();
        }
        release(toRelease, holderId).whenComplete((ignored, releaseError) -> {
            if (failure != null) {
                if (releaseError != null) {
                    failure.addSuppressed(releaseError);
                }
                result.completeExceptionally(failure);
            } else if (releaseError != null) {
                // "false" would say nothing is held, but a member could not be released: say that instead.
                result.completeExceptionally(releaseError);
            } else {
                result.complete(false);
            }
        });
    }

    /** Runs once the result completed: unless every member was acquired, gives back what was. */
    private void ended() {
        if (!result.isCompletedExceptionally() && Boolean.TRUE.equals(result.getNow(false))) {
            return;
        }
        List<HaspLock> toRelease;
        CompletableFuture<?> pending;
        synchronized (this) {
            toRelease = held;
            held = new ArrayList<>();
            pending = inFlight;
            inFlight = null;
        }
        if (pending != null) {
            pending.cancel(false);  // a member's future gives back a lock granted as it is cancelled
        }
        if (!toRelease.isEmpty()) {
            release(toRelease, holderId);
        }
    }

    /**
     * Releases {@code acquired} (in acquisition order) for holder {@code holderId} in reverse order,
     * one after another; every member is tried. Fails with the first failure, the others suppressed.
     */
    static CompletableFuture<Void> release(List<HaspLock> acquired, long holderId) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        releaseFrom(acquired, acquired.size() - 1, holderId, null, done);
        return done;
    }

    private static void releaseFrom(List<HaspLock> acquired, int index, long holderId, Throwable failure,
            CompletableFuture<Void> done) {
        if (index < 0) {
            if (failure == null) {
                done.complete(null);
            } else {
                done.completeExceptionally(failure);
            }
            return;
        }
        HaspLock member = acquired.get(index);
        CompletableFuture<Void> unlock = Futures.sent(() -> member.unlockAsync(member.owner(holderId)));
        unlock.whenComplete((ignored, error) -> {
            Throwable first = failure;
            if (error != null) {
                Throwable cause = Futures.unwrap(error);
                if (first == null) {
                    first = cause;
                } else {
                    first.addSuppressed(cause);
                }
            }
            releaseFrom(acquired, index - 1, holderId, first, done);
        });
    }
}
