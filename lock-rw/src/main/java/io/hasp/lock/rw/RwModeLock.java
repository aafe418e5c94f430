package io.hasp.lock.rw;

import io.hasp.internal.lock.KindLock;
import io.hasp.internal.lock.LockKind;
import io.hasp.internal.lock.LockService;
import java.util.concurrent.CompletableFuture;

/** A {@link ModeLock}: the lock engine's {@link KindLock} with one of the two read/write kinds. */
final class RwModeLock extends KindLock implements ModeLock {

    private final LockMode mode;

    /** The mode {@code base.mode()} of lock {@code name}, run as {@code kind} ({@code base}, or it confirmed by replicas). */
    RwModeLock(LockService service, String name, RwLockKind base, LockKind kind) {
        super(service, kind, name);
        this.mode = base.mode();
    }

    @Override
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
