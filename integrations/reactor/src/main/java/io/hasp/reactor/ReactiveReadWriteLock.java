package io.hasp.reactor;

import io.hasp.lock.rw.HaspReadWriteLock;
import java.util.Objects;
import reactor.core.publisher.Mono;

/**
 * A {@link HaspReadWriteLock} for Reactor: its read and write modes as {@link ReactiveLock}s, owned by
 * the subscription. Readers of different subscriptions share the lock; a writer excludes everyone
 * else. A subscription that holds the write mode may take the read mode too. Thread-safe; a cheap view.
 */
public final class ReactiveReadWriteLock {

    private final HaspReadWriteLock lock;
    private final ReactiveLock read;
    private final ReactiveLock write;

    private ReactiveReadWriteLock(HaspReadWriteLock lock) {
        this.lock = lock;
        this.read = ReactiveLock.of(lock.readLock());
        this.write = ReactiveLock.of(lock.writeLock());
    }

    /** {@code lock} for Reactor. */
    public static ReactiveReadWriteLock of(HaspReadWriteLock lock) {
        Objects.requireNonNull(lock, "lock");
        return new ReactiveReadWriteLock(lock);
    }

    /** The lock's name. */
    public String name() {
        return lock.getName();
    }

    /** The shared mode. */
    public ReactiveLock readLock() {
        return read;
    }

    /** The exclusive mode. */
    public ReactiveLock writeLock() {
        return write;
    }

    /** Whether anyone holds the lock in either mode. */
    public Mono<Boolean> isLocked() {
        return LockScope.call(lock::isLockedAsync);
    }

    @Override
    public String toString() {
        return "ReactiveReadWriteLock[" + lock.getName() + "]";
    }
}
