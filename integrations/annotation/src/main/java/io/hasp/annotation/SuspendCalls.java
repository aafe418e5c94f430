package io.hasp.annotation;

import io.hasp.kotlin.CoroutineEnd;
import io.hasp.kotlin.CoroutineLockOwner;
import io.hasp.kotlin.LockedSuspendCalls;
import io.hasp.lock.HaspLock;
import io.hasp.lock.LockOwner;
import java.lang.reflect.Method;
import java.time.Duration;
import kotlin.Unit;
import kotlin.coroutines.Continuation;
import kotlin.coroutines.CoroutineContext;

/**
 * {@link Locked} Kotlin {@code suspend} functions: the calling coroutine's owner (or a new one for the call)
 * takes the lock without blocking a thread, the function runs as that owner, and the lock goes back when it
 * returns, throws or is cancelled. Loaded only when such a function is called, so that hasp-annotation needs
 * Kotlin and hasp-kotlin only where they are used.
 */
final class SuspendCalls {

    private SuspendCalls() {
    }

    /**
     * The compiled suspend function called under the lock with the caller's continuation, the last of
     * {@code arguments}: its value, or {@code COROUTINE_SUSPENDED} when the caller is resumed later.
     */
    @SuppressWarnings("unchecked")
    static Object locked(Method method, HaspLock lock, String name, LockOptions options, Object[] arguments,
            LockTemplate.MethodCall call) {
        long start = System.nanoTime();
        Object skipped = skippedValue(method);
        int last = arguments.length - 1;
        return LockedSuspendCalls.call(lock,
                owner -> options.leaseTime() == null
                        ? lock.tryLockAsync(options.waitTime(), owner)
                        : lock.tryLockAsync(options.waitTime(), options.leaseTime(), owner),
                attempts -> options.retryCount() != 0 && attempts > options.retryCount()
                        ? -1
                        : LockTemplate.jitter(options.retryInterval()),
                attempts -> {
                    if (options.whenUnavailable() == WhenUnavailable.SKIP) {
                        return skipped;
                    }
                    throw new LockUnavailableException(name, attempts, Duration.ofNanos(System.nanoTime() - start),
                            options, null);
                },
                continuation -> {
                    Object[] own = arguments.clone();
                    own[last] = continuation;
                    return call.invoke(own);
                },
                (Continuation<Object>) arguments[last]);
    }

    /**
     * For a framework that turns a suspend function into a {@code Mono} before its interceptors see it: the
     * function's publisher under the lock, taken by the calling coroutine's owner (or a new one for the
     * call), the function running as that owner.
     */
    static Object lockedPublisher(HaspLock lock, String name, LockOptions options, Object[] arguments,
            LockTemplate.MethodCall call) {
        int last = arguments.length - 1;
        Continuation<?> caller = (Continuation<?>) arguments[last];
        CoroutineLockOwner given = caller.getContext().get(CoroutineLockOwner.Key);
        long holder = given != null ? given.getHolderId() : LockOwner.newHolderId();
        Object[] own = arguments.clone();
        // The framework runs the function as a new coroutine in this context: an owner not yet in a coroutine
        // keeps its id there (one already in a coroutine would give the new coroutine an id of its own), and the
        // end tells when that coroutine has stopped, which a cancelled call's release waits for.
        CoroutineEnd end = new CoroutineEnd();
        own[last] = new OwnedContinuation<>(caller.getContext().plus(CoroutineLockOwner.Key.of(holder)).plus(end));
        return ReactiveCalls.lockedAs(holder, lock, name, options, () -> call.invoke(own), end::afterEnd);
    }

    /**
     * What a skipped call returns: {@code Unit} for a function of no value, else null (a function that may be
     * skipped declares a nullable type).
     */
    static Object skippedValue(Method method) {
        return LockOptions.suspendResultType(method) == Unit.class ? Unit.INSTANCE : null;
    }

    /**
     * The context the function runs in, in the form of a continuation: the framework reads its context and awaits the
     * result on the caller's own continuation, so nothing resumes this one.
     */
    private record OwnedContinuation<T>(CoroutineContext context) implements Continuation<T> {

        @Override
        public CoroutineContext getContext() {
            return context;
        }

        @Override
        public void resumeWith(Object result) {
            throw new IllegalStateException("a @Locked suspend function's framework resumed the continuation that only"
                    + " carries its context; it resumes the caller's own");
        }
    }
}
