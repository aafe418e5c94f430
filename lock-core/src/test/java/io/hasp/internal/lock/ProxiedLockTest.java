package io.hasp.internal.lock;

import io.hasp.HaspClient;
import io.hasp.lock.HaspLock;
import io.hasp.lock.LockOwner;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import io.hasp.testing.TcpProxy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The rig of the lock tests that go through a {@link TcpProxy}: before each test a
 * {@link ProxiedServer} in front of the test class's redis-server, a lock service of client
 * {@code "me"} on it, the lock under test and two of its owners; all closed after each test.
 */
@ExtendWith(RedisServerExtension.class)
abstract class ProxiedLockTest {

    static final Duration SLACK = ProxiedServer.SLACK;
    /** The watchdog lease of these tests: far longer than any test, so no lock expires by accident. */
    static final Duration WATCHDOG = Duration.ofMinutes(2);

    /** The test class's own redis-server, which {@link #proxy} forwards to. */
    final RedisServer server;
    private final String name;

    ProxiedServer rig;
    /** Messages published on the lock's unlock channel, as an observer saw them. */
    LinkedBlockingQueue<String> messages;
    ServerView view;
    TcpProxy proxy;
    /** The client of {@link #service}, connected through {@link #proxy}. */
    HaspClient client;
    LockService service;
    HaspLock lock;
    LockOwner a;
    LockOwner b;

    ProxiedLockTest(RedisServer server, String name) {
        this.server = server;
        this.name = name;
    }

    @BeforeEach
    void startRig() throws Exception {
        rig = new ProxiedServer(server, observedChannel(name));
        messages = rig.messages;
        view = rig.view;
        proxy = rig.proxy;
        client = rig.client;
        service = service("me", client, WATCHDOG);
        lock = Locks.reentrant(service, name);
        a = lock.owner(1);
        b = lock.owner(2);
    }

    /** The channel whose messages {@link #messages} collects: lock {@code name}'s unlock channel. */
    String observedChannel(String name) {
        return LockKeys.channel(name);
    }

    @AfterEach
    void stopRig() {
        service.close();
        rig.close();
    }

    /** A lock service of client {@code clientId} with its commands and subscriptions on {@code client}. */
    static LockService service(String clientId, HaspClient client, Duration watchdog) {
        return ProxiedServer.service(clientId, client, client, watchdog);
    }

    static <T> T get(CompletableFuture<T> future) throws Exception {
        return ProxiedServer.get(future);
    }
}
