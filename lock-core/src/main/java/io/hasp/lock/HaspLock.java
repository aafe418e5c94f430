package io.hasp.lock;

import io.hasp.RedisException;
import io.hasp.internal.lock.LockService;
import io.hasp.internal.lock.ReentrantKind;

/**
 * A reentrant distributed lock on Redis, wire-compatible with Redisson 4.x's {@code RLock}: a
 * hasp client and a Redisson client using the same name exclude and wake each other.
 *
 * <p><b>Holds.</b> The owner of a hold is a {@link LockOwner}: this client's id and a holder id.
 * The blocking methods use the calling thread's id; the {@code *Async} methods take the owner
 * explicitly, because their continuations run on other threads ({@link #owner(long)} makes one).
 * Holds are reentrant: each acquisition adds one, each unlock removes one, and the lock is
 * freed (and its waiters told) when the count reaches zero.
 *
 * <p><b>Leases.</b> With a lease time the lock expires after it and is never renewed. Without
 * one (or with -1) the client's watchdog keeps it alive: the lease ({@code HaspConfig.watchdogLease},
 * 30 s by default) is renewed every third of it while held, and the hold's {@link #holdEnd} future
 * reports {@link HoldEnd#LOST} if the renewal finds it gone.
 *
 * <p><b>Waiting.</b> Waiters subscribe to the lock's unlock channel and are woken by the unlock
 * message or, at the latest, when the holder's lease runs out; the blocking methods wait on the
 * async ones, and waiting asynchronously costs no thread.
 *
 * <p><b>Errors.</b> Bad arguments throw {@link IllegalArgumentException} and send nothing; an
 * unlock by a non-holder throws {@link IllegalMonitorStateException}; Redis failures surface as
 * {@link RedisException} subtypes (futures fail with them). Instances are cheap views and
 * thread-safe; {@code newCondition()} is not supported.
 */
public final class HaspLock extends KindLock {

    public HaspLock(LockService service, String name) {
        super(service, ReentrantKind.INSTANCE, name);
    }

    /** The lock's name and client. */
    @Override
    public String toString() {
        return "HaspLock[" + getName() + ", client " + service().clientId() + "]";
    }
}
