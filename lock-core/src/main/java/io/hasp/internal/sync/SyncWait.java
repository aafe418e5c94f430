package io.hasp.internal.sync;

import io.hasp.RedisClosedException;
import io.hasp.ReplicaAcksException;
import io.hasp.internal.Futures;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One wait of a synchronizer (permits of a semaphore, a latch's count reaching zero) that may wait: tries, joins the
 * synchronizer's waiters here when the try fails, tries again once subscribed (no announcement is missed), then
 * parks until an announcement wakes it, a re-check is due, or its deadline passes. At most one try is in flight at a
 * time. What a try took after the result ended (its deadline passed, or it was cancelled, as the try landed) is
 * given back at once by the wait's undo.
 */
final class SyncWait {

    /**
     * How long a parked waiter waits for a message before it looks again anyway: permits added by something that
     * announces nothing, or a message lost, then cost at most this much.
     */
    static final long RECHECK_MILLIS = 3_000;

    private static final Logger log = LoggerFactory.getLogger(SyncWait.class);

    private final PermitWaiters waiters;
    private final Timer timer;
    private final String channelName;
    private final boolean wakesAll;
    private final Supplier<CompletableFuture<Boolean>> tryOnce;
    private final Supplier<CompletableFuture<?>> undo;
    private final LongSupplier nextLookMillis;
    private final String kind;
    private final String name;
    private final String what;
    private final boolean bounded;
    private final long deadlineNanos;
    /** How many permits one try takes: a message announcing fewer free permits does not wake this wait. */
    private int permits = 1;
    /** This client's place in the semaphore's line, which its channel here listens on too; null: none. */
    private WakeLine line;
    /** What the caller gets: true when a try succeeded, false when the wait ran out. */
    final CompletableFuture<Boolean> result = new CompletableFuture<>();

    private PermitChannel channel;   // guarded by this
    private Timeout recheck;         // guarded by this
    private Timeout deadline;        // guarded by this

    /**
     * A wait that waits at most {@code waitNanos} (negative: without a limit; 0: a single try).
     *
     * @param channelName the synchronizer's channel, where its announcements come
     * @param wakesAll whether every announcement wakes every waiter here (else it carries how many to wake)
     * @param tryOnce one try: a future of {@code true} when it succeeded
     * @param undo gives back what a try took, for a success that came after the wait ended; null when a try takes
     *     nothing
     * @param kind the synchronizer's kind, as the client's listener hears it (for example {@code "semaphore"})
     * @param name the synchronizer's name
     */
    SyncWait(PermitWaiters waiters, Timer timer, String channelName, boolean wakesAll,
            Supplier<CompletableFuture<Boolean>> tryOnce, Supplier<CompletableFuture<?>> undo, String kind,
            String name, long waitNanos) {
        this(waiters, timer, channelName, wakesAll, tryOnce, undo, null, kind, name, waitNanos);
    }

    /**
     * A wait as above whose failed tries may tell when something changes without an announcement (a lease that runs
     * out): {@code nextLookMillis}, asked after each failed try, is how long a parked waiter waits at most before it
     * looks again (capped at {@link #RECHECK_MILLIS}); null: always {@link #RECHECK_MILLIS}.
     *
     * @param kind the synchronizer's kind, as the client's listener hears it (for example {@code "semaphore"})
     * @param name the synchronizer's name
     */
    SyncWait(PermitWaiters waiters, Timer timer, String channelName, boolean wakesAll,
            Supplier<CompletableFuture<Boolean>> tryOnce, Supplier<CompletableFuture<?>> undo,
            LongSupplier nextLookMillis, String kind, String name, long waitNanos) {
        this.kind = kind;
        this.name = name;
        this.what = kind + " " + name;
        this.nextLookMillis = nextLookMillis;
        this.waiters = waiters;
        this.timer = timer;
        this.channelName = channelName;
        this.wakesAll = wakesAll;
        this.tryOnce = tryOnce;
        this.undo = undo;
        this.bounded = waitNanos >= 0;
        this.deadlineNanos = System.nanoTime() + Math.max(0, waitNanos);
    }

    /**
     * Waits for {@code future} (a wait's result, or one made from it), interruptibly: an interrupt cancels it, and
     * what a try took meanwhile is given back.
     *
     * @param operation what the caller does, for the message when called on a client thread
     */
    static <T> T awaitInterruptibly(CompletableFuture<T> future, String operation) throws InterruptedException {
        if (!future.isDone()) {
            Futures.checkBlockingAllowed(operation);
        }
        try {
            return future.get();
        } catch (InterruptedException e) {
            if (future.cancel(false) || future.isCompletedExceptionally()) {
                throw e;
            }
            // It succeeded as the interrupt came: its result stands (permits taken are the caller's), and the
            // thread keeps its interrupt status.
            Thread.currentThread().interrupt();
            return future.join();
        } catch (ExecutionException e) {
            throw Futures.rethrowable(e.getCause());
        }
    }

    /**
     * Starts the wait, as a future of nothing, for calls whose success has no value: cancelling it cancels the wait,
     * and what a try took is given back, also when the try succeeded just before the cancel.
     */
    CompletableFuture<Void> startForNothing() {
        return startAs(succeeded -> null);
    }

    /**
     * Starts the wait, as a future of {@code answer} applied to its result: cancelling it cancels the wait, and what a
     * try took is given back, also when the try succeeded just before the cancel.
     */
    <T> CompletableFuture<T> startAs(Function<Boolean, T> answer) {
        CompletableFuture<Boolean> started = start();
        CompletableFuture<T> done = started.thenApply(answer);
        done.whenComplete((v, error) -> {
            if (done.isCancelled() && !started.cancel(false) && !started.isCompletedExceptionally() && undo != null
                    && Boolean.TRUE.equals(started.join())) {
                giveBack();
            }
        });
        return done;
    }

    /** Sets how many permits one try takes (1 unless set), before the wait starts; returns this wait. */
    SyncWait needing(int permits) {
        this.permits = permits;
        return this;
    }

    /**
     * Sets this client's place in the semaphore's line ({@code null}: none), whose channel the waiters here listen on
     * too, before the wait starts; returns this wait.
     */
    SyncWait inLine(WakeLine line) {
        this.line = line;
        return this;
    }

    /** How many permits one try takes. */
    int permits() {
        return permits;
    }

    /** Starts the wait; returns its result. */
    CompletableFuture<Boolean> start() {
        if (!waiters.started(this)) {
            result.completeExceptionally(new RedisClosedException("the hasp client is closed (" + what + ")"));
            return result;
        }
        result.whenComplete((taken, error) -> ended());
        SyncEvents.follow(waiters.listener(), kind, name, result);
        if (bounded && remainingNanos() > 0) {
            Timeout t = schedule(this::deadlinePassed, remainingNanos());
            if (t == null) {
                return result;
            }
            synchronized (this) {
                deadline = t;
            }
            if (result.isDone()) {
                t.cancel();
            }
        }
        attempt();
        return result;
    }

    private long remainingNanos() {
        return deadlineNanos - System.nanoTime();
    }

    private void attempt() {
        if (result.isDone()) {
            return;
        }
        Futures.sent(tryOnce).whenComplete(this::onReply);
    }

    private void onReply(Boolean taken, Throwable error) {
        if (error != null) {
            Throwable cause = Futures.unwrap(error);
            if (undo != null && Boolean.TRUE.equals(Futures.appliedOnMaster(cause, Boolean.class))) {
                giveBack();   // taken on the master, but too few replicas confirmed it: refused, and undone
            }
            // Else the try may have run (its reply was lost): the caller hears the Redis error, not a refusal.
            result.completeExceptionally(cause);
            return;
        }
        if (taken) {
            if (!result.complete(true) && undo != null) {
                giveBack();
            }
            return;
        }
        if (result.isDone()) {
            return;
        }
        if (bounded && remainingNanos() <= 0) {
            result.complete(false);
            return;
        }
        PermitChannel joined;
        synchronized (this) {
            joined = channel;
        }
        if (joined == null) {
            waiters.join(channelName, wakesAll, line).whenComplete(this::onJoined);
        } else {
            park(joined);
        }
    }

    private void onJoined(PermitChannel joined, Throwable error) {
        if (error != null) {
            result.completeExceptionally(Futures.unwrap(error));
            return;
        }
        synchronized (this) {
            if (!result.isDone()) {
                channel = joined;
                joined = null;
            }
        }
        if (joined != null) {   // it ended meanwhile: leave at once
            waiters.leave(joined);
            return;
        }
        attempt();
    }

    private void park(PermitChannel joined) {
        if (!joined.parkUnlessChance(this)) {
            attempt();   // an announcement came since this try
            return;
        }
        long lookMillis = nextLookMillis == null ? RECHECK_MILLIS
                : Math.max(1, Math.min(RECHECK_MILLIS, nextLookMillis.getAsLong()));
        long delayNanos = TimeUnit.MILLISECONDS.toNanos(lookMillis);
        if (bounded) {   // parked as the deadline passed: its last look is due at once
            delayNanos = Math.min(delayNanos, Math.max(1, remainingNanos()));
        }
        Timeout t = schedule(() -> {
            if (joined.unpark(this)) {
                attempt();
            }
        }, delayNanos);
        if (t == null) {
            joined.unpark(this);
            return;
        }
        synchronized (this) {
            recheck = t;
        }
        if (result.isDone()) {
            joined.unpark(this);
            t.cancel();
        }
    }

    /**
     * The wait's time is up: a parked waiter looks once more (an announcement it missed must not make it answer
     * false), and the answer of that try, or of the try or join already on its way, decides.
     */
    private void deadlinePassed() {
        PermitChannel joined;
        synchronized (this) {
            joined = channel;
        }
        if (joined != null && joined.unpark(this)) {
            attempt();
        }
    }

    /** Schedules {@code task} on the client's timer; null (the wait failed) when the timer stopped: the client closed. */
    private Timeout schedule(Runnable task, long delayNanos) {
        try {
            return timer.newTimeout(x -> task.run(), delayNanos, TimeUnit.NANOSECONDS);
        } catch (IllegalStateException stopped) {
            clientClosed();
            return null;
        }
    }

    /** The client closed: the wait fails; its timers and subscription went with the client. */
    void clientClosed() {
        result.completeExceptionally(new RedisClosedException("the hasp client is closed (" + what + ")"));
    }

    /**
     * Woken by an announcement here: tries again; false (nothing done) when the wait had ended, so that the wake
     * goes to another waiter.
     */
    boolean woken() {
        if (result.isDone()) {
            return false;
        }
        run();
        return true;
    }

    private void run() {
        Timeout t;
        synchronized (this) {
            t = recheck;
            recheck = null;
        }
        if (t != null) {
            t.cancel();
        }
        attempt();
    }

    /** The result completed: stops the timers and leaves the waiters. */
    private void ended() {
        PermitChannel joined;
        Timeout r;
        Timeout d;
        synchronized (this) {
            joined = channel;
            channel = null;
            r = recheck;
            d = deadline;
        }
        if (r != null) {
            r.cancel();
        }
        if (d != null) {
            d.cancel();
        }
        if (joined != null) {
            joined.unpark(this);
            waiters.leave(joined);
        }
        waiters.ended(this);
    }

    private void giveBack() {
        Futures.sent(undo::get).whenComplete((undone, error) -> {
            if (error != null && !(Futures.unwrap(error) instanceof ReplicaAcksException)) {   // unconfirmed: it ran
                log.warn("{}: what a try took after its wait ended could not be given back: {}", what,
                        error.toString());
            }
        });
    }
}
