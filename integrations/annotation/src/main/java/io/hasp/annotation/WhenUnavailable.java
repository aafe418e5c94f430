package io.hasp.annotation;

/** What a call does when its lock could not be had within its attempts. */
public enum WhenUnavailable {

    /** Throw {@link LockUnavailableException}, naming the lock and what was tried. The default. */
    THROW,

    /**
     * Skip the call: the body does not run and the caller gets {@code null} (for a method that
     * returns a primitive, its zero: {@code 0}, {@code false}). For work that another instance
     * is doing anyway, such as a scheduled job.
     */
    SKIP;

    /**
     * What a skipped call of a method returning {@code returnType} gives its caller: {@code null},
     * or the zero of a primitive ({@code 0}, {@code false}, {@code '\0'}).
     */
    public static Object skippedValue(Class<?> returnType) {
        if (!returnType.isPrimitive() || returnType == void.class) {
            return null;
        }
        if (returnType == boolean.class) {
            return false;
        }
        if (returnType == char.class) {
            return '\0';
        }
        if (returnType == long.class) {
            return 0L;
        }
        if (returnType == float.class) {
            return 0f;
        }
        if (returnType == double.class) {
            return 0d;
        }
        if (returnType == byte.class) {
            return (byte) 0;
        }
        if (returnType == short.class) {
            return (short) 0;
        }
        return 0;
    }
}
