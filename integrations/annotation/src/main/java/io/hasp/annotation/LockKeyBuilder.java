package io.hasp.annotation;

import java.lang.reflect.Method;
import java.util.List;

/**
 * Names the lock a call of a {@link Locked} method takes, from the annotation and the call's
 * arguments. The default, {@link #ANNOTATED}, joins the prefix, the value and the
 * {@link LockKey} arguments; write one for keys made of an argument's fields, and build its
 * parts with {@link LockNames}.
 */
@FunctionalInterface
public interface LockKeyBuilder {

    /**
     * {@code prefix:value:<each @LockKey argument>}, with the arguments' texts from
     * {@link LockNames#text(Object)}.
     */
    LockKeyBuilder ANNOTATED = (method, locked, args) -> {
        List<Object> parts = LockNames.keyArguments(method, args);
        try {
            return LockNames.join(locked.prefix(), locked.value(), parts.toArray());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(LockNames.describe(method) + ": " + e.getMessage(), e);
        }
    };

    /**
     * The lock's name for one call.
     *
     * @param method the annotated method
     * @param locked its annotation
     * @param args the call's arguments (an empty array for none)
     * @return the lock's name, not empty
     * @throws IllegalArgumentException when the arguments cannot name a lock
     */
    String lockName(Method method, Locked locked, Object[] args);
}
