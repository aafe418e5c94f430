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

/**
 * Runs each bean method annotated {@link Locked} (on the bean's class, as Spring AOP sees
 * annotations) through a {@link LockTemplate}: the method's value comes back and its exceptions
 * go out unchanged; a skipped call returns {@code null} or a primitive's zero. A method that returns a
 * {@code CompletableFuture} or {@code CompletionStage} holds its lock until that work ends
 * ({@link LockTemplate#executeLockedCall}). Thread-safe.
 */
@Aspect
public class LockedAspect {

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
        String name = names.lockName(method, locked, call.getArgs());
        return template.executeLockedCall(method, name, lockOptions, () -> proceed(call));
    }

    private static Object proceed(ProceedingJoinPoint call) throws Exception {
        try {
            return call.proceed();
        } catch (Exception | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new UndeclaredThrowableException(t);
        }
    }
}
