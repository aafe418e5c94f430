package io.hasp.internal.lock;

import io.hasp.ReplicaAcks;
import io.hasp.lock.FencedLock;
import io.hasp.lock.HaspLock;

/**
 * Makes the lock views of the kinds lock-core implements, on a client's {@link LockService}. Views are
 * cheap: all state lives in Redis and in the service. The locks call the service; the service knows
 * nothing of them.
 */
public final class Locks {

    private Locks() {
    }

    /**
     * The reentrant lock named {@code name}.
     *
     * @throws IllegalArgumentException when {@code name} is null or empty
     */
    public static HaspLock reentrant(LockService service, String name) {
        return new KindLock(service, ReentrantKind.INSTANCE, LockArguments.name("name", name));
    }

    /**
     * The fenced lock named {@code name}: the reentrant lock's layout, plus a fencing token per
     * acquisition from Redisson's {@code RFencedLock} counter.
     *
     * @throws IllegalArgumentException when {@code name} is null or empty
     */
    public static FencedLock fenced(LockService service, String name) {
        return new FencedKindLock(service, FencedKind.INSTANCE, LockArguments.name("name", name));
    }

    /**
     * The fair lock named {@code name}: the reentrant lock's layout, granted in the order of Redisson's
     * {@code RFairLock} queue; a waiter's place lasts the client's watchdog lease without renewal.
     *
     * @throws IllegalArgumentException when {@code name} is null or empty
     */
    public static HaspLock fair(LockService service, String name) {
        return new KindLock(service, new FairKind(service.watchdogLeaseMillis()), LockArguments.name("name", name));
    }

    /**
     * The reentrant lock named {@code name}, its writes confirmed by replicas as {@code acks} asks.
     *
     * @throws IllegalArgumentException when {@code name} is null or empty, or {@code acks} null
     */
    public static HaspLock reentrant(LockService service, String name, ReplicaAcks acks) {
        return new KindLock(service, confirmed(service, ReentrantKind.INSTANCE, acks), LockArguments.name("name", name));
    }

    /**
     * The fenced lock named {@code name}, its writes (and tokens) confirmed by replicas as {@code acks} asks.
     *
     * @throws IllegalArgumentException when {@code name} is null or empty, or {@code acks} null
     */
    public static FencedLock fenced(LockService service, String name, ReplicaAcks acks) {
        return new FencedKindLock(service, confirmed(service, FencedKind.INSTANCE, acks),
                LockArguments.name("name", name));
    }

    /**
     * {@code base} with its writes confirmed by replicas as {@code acks} asks: {@code base} itself when that is the
     * client's setting. For the kinds of other modules (a read/write lock's modes).
     *
     * @throws IllegalArgumentException when {@code acks} is null, or its timeout is not shorter than the client's
     *     command timeout
     */
    public static LockKind confirmed(LockService service, LockKind base, ReplicaAcks acks) {
        LockArguments.notNull("acks", acks);
        if (acks.enabled() && acks.timeout().toMillis() >= service.commandTimeoutMillis()) {
            throw new IllegalArgumentException("acks: " + acks + " (expected: a timeout shorter than the client's"
                    + " commandTimeout " + service.commandTimeoutMillis() + " ms, which every WAIT must answer within)");
        }
        return acks.equals(service.replicaAcks()) ? base : new ConfirmedKind(base, acks);
    }
}
