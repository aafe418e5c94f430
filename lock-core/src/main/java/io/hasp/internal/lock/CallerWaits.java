package io.hasp.internal.lock;

import io.hasp.internal.connection.CallerAdmission;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Marks a blocking lock call ({@code lock}, {@code tryLock}, {@code unlock}) on its thread, from start to
 * return: a script its thread sends there may run on a direct connection, the thread writing it and reading
 * the reply itself (see {@code io.hasp.internal.connection.DirectConnections}), since the thread would only
 * wait for the reply anyway. Outside such a call (async calls, event loops, the timer) nothing changes.
 * The direct path asks through {@link #admission()}, the transport's {@link CallerAdmission}: the transport
 * knows nothing of lock calls.
 *
 * <p>It also counts the threads of this JVM inside such calls that may still make round trips of their own:
 * the direct path pays off while they are few enough to have a connection each; past that, one event loop
 * batching many callers' commands costs less CPU per call than a round trip of each thread's own. A thread
 * whose acquisition found the lock held by another owner and waits for its release ({@link #waitsForHolder})
 * leaves the count: a service with many threads queued on one busy lock keeps the direct path for its other
 * lock calls.
 *
 * <p>Use as {@code boolean outer = CallerWaits.enter(); try { ... } finally { CallerWaits.exit(outer); }};
 * calls nest. No allocation after a thread's first call, and none on a thread that never makes one.
 */
public final class CallerWaits {

    /** Set on a thread's first blocking call: other threads (event loops, async callers) never get one. */
    private static final ThreadLocal<Call> CALL = new ThreadLocal<>();
    private static final AtomicInteger THREADS = new AtomicInteger();
    /** {@link Call#state} outside a call. */
    private static final long OUTSIDE = -1;

    /**
     * A thread's blocking call: one object per thread, reused from call to call, each call with its own
     * {@link #number()}. Another thread marks the call that a number names ({@link #waitsForHolder}).
     */
    public static final class Call {
        private boolean turn;         // the call's own first script may still go direct
        private long deadlineNanos;   // 0: none but the command timeout
        private long number;          // counts this thread's calls; names the current one
        /**
         * {@link #OUTSIDE}, or {@code number << 1} while the call is counted in {@link #THREADS}, with the
         * low bit set once it has left the count waiting for a holder. Set from other threads too (the
         * event loop marks a waiting acquisition), hence atomic; a mark meant for an earlier call of the
         * thread finds another number and changes nothing.
         */
        private final AtomicLong state = new AtomicLong(OUTSIDE);

        private Call() {
        }

        /** @return the number of the thread's current (or last) call; read it on the call's own thread only */
        public long number() {
            return number;
        }
    }

    /** The answers of this JVM's blocking lock calls to the direct path: one stateless view of the statics below. */
    private static final CallerAdmission ADMISSION = new CallerAdmission() {
        @Override
        public boolean takeTurn() {
            return CallerWaits.takeTurn();
        }

        @Override
        public int competingCallers() {
            return threads();
        }

        @Override
        public long deadline() {
            return CallerWaits.deadline();
        }
    };

    private CallerWaits() {
    }

    /** What the direct connections ask of the calling thread, answered by its blocking lock call (if any). */
    public static CallerAdmission admission() {
        return ADMISSION;
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
        if (call == null) {
            call = new Call();
            CALL.set(call);
        }
        boolean outer = call.state.get() != OUTSIDE;
        if (!outer) {
            call.turn = true;
            call.deadlineNanos = deadlineNanos;
            call.number++;
            THREADS.incrementAndGet();
            call.state.set(call.number << 1);
        }
        return outer;
    }

    /**
     * Ends the call {@link #enter} started.
     *
     * @param outer what {@code enter} returned
     */
    public static void exit(boolean outer) {
        Call call = CALL.get();
        if (!outer && call != null) {
            call.turn = false;
            call.deadlineNanos = 0;
            if ((call.state.getAndSet(OUTSIDE) & 1) == 0) {
                THREADS.decrementAndGet();   // still counted: not marked waiting for a holder
            }
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
        if (call == null || !call.turn) {
            return false;
        }
        call.turn = false;
        return true;
    }

    /** @return the deadline of the current thread's blocking call ({@link System#nanoTime()}), or 0 for none */
    public static long deadline() {
        Call call = CALL.get();
        return call == null ? 0 : call.deadlineNanos;
    }

    /**
     * The current thread's blocking call while its first script has not been sent yet, for
     * {@link #waitsForHolder} from another thread (with its {@link Call#number()}, read on this thread).
     * An acquisition started later in the call (another lock's, run inline as this call's reply completes
     * something) is not the call's own, and gets null.
     *
     * @return the call, or null when the thread is in no blocking call or the call has had its turn
     */
    public static Call current() {
        Call call = CALL.get();
        return call == null || !call.turn || call.state.get() == OUTSIDE ? null : call;
    }

    /**
     * Marks {@code call} number {@code number} as waiting for another holder's release: its thread parks
     * until then and makes no round trips of its own, so it leaves the count of {@link #threads()} for the
     * rest of the call. Does nothing once that call has ended or was marked already. Any thread may call it.
     *
     * @param call what {@link #current} returned on the call's thread, or null
     * @param number the call's {@link Call#number()}, read then
     */
    public static void waitsForHolder(Call call, long number) {
        if (call != null && call.state.compareAndSet(number << 1, number << 1 | 1)) {
            THREADS.decrementAndGet();
            if (CALL.get() == call) {
                call.turn = false;   // marked before its first script: uncounted, it does not go direct either
            }
        }
    }

    /** @return how many threads of this JVM are inside blocking lock calls now, not waiting for a holder */
    public static int threads() {
        return THREADS.get();
    }
}
