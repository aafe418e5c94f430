package io.hasp.internal.lock;

import io.hasp.RedisCommands;
import io.hasp.Script;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Client-side counting of what the lock sends: a {@link RedisCommands} that hands every call to
 * the real client's commands unchanged and counts the calls of one script on the way, also those
 * that never reach a server (it answers nothing itself).
 */
final class SentCommands {

    private SentCommands() {
    }

    /** {@code real}, counting each {@code evalsha} of {@code script} in {@code sent} before sending it. */
    static RedisCommands counting(RedisCommands real, Script script, AtomicInteger sent) {
        return (RedisCommands) Proxy.newProxyInstance(SentCommands.class.getClassLoader(),
                new Class<?>[] {RedisCommands.class}, (proxy, method, args) -> {
                    if (method.getName().equals("evalsha") && args != null && args[0] == script) {
                        sent.incrementAndGet();
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
