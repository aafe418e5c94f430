package io.hasp.lock;

import io.hasp.client.RedisCommands;
import io.hasp.client.RedisConnectionException;
import io.hasp.client.pubsub.MessageListener;
import io.hasp.client.pubsub.PubSub;
import io.hasp.client.pubsub.Subscription;
import io.hasp.client.script.Script;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * An in-memory stand-in for a Redis server that runs the lock's scripts with the same meaning as
 * the .lua files, on the manual timer's clock. It can lose replies (the command runs, the caller
 * sees a connection error) and hold back unlock messages, to test the lock's logic without a
 * server. Not thread-safe beyond what the single-threaded tests need.
 */
final class FakeLockServer {

    private final ManualTimer timer;
    private final Map<String, Map<String, Long>> hashes = new HashMap<>();
    private final Map<String, String> strings = new HashMap<>();
    private final Map<String, Long> expiry = new HashMap<>();
    private final Map<String, List<MessageListener>> subscribers = new HashMap<>();
    final List<String> published = new CopyOnWriteArrayList<>();
    final List<String> calls = new CopyOnWriteArrayList<>();
    /** How many of the next script calls run but lose their reply. */
    int loseReplies;
    /** When true, script calls run at once but their replies wait for {@link #releaseReplies()}. */
    boolean deferReplies;
    private final List<Runnable> deferred = new ArrayList<>();
    /** When false, published messages are recorded but not delivered. */
    boolean deliverMessages = true;

    FakeLockServer(ManualTimer timer) {
        this.timer = timer;
    }

    private long nowMillis() {
        return TimeUnit.NANOSECONDS.toMillis(timer.nanoTime());
    }

    private void expire(String key) {
        Long at = expiry.get(key);
        if (at != null && at <= nowMillis()) {
            hashes.remove(key);
            strings.remove(key);
            expiry.remove(key);
        }
    }

    /** Delivers the replies held back by {@link #deferReplies}, in order, and stops deferring. */
    void releaseReplies() {
        deferReplies = false;
        List<Runnable> now = new ArrayList<>(deferred);
        deferred.clear();
        now.forEach(Runnable::run);
    }

    /** The hold count of {@code owner} on {@code key}, or null. */
    Long count(String key, String owner) {
        expire(key);
        Map<String, Long> hash = hashes.get(key);
        return hash == null ? null : hash.get(owner);
    }

    boolean exists(String key) {
        expire(key);
        return hashes.containsKey(key) || strings.containsKey(key);
    }

    /** Another client takes {@code key} for {@code leaseMillis}. */
    void holdAs(String key, String owner, long leaseMillis) {
        hashes.computeIfAbsent(key, k -> new LinkedHashMap<>()).merge(owner, 1L, Long::sum);
        expiry.put(key, nowMillis() + leaseMillis);
    }

    /** Deletes a key without publishing anything. */
    void delete(String key) {
        hashes.remove(key);
        strings.remove(key);
        expiry.remove(key);
    }

    int subscriberCount(String channel) {
        return subscribers.getOrDefault(channel, List.of()).size();
    }

    void publish(String channel, String message) {
        published.add(channel + "=" + message);
        if (deliverMessages) {
            for (MessageListener l : List.copyOf(subscribers.getOrDefault(channel, List.of()))) {
                l.onMessage(channel, message);
            }
        }
    }

    RedisCommands commands() {
        return (RedisCommands) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {RedisCommands.class}, (proxy, method, args) -> {
                    if (method.getDeclaringClass() == Object.class) {
                        return method.invoke(this, args);
                    }
                    switch (method.getName()) {
                        case "evalsha": {
                            @SuppressWarnings("unchecked")
                            List<String> keys = (List<String>) args[2];
                            Object[] argv = (Object[]) args[3];
                            Object result = eval((Script) args[0], keys, argv);
                            if (loseReplies > 0) {
                                loseReplies--;
                                return CompletableFuture.failedFuture(new RedisConnectionException("reply lost"));
                            }
                            if (deferReplies) {
                                CompletableFuture<Object> later = new CompletableFuture<>();
                                deferred.add(() -> later.complete(result));
                                return later;
                            }
                            return CompletableFuture.completedFuture(result);
                        }
                        case "del": {
                            for (String key : (String[]) args[0]) {
                                delete(key);
                            }
                            return CompletableFuture.completedFuture(1L);
                        }
                        case "pttl": {
                            String key = (String) args[0];
                            return CompletableFuture.completedFuture(exists(key) ? expiry.get(key) - nowMillis() : -2L);
                        }
                        case "hexists":
                            return CompletableFuture.completedFuture(count((String) args[0], (String) args[1]) != null);
                        case "hget": {
                            Long c = count((String) args[0], (String) args[1]);
                            return CompletableFuture.completedFuture(c == null ? null : c.toString());
                        }
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                });
    }

    PubSub pubSub() {
        return (PubSub) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {PubSub.class},
                (proxy, method, args) -> {
                    if (method.getDeclaringClass() == Object.class) {
                        return method.invoke(this, args);
                    }
                    String channel = (String) args[0];
                    MessageListener listener = (MessageListener) args[1];
                    subscribers.computeIfAbsent(channel, c -> new ArrayList<>()).add(listener);
                    Subscription subscription = new Subscription() {
                        @Override
                        public String channel() {
                            return channel;
                        }

                        @Override
                        public CompletableFuture<Void> unsubscribe() {
                            subscribers.get(channel).remove(listener);
                            return CompletableFuture.completedFuture(null);
                        }
                    };
                    return CompletableFuture.completedFuture(subscription);
                });
    }

    private Object eval(Script script, List<String> keys, Object[] argv) {
        calls.add(script == AcquireScript.SCRIPT ? "acquire" : script == UnlockScript.SCRIPT ? "unlock"
                : script == RenewScript.SCRIPT ? "renew" : script == RollbackScript.SCRIPT ? "rollback" : "force");
        String key = keys.get(0);
        expire(key);
        Map<String, Long> hash = hashes.get(key);
        if (script == AcquireScript.SCRIPT) {
            long lease = (Long) argv[0];
            String owner = (String) argv[1];
            long target = (Long) argv[2];
            if (hash != null && hash.containsKey(owner)) {
                if (hash.get(owner) < target) {
                    hash.merge(owner, 1L, Long::sum);
                }
                expiry.put(key, nowMillis() + lease);
                return null;
            }
            if (hash == null) {
                hashes.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(owner, 1L);
                expiry.put(key, nowMillis() + lease);
                return null;
            }
            return expiry.get(key) - nowMillis();
        }
        if (script == UnlockScript.SCRIPT) {
            String latch = keys.get(2);
            expire(latch);
            if (strings.containsKey(latch)) {
                return Long.parseLong(strings.get(latch));
            }
            String owner = (String) argv[2];
            if (hash == null || !hash.containsKey(owner)) {
                return null;
            }
            long left = hash.merge(owner, -1L, Long::sum);
            long outcome;
            if (left > 0) {
                expiry.put(key, nowMillis() + (Long) argv[1]);
                outcome = 0;
            } else {
                delete(key);
                publish(keys.get(1), (String) argv[0]);
                outcome = 1;
            }
            strings.put(latch, Long.toString(outcome));
            expiry.put(latch, nowMillis() + (Long) argv[3]);
            return outcome;
        }
        if (script == RollbackScript.SCRIPT) {
            String owner = (String) argv[1];
            long target = (Long) argv[2];
            if (hash == null || !Long.valueOf(target).equals(hash.get(owner))) {
                return false;
            }
            if (target > 1) {
                hash.merge(owner, -1L, Long::sum);
                return true;
            }
            delete(key);
            publish(keys.get(1), (String) argv[0]);
            return true;
        }
        if (script == ForceUnlockScript.SCRIPT) {
            if (hash == null) {
                return false;
            }
            delete(key);
            publish(keys.get(1), (String) argv[0]);
            return true;
        }
        StringBuilder outcome = new StringBuilder();
        for (int i = 0; i < keys.size(); i++) {
            expire(keys.get(i));
            Map<String, Long> h = hashes.get(keys.get(i));
            boolean held = h != null && h.containsKey((String) argv[i + 1]);
            if (held) {
                expiry.put(keys.get(i), nowMillis() + (Long) argv[0]);
            }
            outcome.append(held ? '1' : '0');
        }
        return outcome.toString();
    }
}
