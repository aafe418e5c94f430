package io.hasp.lock;

import io.hasp.client.RedisCommands;
import io.hasp.client.pubsub.PubSub;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A RedisCommands and PubSub that only record what would have been sent. */
final class FakeRedis {

    final List<String> sent = Collections.synchronizedList(new ArrayList<>());

    RedisCommands commands() {
        return (RedisCommands) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {RedisCommands.class}, (proxy, method, args) -> {
                    if (method.getDeclaringClass() == Object.class) {
                        return method.invoke(this, args);
                    }
                    sent.add(method.getName());
                    return new java.util.concurrent.CompletableFuture<>();
                });
    }

    PubSub pubSub() {
        return (PubSub) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {PubSub.class}, (proxy, method, args) -> {
                    if (method.getDeclaringClass() == Object.class) {
                        return method.invoke(this, args);
                    }
                    sent.add(method.getName());
                    return new java.util.concurrent.CompletableFuture<>();
                });
    }
}
