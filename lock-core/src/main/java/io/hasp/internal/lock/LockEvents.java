package io.hasp.internal.lock;

import io.hasp.HaspListener;
import io.hasp.internal.Futures;
import io.hasp.lock.HoldEnd;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lock engine's events, told to the application's {@link HaspListener}: each call guarded, so that a
 * listener that throws is logged and changes nothing. The engine holds one only when a listener is set
 * (else null, and no event costs anything but that null check). Thread-safe.
 */
final class LockEvents {

    private static final Logger log = LoggerFactory.getLogger(LockEvents.class);

    private final HaspListener listener;
    private final LockContext context;
    /** When each hold of this client that has not ended yet began (the hold records keep no such time). */
    private final ConcurrentHashMap<Hold, Long> began = new ConcurrentHashMap<>();

    LockEvents(HaspListener listener, LockContext context) {
        this.listener = listener;
        this.context = context;
    }

    /** The kind's name in events: its own name, without the replica-acknowledgement wrapper. */
    static String kindName(LockKind kind) {
        return kind instanceof ConfirmedKind confirmed ? confirmed.base().toString() : kind.toString();
    }

    /**
     * Tells of an acquisition that begins now, and of how it ends once {@code start} has started it and its result
     * completes; returns that result. What the listener returns for its start becomes the acquisition's trace, the
     * parent its attempts are told with.
     */
    <T> CompletableFuture<T> acquisition(Successor acquisition, Supplier<CompletableFuture<T>> start) {
        String kind = kindName(acquisition.kind);
        String name = acquisition.name;
        long startNanos = context.nanoTime();
        Object started = null;
        try {
            started = listener.acquireStarted(kind, name);
        } catch (RuntimeException e) {
            complain("acquireStarted", e);
        }
        Object token = started;
        acquisition.trace = token;
        CompletableFuture<T> result = start.get();
        result.whenComplete((value, error) -> {
            long waited = context.nanoTime() - startNanos;
            try {
                if (error == null && !Boolean.FALSE.equals(value)) {
                    listener.acquired(kind, name, waited, token);
                } else {
                    listener.acquireFailed(kind, name, waited, error == null ? null : Futures.unwrap(error), token);
                }
            } catch (RuntimeException e) {
                complain("acquired/acquireFailed", e);
            }
        });
        return result;
    }

    /** An acquire script of {@code acquisition} is being sent: what the listener returned for it, or null. */
    static Object attemptSent(LockContext context, Successor acquisition) {
        LockEvents events = context.events;
        if (events == null) {
            return null;
        }
        int attempt = ++acquisition.attempts;   // its sends follow one another: one writer at a time
        try {
            return events.listener.attemptSent(kindName(acquisition.kind), acquisition.name, attempt, acquisition.trace);
        } catch (RuntimeException e) {
            complain("attemptSent", e);
            return null;
        }
    }

    /** The answer to an acquire script whose send the listener heard ({@code sent} not null). */
    static void attemptAnswered(LockContext context, Successor acquisition, Object sent, AcquireOutcome outcome,
            Throwable error) {
        LockEvents events = context.events;
        if (events == null || sent == null) {
            return;
        }
        try {
            events.listener.attemptAnswered(kindName(acquisition.kind), acquisition.name,
                    error == null && outcome.acquired(), error == null ? null : Futures.unwrap(error), sent);
        } catch (RuntimeException e) {
            complain("attemptAnswered", e);
        }
    }

    /** A release of this client handed the lock to {@code acquisition} in its own script. */
    static void handedOver(LockContext context, Successor acquisition) {
        LockEvents events = context.events;
        if (events == null) {
            return;
        }
        try {
            events.listener.handedOver(kindName(acquisition.kind), acquisition.name, acquisition.trace);
        } catch (RuntimeException e) {
            complain("handedOver", e);
        }
    }

    /** A hold began with a grant sent at {@code grantedNanos}. */
    void holdBegan(Hold hold, long grantedNanos) {
        began.put(hold, grantedNanos);
    }

    /** A hold ended. */
    void holdEnded(Hold hold, HoldEnd how) {
        Long granted = began.remove(hold);
        long held = granted == null ? 0 : context.nanoTime() - granted;
        try {
            listener.holdEnded(kindName(hold.kind), hold.name, how, held);
        } catch (RuntimeException e) {
            complain("holdEnded", e);
        }
    }

    /** Tells of an unlock that begins now, and of how it ends once {@code start} has started it; returns it. */
    CompletableFuture<Void> release(LockKind kind, String name, Supplier<CompletableFuture<Void>> start) {
        long startNanos = context.nanoTime();
        Object started = null;
        try {
            started = listener.releaseStarted(kindName(kind), name);
        } catch (RuntimeException e) {
            complain("releaseStarted", e);
        }
        Object token = started;
        CompletableFuture<Void> unlock = start.get();
        unlock.whenComplete((ok, error) -> {
            Throwable cause = error == null ? null : Futures.unwrap(error);
            try {
                listener.released(kindName(kind), name, context.nanoTime() - startNanos, cause, token);
                if (cause != null) {
                    listener.unlockFailed(kindName(kind), name, cause);
                }
            } catch (RuntimeException e) {
                complain("released/unlockFailed", e);
            }
        });
        return unlock;
    }

    /** The client learnt of a change of masters, {@code change} in words. */
    void topologyChanged(String change) {
        try {
            listener.topologyChanged(change);
        } catch (RuntimeException e) {
            complain("topologyChanged", e);
        }
    }

    /** A renewal call for the holds on {@code locks} of {@code kind} failed: no answer, or not one it understood. */
    void renewalFailed(LockKind kind, List<String> locks, Throwable cause) {
        try {
            listener.renewalFailed(kindName(kind), List.copyOf(locks), cause);
        } catch (RuntimeException e) {
            complain("renewalFailed", e);
        }
    }

    /** A renewal call for {@code holds} holds answered after {@code nanos}, {@code lost} of them gone. */
    void renewed(int holds, int lost, long nanos) {
        try {
            listener.renewed(holds, lost, nanos);
        } catch (RuntimeException e) {
            complain("renewed", e);
        }
    }

    private static void complain(String event, RuntimeException e) {
        log.warn("the HaspListener's {} threw; hasp goes on as if it had returned", event, e);
    }
}
