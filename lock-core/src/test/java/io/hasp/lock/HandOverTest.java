package io.hasp.lock;

import static io.hasp.lock.ServerView.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.lock.ServerView.ScriptCall;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import io.hasp.testing.TcpProxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Hand-over: an unlock that ends its owner's last hold gives the lock, in the unlock script itself,
 * to a waiter of the same client parked on it; at most {@link WaitChannel#MAX_HAND_OVERS} times in
 * a row, so other clients' waiters get their turn. Against a real redis-server, through a
 * {@link TcpProxy} that loses or delays replies.
 */
@ExtendWith(RedisServerExtension.class)
class HandOverTest {

    private static final String NAME = "stock";
    private static final String CHANNEL = "redisson_lock__channel:{stock}";
    private static final Duration SLACK = Duration.ofSeconds(30);
    private static final Duration WATCHDOG = Duration.ofMinutes(2);

    private final RedisServer server;
    private final LinkedBlockingQueue<String> messages = new LinkedBlockingQueue<>();
    private ServerView view;
    private TcpProxy proxy;
    private HaspClient client;
    private HaspClient observer;
    private LockService service;
    private HaspLock lock;
    private LockOwner a;
    private LockOwner b;

    HandOverTest(RedisServer server) {
        this.server = server;
    }

    @BeforeEach
    void start() throws Exception {
        view = new ServerView(server);
        proxy = TcpProxy.start(server.port());
        client = HaspClient.create(HaspConfig.builder().uri(proxy.uri()).commandTimeout(Duration.ofSeconds(20))
                .build());
        client.commands().ping().get(30, TimeUnit.SECONDS);
        service = service("me", client);
        lock = service.lock(NAME);
        a = lock.owner(1);
        b = lock.owner(2);
        observer = HaspClient.create(server.uri());
        observer.pubSub().subscribe(CHANNEL, (channel, message) -> messages.add(message)).get(30, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() {
        proxy.delay(Duration.ZERO);
        service.close();
        client.close();
        observer.close();
        proxy.close();
        view.close();
        assertTrue(proxy.threadsStopped());
    }

    private static LockService service(String clientId, HaspClient client) {
        HaspConfig config = client.config();
        return new LockService(clientId, client.commands(), client.pubSub(), client.timer(), WATCHDOG,
                config.timerTick(), config.commandTimeout());
    }

    private static <T> T get(CompletableFuture<T> future) throws Exception {
        return future.get(SLACK.toSeconds(), TimeUnit.SECONDS);
    }

    private void awaitParked(LockService in, int count) {
        await(count + " parked waiter(s)", SLACK, () -> {
            WaitChannel channel = in.waiters().channel(CHANNEL);
            return channel != null && channel.parked() == count;
        });
    }

    /** No unlock message was published before this point: a marker published now is the next message. */
    private void assertNothingPublished() throws Exception {
        view.publish(CHANNEL, "marker");
        assertEquals("marker", messages.poll(SLACK.toSeconds(), TimeUnit.SECONDS), "no unlock message before it");
    }

    private List<ScriptCall> handOvers() {
        return view.scriptCalls(UnlockScript.SCRIPT, NAME).stream().filter(c -> c.argv().size() == 6).toList();
    }

    @Test
    void anUnlockHandsTheLockToAParkedLocalWaiterInTheUnlockScript() throws Exception {
        get(lock.lockAsync(a));
        CompletableFuture<Boolean> waiting = lock.tryLockAsync(60, -1, TimeUnit.SECONDS, b);
        awaitParked(service, 1);
        int acquiresBefore = view.scriptCalls(AcquireScript.SCRIPT, NAME).size();

        get(lock.unlockAsync(a));
        assertTrue(get(waiting));

        assertEquals(1L, view.count(NAME, "me:2"));
        assertNull(view.count(NAME, "me:1"));
        assertEquals(WATCHDOG.toMillis(), view.pttl(NAME), 60_000, "the waiter's own lease");
        assertEquals(acquiresBefore, view.scriptCalls(AcquireScript.SCRIPT, NAME).size(), "no acquire for it");
        List<ScriptCall> handOvers = handOvers();
        assertEquals(1, handOvers.size());
        assertEquals("me:2", handOvers.get(0).argv().get(4));
        assertNothingPublished();
        assertEquals(1, service.heldLocks());
        assertTrue(get(lock.isHeldByAsync(b)));
        assertEquals(HoldEnd.RELEASED, get(lock.holdEnd(a)));

        get(lock.unlockAsync(b));
        assertFalse(view.exists(NAME));
        assertEquals("0", messages.poll(SLACK.toSeconds(), TimeUnit.SECONDS), "no waiter left: freed for everyone");
        assertEquals(0, service.heldLocks());
    }

    @Test
    void aReentrantUnlockThatKeepsHoldsHandsNothingOver() throws Exception {
        get(lock.lockAsync(a));
        get(lock.lockAsync(a));
        CompletableFuture<Boolean> waiting = lock.tryLockAsync(60, -1, TimeUnit.SECONDS, b);
        awaitParked(service, 1);
        get(lock.unlockAsync(a));
        assertEquals(1L, view.count(NAME, "me:1"));
        assertFalse(waiting.isDone());
        assertEquals(List.of(), handOvers());
        get(lock.unlockAsync(a));
        assertTrue(get(waiting));
        assertEquals(1L, view.count(NAME, "me:2"));
    }

    @Test
    void aHandOverWhoseReplyWasLostGivesTheWaiterOneHold() throws Exception {
        get(lock.lockAsync(a));
        CompletableFuture<Boolean> waiting = lock.tryLockAsync(60, -1, TimeUnit.SECONDS, b);
        awaitParked(service, 1);
        proxy.dropNextReplyAndCut();
        get(lock.unlockAsync(a));
        assertTrue(get(waiting));
        assertEquals(1L, view.count(NAME, "me:2"), "one hold, not two");
        List<ScriptCall> handOvers = handOvers();
        assertTrue(handOvers.size() >= 2, "the unlock was sent again: " + handOvers);
        assertEquals(1, handOvers.stream().map(c -> c.keys().get(2)).distinct().count(), "with the same latch");
        assertEquals(1, get(lock.getHoldCountAsync(b)));
    }

    @Test
    void aWaiterWhoseDeadlinePassesDuringTheHandOverGivesTheLockBack() throws Exception {
        get(lock.lockAsync(a));
        CompletableFuture<Boolean> waiting = lock.tryLockAsync(3, -1, TimeUnit.SECONDS, b);
        awaitParked(service, 1);
        proxy.delay(Duration.ofSeconds(6));
        CompletableFuture<Void> unlocking = lock.unlockAsync(a);
        await("the server handed it over", SLACK, () -> Long.valueOf(1).equals(view.count(NAME, "me:2")));
        assertEquals(false, get(waiting), "the deadline passed before the reply came back");
        assertNull(get(unlocking));
        await("the late hand-over given back", SLACK, () -> !view.exists(NAME));
        await("no hold left", SLACK, () -> service.heldLocks() == 0);
        assertFalse(get(lock.isHeldByAsync(b)));
    }

    @Test
    void afterTheMostHandOversInARowTheLockIsFreedForEveryone() throws Exception {
        get(lock.lockAsync(a));
        LockOwner holder = a;
        LockOwner next = b;
        for (int i = 0; i < WaitChannel.MAX_HAND_OVERS; i++) {
            CompletableFuture<Void> waiting = lock.lockAsync(next);
            awaitParked(service, 1);
            get(lock.unlockAsync(holder));
            get(waiting);
            LockOwner swap = holder;
            holder = next;
            next = swap;
        }
        assertEquals(WaitChannel.MAX_HAND_OVERS, handOvers().size());
        assertNothingPublished();

        // Another client's waiter would learn of the lock's release only from this message.
        CompletableFuture<Void> waiting = lock.lockAsync(next);
        awaitParked(service, 1);
        get(lock.unlockAsync(holder));
        assertEquals("0", messages.poll(SLACK.toSeconds(), TimeUnit.SECONDS), "freed and announced");
        get(waiting);  // the local waiter was woken by the message, like every other client's
        assertEquals(WaitChannel.MAX_HAND_OVERS, handOvers().size());
        assertEquals(1L, view.count(NAME, next.field()));
    }
}
