package io.hasp.spring;

import io.hasp.annotation.LockKeyBuilder;
import io.hasp.annotation.LockNames;
import io.hasp.annotation.Locked;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.Expression;
import org.springframework.expression.ExpressionException;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/**
 * Names locks from {@link Locked#key()} in SpEL over the method's arguments ({@code #order.id},
 * {@code #p0}; names need the code compiled with {@code -parameters}, as Spring Boot's build
 * does), followed by the {@link io.hasp.annotation.LockKey} arguments:
 * {@code prefix:value:<key>:<@LockKey args>}. The key's value must have a stable text
 * ({@link LockNames#text}). Parsed expressions are cached. Thread-safe.
 */
public final class SpelLockKeyBuilder implements LockKeyBuilder {

    private final SpelExpressionParser parser = new SpelExpressionParser();
    private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();
    private final ConcurrentMap<String, Expression> expressions = new ConcurrentHashMap<>();

    @Override
    public String lockName(Method method, Locked locked, Object[] args) {
        List<Object> parts = new ArrayList<>(2);
        if (!locked.key().isEmpty()) {
            Object key;
            try {
                key = expression(locked.key()).getValue(new MethodBasedEvaluationContext(null, method, args, parameterNames));
            } catch (ExpressionException e) {
                throw new IllegalArgumentException(LockNames.describe(method) + ": @Locked key \"" + locked.key()
                        + "\" failed: " + e.getMessage(), e);
            }
            if (key == null) {
                throw new IllegalArgumentException(LockNames.describe(method) + ": @Locked key \"" + locked.key()
                        + "\" is null for this call (expected: a value with a stable text)");
            }
            parts.add(key);
        }
        parts.addAll(LockNames.keyArguments(method, args));
        try {
            return LockNames.join(locked.prefix(), locked.value(), parts.toArray());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(LockNames.describe(method) + ": " + e.getMessage(), e);
        }
    }

    /**
     * Parses {@code key} (once).
     *
     * @throws org.springframework.expression.ParseException when it is not valid SpEL
     */
    Expression expression(String key) {
        return expressions.computeIfAbsent(key, parser::parseExpression);
    }
}
