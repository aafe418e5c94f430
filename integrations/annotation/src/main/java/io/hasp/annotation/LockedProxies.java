package io.hasp.annotation;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Applies {@link Locked} to an implementation of an interface, without a framework: the proxy
 * runs each annotated method (annotated on the interface or on the implementation) through a
 * {@link LockTemplate}, and every other method straight on the target.
 *
 * <pre>{@code
 * Inventory inventory = LockedProxies.create(Inventory.class, new DbInventory(db), new LockTemplate(client));
 * inventory.deduct(42, 1);   // under lock "stock:deduct:42"
 * }</pre>
 *
 * <p>Every annotated method's settings are checked here, so a bad one fails at startup with a
 * message naming the method and the setting. A skipped call ({@link WhenUnavailable#SKIP})
 * returns {@code null}, or zero / {@code false} for a primitive.
 */
public final class LockedProxies {

    private LockedProxies() {
    }

    /** A locking proxy of {@code target}, naming locks with {@link LockKeyBuilder#ANNOTATED}. */
    public static <T> T create(Class<T> type, T target, LockTemplate template) {
        return create(type, target, template, LockKeyBuilder.ANNOTATED);
    }

    /**
     * A locking proxy of {@code target} as {@code type}.
     *
     * @param type an interface that {@code target} implements
     * @param target the implementation
     * @param template takes the locks
     * @param names names the lock of each call
     * @return the proxy
     * @throws IllegalArgumentException when {@code type} is not an interface, or a {@link Locked}
     *     method has a bad setting (the message names the method and the setting)
     */
    public static <T> T create(Class<T> type, T target, LockTemplate template, LockKeyBuilder names) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(template, "template");
        Objects.requireNonNull(names, "names");
        if (!type.isInterface()) {
            throw new IllegalArgumentException("type: " + type.getName() + " (expected: an interface)");
        }
        Map<Method, Plan> plans = new HashMap<>();
        for (Method method : type.getMethods()) {
            Locked locked = annotation(method, target.getClass());
            if (locked != null) {
                plans.put(method, Plan.of(method, locked));
            }
        }
        InvocationHandler handler = new Handler(target, template, names, plans);
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
    }

    /** The annotation on the interface method, else on the implementation's method. */
    private static Locked annotation(Method method, Class<?> implementation) {
        Locked locked = method.getAnnotation(Locked.class);
        if (locked != null) {
            return locked;
        }
        try {
            return implementation.getMethod(method.getName(), method.getParameterTypes()).getAnnotation(Locked.class);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /** What an annotated method's calls do, checked once. */
    private record Plan(Locked locked, LockOptions options) {
        static Plan of(Method method, Locked locked) {
            LockOptions options = LockOptions.of(method, locked);
            if (!locked.key().isEmpty()) {
                throw new IllegalArgumentException(LockNames.describe(method) + ": @Locked key: \"" + locked.key()
                        + "\" (expected: empty; key expressions need a framework integration such as hasp-spring:"
                        + " mark the key arguments @LockKey instead)");
            }
            return new Plan(locked, options);
        }
    }

    private record Handler(Object target, LockTemplate template, LockKeyBuilder names, Map<Method, Plan> plans)
            implements InvocationHandler {

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            Object[] arguments = args == null ? new Object[0] : args;
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "equals" -> proxy == arguments[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "toString" -> "LockedProxy[" + target + "]";
                    default -> call(method, arguments);
                };
            }
            Plan plan = plans.get(method);
            if (plan == null) {
                return call(method, arguments);
            }
            String name = names.lockName(method, plan.locked(), arguments);
            return template.executeLockedCall(method, arguments, name, plan.options(), given -> call(method, given));
        }

        /** Calls the target, throwing what it threw. */
        private Object call(Method method, Object[] arguments) throws Exception {
            try {
                return method.invoke(target, arguments);
            } catch (InvocationTargetException e) {
                Throwable thrown = e.getCause();
                if (thrown instanceof Exception exception) {
                    throw exception;
                }
                if (thrown instanceof Error error) {
                    throw error;
                }
                throw e;
            }
        }
    }
}
