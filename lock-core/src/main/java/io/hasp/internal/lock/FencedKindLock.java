package io.hasp.internal.lock;

import io.hasp.internal.EndingFuture;
import io.hasp.internal.Futures;
import io.hasp.lock.FencedLock;
import io.hasp.lock.LockOwner;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The {@link FencedLock}: a {@link KindLock} of the {@link FencedKind}, whose token-returning calls
 * acquire as the plain calls do and then read the token the acquisition recorded in the client's
 * hold. Thread-safe, a cheap view.
 */
final class FencedKindLock extends KindLock implements FencedLock {

    private static final long WATCHDOG = -1;
    private static final long NO_DEADLINE = -1;

    /** @param kind {@link FencedKind#INSTANCE}, or it confirmed by replicas ({@link ConfirmedKind}) */
    FencedKindLock(LockService service, LockKind kind, String name) {
        super(service, kind, name);
    }

    @Override
    public long lockAndGetToken() {
        lock();
        return heldToken(currentOwner());
    }

    @Override
    public long lockAndGetToken(Duration leaseTime) {
        lock(leaseTime);
        return heldToken(currentOwner());
    }

    @Override
    public OptionalLong tryLockAndGetToken() {
        return tryLock() ? OptionalLong.of(heldToken(currentOwner())) : OptionalLong.empty();
    }

    @Override
    public OptionalLong tryLockAndGetToken(Duration waitTime, Duration leaseTime) throws InterruptedException {
        return tryLock(waitTime, leaseTime) ? OptionalLong.of(heldToken(currentOwner())) : OptionalLong.empty();
    }

    @Override
    public OptionalLong tryLockAndGetToken(long waitTime, long leaseTime, TimeUnit unit) throws InterruptedException {
        return tryLock(waitTime, leaseTime, unit) ? OptionalLong.of(heldToken(currentOwner())) : OptionalLong.empty();
    }

    @Override
    public OptionalLong getToken() {
        return getToken(currentOwner());
    }

    @Override
    public OptionalLong getToken(LockOwner owner) {
        return service().token(kind(), getName(), LockArguments.notNull("owner", owner));
    }

    @Override
    public CompletableFuture<Long> lockAndGetTokenAsync(LockOwner owner) {
        LockArguments.notNull("owner", owner);
        return afterAcquiring(service().tryAcquire(kind(), getName(), owner, WATCHDOG, NO_DEADLINE), owner,
                token -> token.orElseThrow(() -> new IllegalStateException("the lock was not acquired")));
    }

    @Override
    public CompletableFuture<Long> lockAndGetTokenAsync(Duration leaseTime, LockOwner owner) {
        long lease = LockArguments.leaseMillis(leaseTime, service().minLeaseMillis());
        LockArguments.notNull("owner", owner);
        return afterAcquiring(service().tryAcquire(kind(), getName(), owner, lease, NO_DEADLINE), owner,
                token -> token.orElseThrow(() -> new IllegalStateException("the lock was not acquired")));
    }

    @Override
    public CompletableFuture<OptionalLong> tryLockAndGetTokenAsync(Duration waitTime, Duration leaseTime,
            LockOwner owner) {
        long wait = LockArguments.waitNanos(waitTime);
        long lease = LockArguments.leaseMillis(leaseTime, service().minLeaseMillis());
        LockArguments.notNull("owner", owner);
        return afterAcquiring(service().tryAcquire(kind(), getName(), owner, lease, wait), owner,
                Function.identity());
    }

    /**
     * The token of the hold {@code owner}'s acquisition just took.
     *
     * @throws IllegalStateException when the hold already ended (another thread of the same owner
     *     released it, the watchdog found it gone, or the client closed) before its token was read;
     *     what may be left of it is unlocked first
     */
    private long heldToken(LockOwner owner) {
        OptionalLong token = service().token(kind(), getName(), owner);
        if (token.isEmpty()) {
            // Whatever is left of this acquisition is given back: the caller gets an error, not a hold.
            unlockAsync(owner);
            throw new IllegalStateException("the hold of " + owner + " on " + this
                    + " ended before its token was read");
        }
        return token.getAsLong();
    }

    /**
     * A future of {@code acquiring}'s token, as {@code result} maps it (empty when the wait passed).
     * However the caller ends it first (cancel, a timeout of its own), the acquisition is cancelled,
     * and a lock granted at that moment is given back.
     */
    private <T> CompletableFuture<T> afterAcquiring(CompletableFuture<Boolean> acquiring, LockOwner owner,
            Function<OptionalLong, T> result) {
        CompletableFuture<T> view = new EndingFuture<>(() -> acquiring.cancel(false));  // no-op once it is done
        acquiring.whenComplete((acquired, error) -> {
            if (error != null) {
                view.completeExceptionally(Futures.unwrap(error));
                return;
            }
            T value;
            try {
                value = result.apply(acquired ? OptionalLong.of(heldToken(owner)) : OptionalLong.empty());
            } catch (RuntimeException e) {
                view.completeExceptionally(e);
                return;
            }
            if (!view.complete(value) && acquired) {
                unlockAsync(owner);  // the caller cancelled as the lock was granted: give it back
            }
        });
        return view;
    }
}
