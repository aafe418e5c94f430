package io.hasp.internal;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Marks a blocking lock call ({@code lock}, {@code tryLock}, {@code unlock}) on its thread, from start to
 * return: a script its thread sends there may run on a direct connection, the thread writing it and reading
 * the reply itself (see {@code io.hasp.internal.connection.DirectConnections}), since the thread would only
 * wait for the reply anyway. Outside such a call (async calls, event loops, the timer) nothing changes.
 *
 * <p>It also counts the threads inside such calls in this JVM: the direct path pays off while they are few
 * enough to have a connection each; past that, one event loop batching many callers' commands costs less CPU
 * per call than a round trip of each thread's own.
 *
 * <p>Use as {@code boolean outer = CallerWaits.enter(); try { ... } finally { CallerWaits.exit(outer); }};
 * calls nest. No allocation after a thread's first call.
 */
public final class CallerWaits {

    private static final ThreadLocal<Call> CALL = ThreadLocal.withInitial(Call::new);
    private static final AtomicInteger THREADS = new AtomicInteger();

    /** The current thread's blocking call. */
    private static final class Call {
        boolean active;
        boolean turn;         // the call's own first script may still go direct
        long deadlineNanos;   // 0: none but the command timeout
    }

    private CallerWaits() {
    }

    /**
     * Starts a blocking call on the current thread, with no deadline of its own.
     *
     * @return whether the thread was already in one (pass it to {@link #exit})
     */
    public static boolean enter() {
        return enter(0);
    }

    /**
     * Starts a blocking call on the current thread that gives up at {@code deadlineNanos} (a bounded
     * {@code tryLock}): a reply it reads itself is not waited for past that.
     *
     * @param deadlineNanos the {@link System#nanoTime()} the call ends at, or 0 for none
     * @return whether the thread was already in one (pass it to {@link #exit}); an inner call keeps the
     *     outer call's deadline
     */
    public static boolean enter(long deadlineNanos) {
        Call call = CALL.get();
        boolean outer = call.active;
        if (!outer) {
            call.active = true;
            call.turn = true;
            call.deadlineNanos = deadlineNanos;
            THREADS.incrementAndGet();
        }
        return outer;
    }

    /**
     * Ends the call {@link #enter} started.
     *
     * @param outer what {@code enter} returned
     */
    public static void exit(boolean outer) {
        if (!outer) {
            Call call = CALL.get();
            call.active = false;
            call.turn = false;
            call.deadlineNanos = 0;
            THREADS.decrementAndGet();
        }
    }

    /**
     * Takes the current blocking call's one turn on a direct connection: its first script. What else runs
     * on the thread inside the call (another thread's acquire woken by this unlock, a rollback) goes
     * through the event loop.
     *
     * @return {@code true} once per blocking call, when the thread is inside one
     */
    public static boolean takeTurn() {
        Call call = CALL.get();
        if (!call.active || !call.turn) {
            return false;
        }
        call.turn = false;
        return true;
    }

    /** @return the deadline of the current thread's blocking call ({@link System#nanoTime()}), or 0 for none */
    public static long deadline() {
        return CALL.get().deadlineNanos;
    }

    /** @return how many threads of this JVM are inside blocking lock calls now */
    public static int threads() {
        return THREADS.get();
    }
}
