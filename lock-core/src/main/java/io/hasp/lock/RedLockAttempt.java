package io.hasp.lock;

import io.hasp.internal.EndingFuture;
import io.hasp.internal.Futures;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * One acquisition of a {@link RedLock} for one holder: rounds of asking the masters at once (no wait on
 * any), until a quorum grants it within the validity time, the wait is over, or too few masters can
 * answer at all.
 *
 * <p><b>A round.</b> Each master is in one of four states when a round starts: <i>down</i> (its client's
 * connection is lost and reconnecting: it is not asked, and costs the round nothing), <i>busy</i> (a try of
 * an earlier round is still unanswered: it is not asked again, so a stalled master never piles up tries),
 * or free, and then asked. The round ends when every master asked has answered or a tenth of the lease has
 * passed (10 ms to 1 s); a master that has not answered by then is <i>late</i>: it failed this round, and
 * stays busy until its answer comes. A late grant is given back as it arrives.
 *
 * <p><b>After a round short of the quorum</b> (what it took already given back): when masters that are down
 * or answered with an error leave fewer than a quorum that can answer, the attempt fails at once with
 * {@link QuorumException}; when the wait is over, it ends with {@code false} if a quorum answered in time
 * (another holder has the lock), or else with a {@link QuorumException} that says what each master did
 * (down, how late, or its error); otherwise the next round follows a short random pause, and is not sent
 * while busy and down masters leave fewer than a quorum to ask.
 *
 * <p>However the result ends (held, not held, failed, or ended by the caller: cancel, its own timeout), the
 * tries still in flight are cancelled, and their member futures give back a grant that arrives later; a hold
 * taken as the caller ended the result is released. Thread-safe: the fields are guarded by {@code this}.
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
    private final Master[] masters;

    /** One master's part in the attempt. */
    private static final class Master {
        final int index;
        /** A try still unanswered (this round's, or a late one of an earlier round), or null. Guarded by the attempt. */
        CompletableFuture<Boolean> pending;
        long askedNanos;
        /** What it did in the last round it took part in, for the error message. Guarded by the attempt. */
        String did = "not asked yet";
        /** Whether it answered in time in the last round it took part in. Guarded by the attempt. */
        boolean inTime;

        Master(int index) {
            this.index = index;
        }
    }

    /** How a master took part in one round. */
    private enum Part { GRANTED, REFUSED, NOT_ASKED, LATE, DOWN, FAILED }

    RedLockAttempt(RedLock lock, long holderId, long leaseNanos, long waitNanos) {
        this.lock = lock;
        this.holderId = holderId;
        this.leaseNanos = leaseNanos;
        this.tryMillis = Math.max(MIN_TRY_MILLIS, Math.min(MAX_TRY_MILLIS, lock.leaseMillis(leaseNanos) / 10));
        this.bounded = waitNanos >= 0;
        this.deadlineNanos = bounded ? System.nanoTime() + Math.min(waitNanos, Long.MAX_VALUE / 4) : 0;
        this.masters = new Master[lock.members().size()];
        for (int i = 0; i < masters.length; i++) {
            masters[i] = new Master(i);
        }
    }

    CompletableFuture<Boolean> start() {
        round();
        return result;
    }

    private void round() {
        List<HaspLock> members = lock.members();
        Part[] parts = new Part[masters.length];
        List<CompletableFuture<Boolean>> asked = new ArrayList<>(masters.length);
        long startNanos = System.nanoTime();
        synchronized (this) {
            if (result.isDone()) {
                return;
            }
            int askable = 0;
            for (Master m : masters) {
                if (m.pending != null) {
                    parts[m.index] = Part.LATE;
                    m.did = "no answer " + millis(startNanos - m.askedNanos) + " ms after it was asked, "
                            + tryMillis + " ms allowed";
                } else if (lock.knownDown(m.index)) {
                    parts[m.index] = Part.DOWN;
                    m.did = "down (its connection is reconnecting)";
                    m.inTime = false;
                } else {
                    askable++;
                }
            }
            if (askable < lock.quorum()) {
                for (Master m : masters) {
                    if (parts[m.index] == null) {
                        parts[m.index] = Part.NOT_ASKED;   // too few could grant it: wait for the busy ones
                    }
                }
            } else {
                for (Master m : masters) {
                    if (parts[m.index] == null) {
                        m.pending = ask(members.get(m.index));
                        m.askedNanos = startNanos;
                        asked.add(m.pending);
                    }
                }
            }
        }
        if (asked.isEmpty()) {
            afterShortRound(parts, List.of());
            return;
        }
        Part[] decided = parts;
        CompletableFuture.allOf(asked.toArray(CompletableFuture[]::new))
                .orTimeout(tryMillis, TimeUnit.MILLISECONDS)   // ends this wait only, not the tries
                .whenComplete((all, timedOut) -> onRound(decided, startNanos));
    }

    private CompletableFuture<Boolean> ask(HaspLock member) {
        return Futures.sent(() -> member.tryLockAsync(0, leaseNanos, TimeUnit.NANOSECONDS, member.owner(holderId)));
    }

    private void onRound(Part[] parts, long startNanos) {
        List<HaspLock> members = lock.members();
        List<HaspLock> granted = new ArrayList<>();
        List<Master> late = new ArrayList<>();
        long endNanos = System.nanoTime();
        synchronized (this) {
            for (Master m : masters) {
                if (parts[m.index] != null) {
                    continue;   // late from an earlier round, or down: not asked in this one
                }
                CompletableFuture<Boolean> attempt = m.pending;
                if (!attempt.isDone()) {
                    parts[m.index] = Part.LATE;
                    m.did = "no answer within " + tryMillis + " ms (a tenth of the lease, at most 1 s)";
                    m.inTime = false;
                    late.add(m);
                    continue;
                }
                m.pending = null;
                m.inTime = !attempt.isCompletedExceptionally();
                if (attempt.isCompletedExceptionally()) {
                    parts[m.index] = Part.FAILED;
                    m.did = "failed: " + failure(attempt);
                } else if (Boolean.TRUE.equals(attempt.getNow(false))) {
                    parts[m.index] = Part.GRANTED;
                    m.did = "granted it";
                    granted.add(members.get(m.index));
                } else {
                    parts[m.index] = Part.REFUSED;
                    m.did = "held by another holder";
                }
            }
        }
        for (Master m : late) {
            CompletableFuture<Boolean> attempt = m.pending;
            attempt.whenComplete((got, error) -> lateAnswer(m, members.get(m.index), attempt, got));
        }
        long leaseMillis = lock.leaseMillis(leaseNanos);
        long tookMillis = millis(endNanos - startNanos);
        long validityMillis = leaseMillis - tookMillis - (leaseMillis / 100 + 2);
        if (granted.size() >= lock.quorum() && validityMillis > 0) {
            if (result.isDone() || !lock.held(holderId, granted, tryMillis)) {
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
            afterShortRound(parts, granted);
        });
    }

    /**
     * A try that missed its round answered at last: its grant is given back (the round that asked for it
     * is over), and the master is free to be asked again once that is done.
     */
    private void lateAnswer(Master m, HaspLock member, CompletableFuture<Boolean> late, Boolean got) {
        String answer = late.isCompletedExceptionally() ? "failed: " + failure(late)
                : Boolean.TRUE.equals(got) ? "granted it" : "held by another holder";
        long lateMillis = millis(System.nanoTime() - m.askedNanos);
        CompletableFuture<Void> giveBack = late.isCompletedExceptionally() || !Boolean.TRUE.equals(got)
                ? CompletableFuture.completedFuture(null) : release(List.of(member));
        giveBack.whenComplete((ignored, releaseError) -> {
            synchronized (this) {
                if (m.pending == late) {
                    m.pending = null;
                }
                m.did = "answered (" + answer + ") " + lateMillis + " ms after it was asked, " + tryMillis
                        + " ms allowed" + (releaseError == null ? "" : "; giving the late grant back failed: "
                        + Futures.unwrap(releaseError));
            }
        });
    }

    /** After a round without the quorum (all it took already released): fail, give up, or go again. */
    private void afterShortRound(Part[] parts, List<HaspLock> granted) {
        int answering = 0;
        for (Part part : parts) {
            if (part != Part.DOWN && part != Part.FAILED) {
                answering++;
            }
        }
        int inTime = 0;
        synchronized (this) {
            for (Master m : masters) {
                inTime += m.inTime ? 1 : 0;
            }
        }
        if (answering < lock.quorum()) {
            result.completeExceptionally(new QuorumException(lock + ": only " + answering + " of " + masters.length
                    + " masters can answer, " + lock.quorum() + " needed; " + report(), answering, masters.length,
                    lock.quorum()));
            return;
        }
        long pauseNanos = TimeUnit.MILLISECONDS.toNanos(
                ThreadLocalRandom.current().nextLong(MIN_PAUSE_MILLIS, MAX_PAUSE_MILLIS + 1));
        if (bounded && deadlineNanos - System.nanoTime() <= pauseNanos) {
            if (inTime >= lock.quorum()) {
                result.complete(false);   // a quorum answered in time: another holder has it
            } else {
                result.completeExceptionally(new QuorumException(lock + ": only " + inTime + " of " + masters.length
                        + " masters answered in time when last asked within the wait, " + lock.quorum() + " needed; "
                        + report(), inTime, masters.length, lock.quorum()));
            }
            return;
        }
        if (!result.isDone()) {
            CompletableFuture.delayedExecutor(pauseNanos, TimeUnit.NANOSECONDS).execute(this::round);
        }
    }

    /** What each master did in the last round it took part in. */
    private synchronized String report() {
        List<String> lines = new ArrayList<>(masters.length);
        for (Master m : masters) {
            lines.add(lock.describe(m.index) + ": " + m.did);
        }
        return String.join("; ", lines);
    }

    private static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
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
            unlocks.add(Futures.sent(() -> member.unlockAsync(member.owner(holderId))));
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
                if (!released(unlock)) {
                    throw Futures.rethrowable(Futures.unwrap(unlock.handle((v, e) -> e).join()));
                }
            }
            return null;
        });
    }

    /** Whether a completed unlock left the master without this hold: it released it, or found it gone. */
    static boolean released(CompletableFuture<Void> unlock) {
        if (!unlock.isCompletedExceptionally()) {
            return true;
        }
        return Futures.unwrap(unlock.handle((v, e) -> e).join()) instanceof IllegalMonitorStateException;
    }

    /**
     * Runs once the result completed, however: cancels the tries still in flight (late ones too), whose
     * futures give back a grant that arrives after that.
     */
    private void ended() {
        List<CompletableFuture<Boolean>> pending = new ArrayList<>();
        synchronized (this) {
            for (Master m : masters) {
                if (m.pending != null) {
                    pending.add(m.pending);
                }
            }
        }
        pending.forEach(t -> t.cancel(false));
    }
}
