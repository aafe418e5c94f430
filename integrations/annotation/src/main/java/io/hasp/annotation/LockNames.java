package io.hasp.annotation;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.UUID;

/**
 * Lock names built from a prefix, a name and key parts joined by {@code ':'}, and the text of a key
 * part. A part's text must be the same in every JVM, so that every instance of an application
 * names the same lock: {@link #text(Object)} refuses a value whose text would be
 * {@code Object.toString()} (a per-JVM identity hash) and {@code null}. Never a bare
 * {@code hashCode()}: two different keys may share one. Stateless.
 */
public final class LockNames {

    private LockNames() {
    }

    /**
     * {@code prefix:value:part1:part2...}, without the prefix when it is empty.
     *
     * @throws IllegalArgumentException when {@code value} is empty, or a part has no stable text
     */
    public static String join(String prefix, String value, Object... parts) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("value: " + (value == null ? "null" : "\"\"") + " (expected: a lock name)");
        }
        StringJoiner name = new StringJoiner(":");
        if (prefix != null && !prefix.isEmpty()) {
            name.add(prefix);
        }
        name.add(value);
        for (Object part : parts) {
            name.add(text(part));
        }
        return name.toString();
    }

    /**
     * The text of a key part: strings, numbers, booleans, characters, enums (their name), UUIDs,
     * and any value whose class declares its own {@code toString()} (records do).
     *
     * @throws IllegalArgumentException when {@code value} is null or its class has only
     *     {@code Object.toString()}
     */
    public static String text(Object value) {
        if (value == null) {
            throw new IllegalArgumentException("key part: null (expected: a value with a stable text)");
        }
        if (value instanceof Enum<?> e) {
            return e.name();
        }
        if (value instanceof CharSequence || value instanceof Number || value instanceof Boolean
                || value instanceof Character || value instanceof UUID || ownToString(value.getClass())) {
            return value.toString();
        }
        throw new IllegalArgumentException("key part of type " + value.getClass().getName()
                + ": it has no toString() of its own, and Object's is an identity hash that differs in every JVM"
                + " (expected: a type with a stable text, e.g. a record, or a LockKeyBuilder that picks its fields)");
    }

    private static boolean ownToString(Class<?> type) {
        try {
            Method toString = type.getMethod("toString");
            return toString.getDeclaringClass() != Object.class;
        } catch (NoSuchMethodException e) {
            return false;   // every class has one; unreachable
        }
    }

    /**
     * The arguments of a call marked {@link LockKey}, in parameter order.
     *
     * @throws IllegalArgumentException naming the method, when one of them is null
     */
    public static List<Object> keyArguments(Method method, Object[] args) {
        Annotation[][] annotations = method.getParameterAnnotations();
        List<Object> parts = new ArrayList<>(2);
        for (int i = 0; i < annotations.length; i++) {
            for (Annotation a : annotations[i]) {
                if (a instanceof LockKey) {
                    if (args[i] == null) {
                        throw new IllegalArgumentException(describe(method) + ": @LockKey argument " + i
                                + " is null (expected: a value with a stable text)");
                    }
                    parts.add(args[i]);
                }
            }
        }
        return parts;
    }

    /** {@code Type.method(ParamType, ...)}, for messages. */
    public static String describe(Method method) {
        StringJoiner params = new StringJoiner(", ", "(", ")");
        for (Class<?> p : method.getParameterTypes()) {
            params.add(p.getSimpleName());
        }
        return method.getDeclaringClass().getSimpleName() + "." + method.getName() + params;
    }
}
