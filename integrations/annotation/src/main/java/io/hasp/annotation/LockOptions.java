package io.hasp.annotation;

import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;

/**
 * How a call takes its lock: which lock, how long one attempt waits, the lease (or the
 * watchdog), how often a failed attempt is tried again and after what pause, and what happens
 * when the lock cannot be had. The programmatic twin of {@link Locked}. Immutable; build with
 * {@link #builder()}.
 *
 * <p>Defaults: reentrant lock, one try per attempt, the watchdog, 3 retries after 100 to 200 ms,
 * {@link WhenUnavailable#THROW}.
 */
public final class LockOptions {

    private static final LockOptions DEFAULTS = builder().build();
    private static final String KOTLIN_FLOW = "kotlinx.coroutines.flow.Flow";

    private final LockType type;
    private final Duration waitTime;
    private final Duration leaseTime;   // null: the watchdog
    private final int retryCount;
    private final Duration retryInterval;
    private final WhenUnavailable whenUnavailable;

    private LockOptions(Builder b) {
        this.type = b.type;
        this.waitTime = b.waitTime;
        this.leaseTime = b.leaseTime;
        this.retryCount = b.retryCount;
        this.retryInterval = b.retryInterval;
        this.whenUnavailable = b.whenUnavailable;
    }

    /** @return the defaults */
    public static LockOptions defaults() {
        return DEFAULTS;
    }

    /** @return a builder starting from the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The options an annotation states.
     *
     * @throws IllegalArgumentException naming the setting, when one is out of range
     */
    public static LockOptions of(Locked locked) {
        Objects.requireNonNull(locked, "locked");
        Builder b = builder().type(locked.type()).whenUnavailable(locked.whenUnavailable()).retryCount(locked.retryCount());
        if (locked.waitTime() < 0) {
            throw new IllegalArgumentException("waitTime: " + locked.waitTime() + " (expected: >= 0)");
        }
        b.waitTime(Duration.of(locked.waitTime(), locked.unit().toChronoUnit()));
        if (locked.leaseTime() != -1) {
            if (locked.leaseTime() <= 0) {
                throw new IllegalArgumentException("leaseTime: " + locked.leaseTime() + " (expected: > 0, or -1 for the watchdog)");
            }
            b.leaseTime(Duration.of(locked.leaseTime(), locked.unit().toChronoUnit()));
        }
        return b.retryInterval(Duration.of(locked.retryInterval(), locked.unit().toChronoUnit())).build();
    }

    /**
     * The options of an annotated method, checked as {@link #of(Locked)} does, and its name.
     *
     * @throws IllegalArgumentException when the name is empty or a setting out of range, the
     *     message starting with the method and {@code "@Locked"}, e.g.
     *     {@code "Inventory.deduct(long, int): @Locked retryCount: -1 (...)"}
     */
    public static LockOptions of(Method method, Locked locked) {
        try {
            if (locked.value().isEmpty()) {
                throw new IllegalArgumentException("value: \"\" (expected: a lock name)");
            }
            checkWorkEndsWhereTheLockCanSeeIt(method);
            LockOptions options = of(locked);
            if (options.whenUnavailable() == WhenUnavailable.SKIP && LockTemplate.isSuspending(method)) {
                checkSkippable(method);
            }
            return options;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(LockNames.describe(method) + ": @Locked " + e.getMessage(), e);
        }
    }

    /**
     * Refuses a method whose work goes on after it returns in a form the lock cannot wait for: the lock would
     * be given back while the work still runs. CompletableFuture, CompletionStage, Reactor's Mono and Flux, Kotlin
     * suspend functions (with hasp-kotlin) and plain values are fine.
     */
    private static void checkWorkEndsWhereTheLockCanSeeIt(Method method) {
        Class<?> returned = method.getReturnType();
        boolean suspending = LockTemplate.isSuspending(method);
        if (suspending) {
            returned = suspendResultClass(method);
        }
        if (returned.getName().equals(KOTLIN_FLOW)) {
            throw new IllegalArgumentException("return type: " + KOTLIN_FLOW + " (its collection would outlive the lock;"
                    + " expected: a suspend function of a value, or lock.withLock { } inside the flow)");
        }
        if (suspending) {
            if (outlivesTheCall(returned)) {
                throw new IllegalArgumentException("a suspend function's result type: " + returned.getName()
                        + " (its work would outlive the lock; expected: a suspend function of a value)");
            }
            if (!haspKotlinPresent()) {
                throw new IllegalArgumentException("a Kotlin suspend function, without hasp-kotlin on the class path"
                        + " (expected: io.hasp:hasp-kotlin as a dependency, which locks suspend functions)");
            }
            return;
        }
        if (CompletionStage.class.isAssignableFrom(returned)) {
            if (!LockTemplate.returnsStage(method)) {
                throw new IllegalArgumentException("return type: " + returned.getName() + " (expected: CompletableFuture"
                        + " or CompletionStage, whose end the lock waits for, or a value)");
            }
            return;
        }
        if (LockTemplate.returnsPublisher(returned)) {
            return;
        }
        if (Future.class.isAssignableFrom(returned) || returned == Flow.Publisher.class
                || returned.getName().equals("org.reactivestreams.Publisher")
                || returned.getName().startsWith("reactor.core.publisher.")) {
            throw new IllegalArgumentException("return type: " + returned.getName() + " (its work would outlive the lock;"
                    + " expected: CompletableFuture, CompletionStage, Mono, Flux or a value)");
        }
    }

    /** The class of what the suspend function {@code method} returns in Kotlin; Object when the signature does not say. */
    private static Class<?> suspendResultClass(Method method) {
        Type result = suspendResultType(method);
        if (result instanceof ParameterizedType parameterized) {
            result = parameterized.getRawType();
        }
        return result instanceof Class<?> type ? type : Object.class;
    }

    /** Whether a value of {@code type} stands for work that goes on after it is returned. */
    private static boolean outlivesTheCall(Class<?> type) {
        String name = type.getName();
        return Future.class.isAssignableFrom(type) || CompletionStage.class.isAssignableFrom(type)
                || type == Flow.Publisher.class || name.equals("org.reactivestreams.Publisher")
                || name.startsWith("reactor.core.publisher.") || name.equals("kotlinx.coroutines.Job")
                || name.equals("kotlinx.coroutines.Deferred");
    }

    /**
     * Refuses {@link WhenUnavailable#SKIP} on a suspend function whose Kotlin result is neither nullable nor
     * {@code Unit}: a skipped call returns null, which such a caller cannot take. Told by kotlin-reflect when it is on
     * the class path (Spring's coroutine support brings it); without it the declaration is the application's care.
     */
    private static void checkSkippable(Method method) {
        if (suspendResultType(method) == null || suspendResultClass(method).getName().equals("kotlin.Unit")) {
            return;
        }
        if (Boolean.FALSE.equals(kotlinResultNullable(method))) {
            throw new IllegalArgumentException("whenUnavailable: SKIP on a suspend function whose result is not nullable"
                    + " (a skipped call returns null; expected: a nullable result type, Unit, or THROW)");
        }
    }

    /** Whether kotlin-reflect says {@code method}'s Kotlin result type is nullable; null when it cannot tell. */
    private static Boolean kotlinResultNullable(Method method) {
        try {
            ClassLoader loader = method.getDeclaringClass().getClassLoader();
            Object function = Class.forName("kotlin.reflect.jvm.ReflectJvmMapping", true, loader)
                    .getMethod("getKotlinFunction", Method.class).invoke(null, method);
            if (function == null) {
                return null;
            }
            Object type = Class.forName("kotlin.reflect.KCallable", false, loader).getMethod("getReturnType").invoke(function);
            return (Boolean) Class.forName("kotlin.reflect.KType", false, loader).getMethod("isMarkedNullable").invoke(type);
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return null;
        }
    }

    /**
     * What the compiled suspend function {@code method} returns in Kotlin: its continuation's type argument
     * ({@code Continuation<? super T>}), or null when the signature does not say.
     */
    static Type suspendResultType(Method method) {
        Type[] parameters = method.getGenericParameterTypes();
        if (parameters.length == 0 || !(parameters[parameters.length - 1] instanceof ParameterizedType continuation)) {
            return null;
        }
        Type result = continuation.getActualTypeArguments()[0];
        return result instanceof WildcardType wildcard && wildcard.getLowerBounds().length == 1
                ? wildcard.getLowerBounds()[0]
                : result;
    }

    /** Whether hasp-kotlin, which locked suspend functions need, can be loaded beside hasp-annotation. */
    private static boolean haspKotlinPresent() {
        try {
            Class.forName("io.hasp.kotlin.LockedSuspendCalls", false, LockOptions.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** @return which lock */
    public LockType type() {
        return type;
    }

    /** @return how long one attempt waits; zero: one try */
    public Duration waitTime() {
        return waitTime;
    }

    /** @return the lease, or null for the watchdog */
    public Duration leaseTime() {
        return leaseTime;
    }

    /** @return how many times a failed attempt is tried again; 0: until the lock is had */
    public int retryCount() {
        return retryCount;
    }

    /** @return the shortest pause between attempts (the pause is random, up to twice it) */
    public Duration retryInterval() {
        return retryInterval;
    }

    /** @return what a call does when the lock cannot be had */
    public WhenUnavailable whenUnavailable() {
        return whenUnavailable;
    }

    @Override
    public String toString() {
        return "LockOptions[" + type + ", waitTime " + waitTime.toMillis() + " ms, lease "
                + (leaseTime == null ? "watchdog" : leaseTime.toMillis() + " ms") + ", retryCount " + retryCount
                + (retryCount == 0 ? " (until had)" : "") + ", retryInterval " + retryInterval.toMillis() + " ms, "
                + whenUnavailable + "]";
    }

    /** Builds {@link LockOptions}; each setter checks its value. Not thread-safe. */
    public static final class Builder {
        private LockType type = LockType.REENTRANT;
        private Duration waitTime = Duration.ZERO;
        private Duration leaseTime;
        private int retryCount = 3;
        private Duration retryInterval = Duration.ofMillis(100);
        private WhenUnavailable whenUnavailable = WhenUnavailable.THROW;

        private Builder() {
        }

        /** Which lock; default {@link LockType#REENTRANT}. */
        public Builder type(LockType type) {
            this.type = Objects.requireNonNull(type, "type");
            return this;
        }

        /**
         * How long one attempt waits for the lock; default zero (one try).
         *
         * @throws IllegalArgumentException when null or negative
         */
        public Builder waitTime(Duration waitTime) {
            if (waitTime == null || waitTime.isNegative()) {
                throw new IllegalArgumentException("waitTime: " + waitTime + " (expected: >= 0)");
            }
            this.waitTime = waitTime;
            return this;
        }

        /**
         * A fixed lease; by default the watchdog renews the lease until the call ends.
         *
         * @throws IllegalArgumentException when null, zero or negative
         */
        public Builder leaseTime(Duration leaseTime) {
            if (leaseTime == null || leaseTime.isNegative() || leaseTime.isZero()) {
                throw new IllegalArgumentException("leaseTime: " + leaseTime + " (expected: > 0)");
            }
            this.leaseTime = leaseTime;
            return this;
        }

        /** The watchdog renews the lease until the call ends (the default). */
        public Builder watchdog() {
            this.leaseTime = null;
            return this;
        }

        /**
         * How many times a failed attempt is tried again; 0 tries until the lock is had. Default 3.
         *
         * @throws IllegalArgumentException when negative
         */
        public Builder retryCount(int retryCount) {
            if (retryCount < 0) {
                throw new IllegalArgumentException("retryCount: " + retryCount
                        + " (expected: >= 0, where 0 tries until the lock is had)");
            }
            this.retryCount = retryCount;
            return this;
        }

        /**
         * The shortest pause before trying again; each pause is random between it and twice it.
         * Default 100 ms.
         *
         * @throws IllegalArgumentException when null, zero or negative
         */
        public Builder retryInterval(Duration retryInterval) {
            if (retryInterval == null || retryInterval.isNegative() || retryInterval.isZero()) {
                throw new IllegalArgumentException("retryInterval: " + retryInterval + " (expected: > 0)");
            }
            this.retryInterval = retryInterval;
            return this;
        }

        /** What a call does when the lock cannot be had; default {@link WhenUnavailable#THROW}. */
        public Builder whenUnavailable(WhenUnavailable whenUnavailable) {
            this.whenUnavailable = Objects.requireNonNull(whenUnavailable, "whenUnavailable");
            return this;
        }

        /** @return the options */
        public LockOptions build() {
            return new LockOptions(this);
        }
    }
}
