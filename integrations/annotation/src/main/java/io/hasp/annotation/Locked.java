package io.hasp.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.concurrent.TimeUnit;

/**
 * Runs the method under a hasp lock. The lock's name is {@link #prefix()} (when not empty),
 * {@link #value()} and the method's {@link LockKey} arguments, joined by {@code ':'}:
 *
 * <pre>{@code
 * @Locked(prefix = "stock", value = "deduct", leaseTime = -1, retryCount = 5, retryInterval = 50)
 * void deduct(@LockKey long sku, int quantity);      // lock "stock:deduct:<sku>"
 * }</pre>
 *
 * <p>One attempt is a {@code tryLock(waitTime, leaseTime)}; after a failed attempt the call
 * pauses for a random time between {@link #retryInterval()} and twice it (so that waiting callers
 * do not wake in lockstep) and tries again, {@link #retryCount()} times at most, or until it gets
 * the lock when {@code retryCount} is 0. The method's return value comes back and its exceptions
 * go out unchanged; the lock is released after the method returns or throws (after the
 * transaction completes, where a framework integration sees one). When the lock cannot be had,
 * the call throws {@link LockUnavailableException} or, with {@link WhenUnavailable#SKIP}, does not
 * run.
 *
 * <p><b>Asynchronous methods.</b> A method that returns a {@code CompletableFuture} or
 * {@code CompletionStage} holds the lock until the work it returned completes, fails or is
 * cancelled, not until it returns: the caller gets a future of that work's outcome, completed once
 * the lock is given back, and cancelling it cancels the work. Each such call is an owner of its
 * own, so two calls from one thread exclude each other. The calling thread waits for the lock;
 * when the lock cannot be had the future fails with {@link LockUnavailableException} (or, with
 * {@link WhenUnavailable#SKIP}, completes with {@code null}). A method that returns Reactor's
 * {@code Mono} or {@code Flux} takes the lock per subscription and holds it until the publisher ends
 * (see {@link LockTemplate#executeLockedCall}). A Kotlin {@code suspend} function holds the lock until
 * it returns, throws or is cancelled, whatever threads it resumes on; the lock is taken without
 * blocking by the calling coroutine's owner (hasp-kotlin's {@code CoroutineLockOwner}, or a new one
 * for the call), so a locked function called from inside another, or a {@code withLock} of the same
 * lock, re-enters it, while other coroutines wait. It needs hasp-kotlin on the class path; a skipped
 * call returns {@code null} (declare a nullable type) or {@code Unit}. Work the lock cannot wait for is
 * refused when the method is checked: other {@code CompletionStage} types, a plain {@code Future} and
 * other publishers. See {@link LockTemplate#executeLockedAsync}.
 *
 * <p>Settings are checked when a proxy is created ({@link LockedProxies}) or, in a framework, on
 * the first call; a bad one fails with a message naming the method and the setting.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Locked {

    /** The lock's name, after the prefix and before the key parts; not empty. */
    String value();

    /** Put before {@link #value()} with a {@code ':'} when not empty, e.g. the application's name. */
    String prefix() default "";

    /**
     * An expression over the method's arguments whose value is the first key part, evaluated by
     * a framework integration: in Spring, SpEL such as {@code "#order.id"}. Empty (default): the
     * key parts are the {@link LockKey} arguments only. {@link LockedProxies} has no expression
     * language and refuses a method that sets it.
     */
    String key() default "";

    /** Which lock: reentrant (default), or the read or write lock of a read/write lock. */
    LockType type() default LockType.REENTRANT;

    /** How long one attempt waits for the lock, in {@link #unit()}; 0 (default): one try, no wait. */
    long waitTime() default 0;

    /** The lease, in {@link #unit()}; -1 (default): the watchdog renews it until the method ends. */
    long leaseTime() default -1;

    /** How many times a failed attempt is tried again; 0: until the lock is had. Default 3. */
    int retryCount() default 3;

    /** The shortest pause before trying again, in {@link #unit()}; the pause is random, up to twice it. Default 100 ms. */
    long retryInterval() default 100;

    /** The unit of {@link #waitTime()}, {@link #leaseTime()} and {@link #retryInterval()}. Default milliseconds. */
    TimeUnit unit() default TimeUnit.MILLISECONDS;

    /** What the call does when the lock cannot be had. Default: throw {@link LockUnavailableException}. */
    WhenUnavailable whenUnavailable() default WhenUnavailable.THROW;
}
