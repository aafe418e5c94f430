package io.hasp.annotation;

import io.hasp.HaspClient;
import io.hasp.lock.Blocking;
import io.hasp.lock.HaspLock;
import io.hasp.lock.LockOwner;
import io.hasp.lock.rw.HaspReadWriteLocks;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs blocks of code under hasp locks with {@link LockOptions}: the attempts, the jittered pause
 * between them, the release, and what happens when the lock cannot be had. What
 * {@link LockedProxies} and framework integrations call for each {@link Locked} method; usable
 * directly:
 *
 * <pre>{@code
 * LockTemplate locks = new LockTemplate(client);
 * Receipt receipt = locks.executeLocked("stock:deduct:" + sku, LockOptions.defaults(), () -> deduct(sku, 1));
 * }</pre>
 *
 * <p>The lock is held by the calling thread. The block's value comes back and its exceptions go
 * out unchanged. The lock is given back when the block ends, or later where the
 * {@link DeferredRelease} takes it (after a transaction). A release that fails because the hold
 * had already ended (its lease ran out during the block: the block's work was not protected to
 * its end) throws {@link io.hasp.lock.HoldLostException} after a block that returned, and is
 * added as suppressed to the exception of a block that threw. Thread-safe.
 */
public final class LockTemplate {

    private static final Logger log = LoggerFactory.getLogger(LockTemplate.class);
    private static final String MONO = "reactor.core.publisher.Mono";

    /** How a call pauses between attempts; replaced in tests to observe the pauses. */
    @FunctionalInterface
    interface Pause {
        void sleep(long nanos) throws InterruptedException;
    }

    private final HaspClient client;
    private final DeferredRelease deferral;
    private final Pause pause;

    /** Locks of {@code client}, given back as each block ends. */
    public LockTemplate(HaspClient client) {
        this(client, DeferredRelease.NEVER);
    }

    /** Locks of {@code client}, given back as each block ends unless {@code deferral} takes the release. */
    public LockTemplate(HaspClient client, DeferredRelease deferral) {
        this(client, deferral, TimeUnit.NANOSECONDS::sleep);
    }

    LockTemplate(HaspClient client, DeferredRelease deferral, Pause pause) {
        this.client = Objects.requireNonNull(client, "client");
        // Loads the read/write locks' scripts here, on the application's thread, not at the first READ or
        // WRITE call, which may come on an event-loop thread (a reactive @Locked method).
        HaspReadWriteLocks.of(client);
        this.deferral = Objects.requireNonNull(deferral, "deferral");
        this.pause = pause;
    }

    /** @return the client whose locks this template takes */
    public HaspClient client() {
        return client;
    }

    /**
     * Runs {@code block} under lock {@code name}.
     *
     * @param name the lock's name, not empty
     * @param options which lock, and how it is taken
     * @param block the work
     * @return what {@code block} returned; {@code null} when the lock could not be had and
     *     {@code options} say {@link WhenUnavailable#SKIP} (the block did not run)
     * @throws LockUnavailableException when the lock could not be had within the attempts
     *     ({@link WhenUnavailable#THROW}) or the waiting was interrupted
     * @throws Exception whatever {@code block} threw, unchanged
     */
    public <T> T executeLocked(String name, LockOptions options, Callable<T> block) throws Exception {
        checkName(name);
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(block, "block");
        HaspLock lock = lock(name, options.type());
        if (!acquire(() -> options.leaseTime() == null
                ? lock.tryLock(options.waitTime())
                : lock.tryLock(options.waitTime(), options.leaseTime()), name, options)) {
            return null;
        }
        LockOwner owner = lock.currentOwner();
        T result;
        try {
            result = block.call();
        } catch (Exception | Error failure) {
            release(lock, owner, failure);
            throw failure;
        }
        release(lock, owner, null);
        return result;
    }

    /** A call of a method with the arguments given: what a proxy or an aspect goes on with. */
    @FunctionalInterface
    public interface MethodCall {
        /**
         * Calls the method.
         *
         * @param arguments the arguments, the caller's or, for a Kotlin {@code suspend} function, the caller's
         *     with another continuation last
         * @return what the method returned
         * @throws Exception what the method threw, unchanged
         */
        Object invoke(Object[] arguments) throws Exception;
    }

    /**
     * Runs a call of {@code method} under lock {@code name} for as long as its work lasts: until the
     * stage it returns ends when it returns a {@code CompletableFuture} or {@code CompletionStage}
     * ({@link #executeLockedAsync}); for each subscription, from before the publisher is subscribed until
     * it completes, fails or is cancelled, when it returns Reactor's {@code Mono} or {@code Flux} (the lock
     * is then taken without blocking, each subscription an owner of its own, hasp-reactor on the class
     * path); until it returns, throws or is cancelled when it is a Kotlin {@code suspend} function (the lock
     * is taken without blocking by the calling coroutine's owner, or a new one for the call, and the function
     * runs as that owner: hasp-kotlin's {@code CoroutineLockOwner}; hasp-kotlin on the class path); else until
     * it returns ({@link #executeLocked}). What {@link LockedProxies} and framework integrations call for each
     * {@link Locked} method.
     *
     * @param method the method called
     * @param arguments the call's arguments
     * @param name the lock's name, not empty
     * @param options which lock, and how it is taken
     * @param call calls the method with the arguments it is given
     * @return the call's value; for a skipped call what {@code method} returns then: {@code null}, a
     *     primitive's zero, a future of {@code null}, an empty publisher, or {@code Unit} for a suspend
     *     function of no value
     * @throws Exception as {@link #executeLocked} and {@link #executeLockedAsync} say
     */
    @SuppressWarnings("unchecked")
    public Object executeLockedCall(Method method, Object[] arguments, String name, LockOptions options, MethodCall call)
            throws Exception {
        Objects.requireNonNull(arguments, "arguments");
        Objects.requireNonNull(call, "call");
        if (returnsStage(method)) {
            return executeLockedAsync(name, options, () -> (CompletionStage<Object>) call.invoke(arguments));
        }
        Class<?> returned = method.getReturnType();
        if (returnsPublisher(returned)) {
            checkName(name);
            Objects.requireNonNull(options, "options");
            return ReactiveCalls.locked(returned.getName().equals(MONO), lock(name, options.type()), name, options,
                    () -> call.invoke(arguments));
        }
        if (isSuspending(method)) {
            checkName(name);
            Objects.requireNonNull(options, "options");
            return SuspendCalls.locked(method, lock(name, options.type()), name, options, arguments, call);
        }
        Object result = executeLocked(name, options, () -> call.invoke(arguments));
        return result == null ? WhenUnavailable.skippedValue(method.getReturnType()) : result;
    }

    /**
     * Runs a call of the Kotlin {@code suspend} function {@code method} under lock {@code name}, for a
     * framework that turns such a call into a {@code Mono} before its interceptors see it (Spring AOP does
     * with kotlinx-coroutines-reactor present): {@code call} returns that publisher, and so does this
     * method. The lock is taken per subscription without blocking, by the calling coroutine's owner (read
     * from the continuation, the last argument) or a new one for the call; the function runs as that owner,
     * so a lock it takes again is re-entered; the lock goes back when the publisher completes, fails or is
     * cancelled. Needs hasp-kotlin and hasp-reactor on the class path.
     *
     * @return the publisher of the call's value; empty for a skipped call
     * @throws IllegalArgumentException when {@code method} is not a suspend function
     */
    public Object executeLockedSuspendingAsMono(Method method, Object[] arguments, String name, LockOptions options,
            MethodCall call) {
        if (!isSuspending(method)) {
            throw new IllegalArgumentException("method: " + LockNames.describe(method) + " (expected: a Kotlin suspend function)");
        }
        checkName(name);
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(arguments, "arguments");
        Objects.requireNonNull(call, "call");
        return SuspendCalls.lockedPublisher(lock(name, options.type()), name, options, arguments, call);
    }

    /** Whether {@code method} is a compiled Kotlin suspend function: its last parameter is a continuation. */
    public static boolean isSuspending(Method method) {
        Class<?>[] parameters = method.getParameterTypes();
        return parameters.length > 0 && parameters[parameters.length - 1].getName().equals("kotlin.coroutines.Continuation");
    }

    private static void checkName(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("name: " + (name == null ? "null" : "\"\"") + " (expected: a lock name)");
        }
    }

    /**
     * Whether {@code returned} is Reactor's Mono or Flux, told by name: this class must not load a Reactor type
     * (nor {@code ReactiveCalls}, which does) for an application without Reactor.
     */
    static boolean returnsPublisher(Class<?> returned) {
        return returned.getName().equals(MONO) || returned.getName().equals("reactor.core.publisher.Flux");
    }

    /** Whether {@code method}'s work ends with a stage it returns: it returns CompletableFuture or CompletionStage. */
    static boolean returnsStage(Method method) {
        Class<?> returned = method.getReturnType();
        return returned == CompletableFuture.class || returned == CompletionStage.class;
    }

    /**
     * Runs {@code call}, whose work goes on after it returns, under lock {@code name} until that work
     * ends: the lock is taken before the call and given back when the stage it returned completes,
     * fails or is cancelled, not when it returns. Each call is an owner of its own
     * ({@link LockOwner#newHolderId()}), so two calls from one thread exclude each other as calls from
     * two threads do. The calling thread waits for the lock as {@link #executeLocked} does; code that
     * must not wait on its thread takes hasp-reactor's or hasp-kotlin's {@code withLock} instead.
     * A {@link DeferredRelease} does not apply: the release follows the work. Because each call is a new
     * owner, such a call made while the calling thread holds the same lock (a synchronous {@code @Locked}
     * method calling an asynchronous one on the same lock) waits for that thread's hold, which it cannot
     * get until the outer call ends: its attempts run out (or, with endless attempts, it never returns).
     *
     * @param name the lock's name, not empty
     * @param options which lock, and how it is taken
     * @param call starts the work
     * @return a future of the stage's outcome, completed once the lock is given back; null when
     *     {@code call} returned null. It fails with {@link LockUnavailableException} (and {@code call}
     *     does not run) when the lock could not be had and {@code options} say {@link WhenUnavailable#THROW},
     *     and completes with null when they say {@link WhenUnavailable#SKIP}. A release that fails fails it,
     *     or is added as suppressed to the stage's failure. Cancelling it cancels the stage (when the stage
     *     is a future) and the lock goes back when the stage ends.
     * @throws Exception whatever {@code call} threw, unchanged (the lock is given back first)
     * @throws IllegalStateException when called on one of the client's event-loop or timer threads, where
     *     waiting for the lock would stall the replies it waits for
     */
    public <T> CompletableFuture<T> executeLockedAsync(String name, LockOptions options,
            Callable<? extends CompletionStage<T>> call) throws Exception {
        checkName(name);
        Blocking.checkAllowed("a @Locked call that returns a CompletionStage (its caller waits for the lock)");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(call, "call");
        HaspLock lock = lock(name, options.type());
        LockOwner owner = lock.owner(LockOwner.newHolderId());
        try {
            if (!acquire(() -> awaitAttempt(lock, owner, options), name, options)) {
                return CompletableFuture.completedFuture(null);
            }
        } catch (LockUnavailableException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletionStage<T> stage;
        try {
            stage = call.call();
        } catch (Exception | Error failure) {
            releaseNow(lock, owner, failure);
            throw failure;
        }
        if (stage == null) {
            releaseNow(lock, owner, null);
            return null;
        }
        return AsyncHold.releasedAfter(stage, () -> lock.unlockAsync(owner));
    }

    /** One attempt of {@code owner}, waited for on this thread; an interrupted wait leaves nothing held. */
    private static boolean awaitAttempt(HaspLock lock, LockOwner owner, LockOptions options) throws InterruptedException {
        CompletableFuture<Boolean> attempt = options.leaseTime() == null
                ? lock.tryLockAsync(options.waitTime(), owner)
                : lock.tryLockAsync(options.waitTime(), options.leaseTime(), owner);
        try {
            return attempt.get();
        } catch (InterruptedException e) {
            if (!attempt.cancel(false) && !attempt.isCompletedExceptionally() && attempt.join()) {
                lock.unlockAsync(owner);
            }
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(cause);
        }
    }

    /** Gives {@code owner}'s hold back now, waiting for the answer; a failure joins {@code failure} or is thrown. */
    private static void releaseNow(HaspLock lock, LockOwner owner, Throwable failure) {
        try {
            lock.unlockAsync(owner).join();
        } catch (RuntimeException e) {
            RuntimeException cause = e instanceof CompletionException && e.getCause() instanceof RuntimeException r ? r : e;
            if (failure == null) {
                throw cause;
            }
            failure.addSuppressed(cause);
        }
    }

    private HaspLock lock(String name, LockType type) {
        return switch (type) {
            case REENTRANT -> client.getLock(name);
            case READ -> HaspReadWriteLocks.get(client, name).readLock();
            case WRITE -> HaspReadWriteLocks.get(client, name).writeLock();
            case FAIR -> client.getFairLock(name);
        };
    }

    /** One attempt at the lock. */
    @FunctionalInterface
    private interface Attempt {
        boolean tryOnce() throws InterruptedException;
    }

    /** Attempts until the lock is had or the attempts run out; false when skipping. */
    private boolean acquire(Attempt attempt, String name, LockOptions options) {
        long start = System.nanoTime();
        int attempts = 0;
        try {
            for (;;) {
                attempts++;
                if (attempt.tryOnce()) {
                    return true;
                }
                if (options.retryCount() != 0 && attempts > options.retryCount()) {
                    break;
                }
                pause.sleep(jitter(options.retryInterval()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockUnavailableException(name, attempts, since(start), options, e);
        }
        if (options.whenUnavailable() == WhenUnavailable.SKIP) {
            log.debug("lock {} not acquired after {} attempts: call skipped", name, attempts);
            return false;
        }
        throw new LockUnavailableException(name, attempts, since(start), options, null);
    }

    /** Whether the {@link DeferredRelease} took the release to run later. */
    private boolean deferred(HaspLock lock, LockOwner owner) {
        try {
            return deferral.defer(() -> lock.unlockAsync(owner).whenComplete((ok, e) -> {
                if (e != null) {
                    log.error("lock {}: the release after the transaction failed", lock.getName(), e);
                }
            }));
        } catch (RuntimeException e) {
            log.warn("lock {}: deferring the release failed, releasing now", lock.getName(), e);
            return false;
        }
    }

    /** A pause between {@code interval} and twice it, uniformly. */
    static long jitter(Duration interval) {
        long nanos = interval.toNanos();
        return nanos + ThreadLocalRandom.current().nextLong(nanos + 1);
    }

    private static Duration since(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    private void release(HaspLock lock, LockOwner owner, Throwable failure) {
        if (deferral != DeferredRelease.NEVER && deferred(lock, owner)) {
            return;
        }
        try {
            lock.unlock();
        } catch (RuntimeException e) {
            if (failure == null) {
                throw e;
            }
            failure.addSuppressed(e);
        }
    }
}
