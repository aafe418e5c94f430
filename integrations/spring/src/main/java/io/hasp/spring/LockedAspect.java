package io.hasp.spring;

import io.hasp.annotation.LockKeyBuilder;
import io.hasp.annotation.LockOptions;
import io.hasp.annotation.LockTemplate;
import io.hasp.annotation.Locked;
import java.lang.reflect.Method;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.annotation.Around;
import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.reflect.MethodSignature;
import org.springframework.aop.support.AopUtils;
import org.springframework.util.ClassUtils;

/**
 * Runs each bean method annotated {@link Locked} (on the bean's class, as Spring AOP sees
 * annotations) through a {@link LockTemplate}: the method's value comes back and its exceptions
 * go out unchanged; a skipped call returns {@code null} or a primitive's zero. A method that returns a
 * {@code CompletableFuture}, {@code CompletionStage}, {@code Mono} or {@code Flux}, or a Kotlin
 * {@code suspend} function, holds its lock until that work ends ({@link LockTemplate#executeLockedCall}).
 * Where Spring runs suspend functions as {@code Mono}s (kotlinx-coroutines-reactor present), the lock of
 * one is taken as {@link LockTemplate#executeLockedSuspendingAsMono} says, which needs hasp-reactor and
 * hasp-kotlin; else as for a proxy, which needs hasp-kotlin. Thread-safe.
 */
@Aspect
public class LockedAspect {

    /**
     * Whether Spring AOP turns a call of a Kotlin suspend function into a {@code Mono} before the advice sees
     * it, and back after: it does when kotlinx-coroutines-reactor is present (Spring's own test, with its loader).
     */
    static final boolean COROUTINES_BRIDGED =
            ClassUtils.isPresent("kotlinx.coroutines.reactor.MonoKt", AopUtils.class.getClassLoader());

    private final LockTemplate template;
    private final LockKeyBuilder names;
    private final ConcurrentMap<Method, LockOptions> options = new ConcurrentHashMap<>();

    /**
     * @param template takes the locks
     * @param names names the lock of each call
     */
    public LockedAspect(LockTemplate template, LockKeyBuilder names) {
        this.template = Objects.requireNonNull(template, "template");
        this.names = Objects.requireNonNull(names, "names");
    }

    /**
     * Locks around a call of an annotated method.
     *
     * @param call the call
     * @param locked the method's annotation
     * @return the method's value
     * @throws Throwable what the method threw, unchanged, or {@link io.hasp.annotation.LockUnavailableException}
     */
    @Around("@annotation(locked)")
    public Object lockAround(ProceedingJoinPoint call, Locked locked) throws Throwable {
        Method method = ((MethodSignature) call.getSignature()).getMethod();
        LockOptions lockOptions = options.computeIfAbsent(method, m -> LockOptions.of(m, locked));
        Object[] arguments = call.getArgs();
        String name = names.lockName(method, locked, arguments);
        if (COROUTINES_BRIDGED && LockTemplate.isSuspending(method)) {
            return template.executeLockedSuspendingAsMono(method, arguments, name, lockOptions, given -> proceed(call, given));
        }
        return template.executeLockedCall(method, arguments, name, lockOptions, given -> proceed(call, given));
    }

    private static Object proceed(ProceedingJoinPoint call, Object[] arguments) throws Exception {
        try {
            return call.proceed(arguments);
        } catch (Exception | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new UndeclaredThrowableException(t);
        }
    }
}
