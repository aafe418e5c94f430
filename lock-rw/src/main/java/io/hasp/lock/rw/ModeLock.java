package io.hasp.lock.rw;

import io.hasp.internal.lock.LockService;
import io.hasp.lock.KindLock;
import java.util.concurrent.CompletableFuture;

/**
 * One mode, read or write, of a {@link HaspReadWriteLock}, with the reentrant lock's API (from
 * {@link KindLock}): blocking, interruptible and timed acquisition, async twins with an explicit
 * {@link io.hasp.lock.LockOwner}, unlock, {@code forceUnlock} (frees the lock if it is held in this
 * mode), {@code isLocked}, {@code getHoldCount}, {@code remainTimeToLive} (of the whole lock) and
 * {@code holdEnd}.
 *
 * <p>Asking for the write lock while holding the read lock (an upgrade) fails at once with
 * {@link LockUpgradeException}: the blocking methods throw it, the futures fail with it. The
 * write holder may take the read lock (a downgrade). Thread-safe; cheap view.
 */
public final class ModeLock extends KindLock {

    private final LockMode mode;

    ModeLock(LockService service, String name, RwLockKind kind) {
        super(service, kind, name);
        this.mode = kind.mode();
    }

    /** Which mode this is. */
    public LockMode mode() {
        return mode;
    }

    /**
     * Whether anyone holds this mode (a snapshot of up to two reads): the write mode when the lock is
     * write-held; the read mode when it is read-held, or write-held by a writer that also holds read
     * holds (a downgrade in progress).
     */
    @Override
    public CompletableFuture<Boolean> isLockedAsync() {
        return redis().hget(getName(), "mode").thenCompose(current -> {
            if (mode == LockMode.WRITE || current == null || "read".equals(current)) {
                return CompletableFuture.completedFuture(
                        current != null && current.equals(mode == LockMode.WRITE ? "write" : "read"));
            }
            // Write mode: read holds exist beside 'mode' and the writer's field.
            return redis().hlen(getName()).thenApply(fields -> fields > 2);
        });
    }
}
