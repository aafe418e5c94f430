package io.hasp.internal.lock;

import static io.hasp.internal.lock.ServerView.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.internal.ClientInternals;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The waiters of a lock on a real subscription: unlock messages published on the real server wake
 * them (one per {@code "0"}, all on {@code "1"} or a resubscription), one subscription per channel
 * per client, kept for a linger after the last waiter left.
 */
@ExtendWith(RedisServerExtension.class)
class LockWaitersTest {

    private static final String CHANNEL = LockKeys.channel("orders");
    private static final Duration SLACK = Duration.ofSeconds(30);
    private static final long LINGER_MILLIS = 2_000;

    private final RedisServer server;
    private final LinkedBlockingQueue<String> woken = new LinkedBlockingQueue<>();
    private final List<WaitChannel> joined = new ArrayList<>();
    private ServerView view;
    private HaspClient client;
    private LockWaiters waiters;

    LockWaitersTest(RedisServer server) {
        this.server = server;
    }

    @BeforeEach
    void start() throws Exception {
        view = new ServerView(server);
        client = HaspClient.create(HaspConfig.builder().uri(server.uri()).clientName("waiters-test").build());
        waiters = new LockWaiters(ClientInternals.pubSub(client), ClientInternals.timer(client), LINGER_MILLIS);
    }

    @AfterEach
    void stop() {
        joined.forEach(waiters::leave);
        client.close();
        view.close();
    }

    private WaitChannel join() throws Exception {
        WaitChannel channel = waiters.join(CHANNEL).get(SLACK.toSeconds(), TimeUnit.SECONDS);
        joined.add(channel);
        return channel;
    }

    private Wake park(WaitChannel channel, String who) {
        Wake wake = new Wake(() -> woken.add(who));
        assertTrue(channel.parkUnlessPermit(wake), "parked");
        return wake;
    }

    private String nextWoken() throws InterruptedException {
        String who = woken.poll(SLACK.toSeconds(), TimeUnit.SECONDS);
        assertTrue(who != null, "a waiter was woken");
        return who;
    }

    /** Publishes {@code message} on the lock's channel from another connection, as an unlock elsewhere would. */
    private void publish(String message) {
        view.publish(CHANNEL, message);
    }

    @Test
    void joiningCompletesOnceTheServerConfirmedOneSharedSubscription() throws Exception {
        long subscribes = view.commandCalls("subscribe");
        WaitChannel first = join();
        assertEquals(1, view.subscribers(CHANNEL), "subscribed before the join completed");
        assertSame(first, join());
        assertSame(first, join());
        assertEquals(3, first.waiters());
        assertEquals(subscribes + 1, view.commandCalls("subscribe"), "one SUBSCRIBE for three waiters");
    }

    @Test
    void anUnlockMessageWakesOneWaiterInArrivalOrder() throws Exception {
        WaitChannel channel = join();
        join();
        park(channel, "first");
        park(channel, "second");
        publish("0");
        assertEquals("first", nextWoken());
        publish("0");
        assertEquals("second", nextWoken());
        assertTrue(woken.isEmpty());
    }

    @Test
    void aMessageWithNobodyParkedLeavesOnePermitPerWaiterAtMost() throws Exception {
        WaitChannel channel = join();
        // Listeners of a channel hear a message in the order they subscribed: once this later
        // listener has heard both messages, the wait channel has taken both into account.
        java.util.concurrent.atomic.AtomicInteger heard = new java.util.concurrent.atomic.AtomicInteger();
        var counter = ClientInternals.pubSub(client).subscribe(CHANNEL, (ch, message) -> heard.incrementAndGet())
                .get(SLACK.toSeconds(), TimeUnit.SECONDS);
        publish("0");
        publish("0");
        await("both messages delivered", SLACK, () -> heard.get() == 2);
        counter.unsubscribe().get(SLACK.toSeconds(), TimeUnit.SECONDS);
        assertFalse(channel.parkUnlessPermit(new Wake(() -> woken.add("late"))), "a permit from the messages");
        assertTrue(channel.parkUnlessPermit(new Wake(() -> woken.add("next"))), "only one permit for one waiter");
    }

    @Test
    void aReadUnlockMessageWakesEveryone() throws Exception {
        WaitChannel channel = join();
        join();
        join();
        park(channel, "a");
        park(channel, "b");
        park(channel, "c");
        publish("1");
        List<String> all = List.of(nextWoken(), nextWoken(), nextWoken());
        assertEquals(List.of("a", "b", "c"), all);
    }

    @Test
    void aResubscriptionWakesEveryoneToLookAgain() throws Exception {
        WaitChannel channel = join();
        join();
        park(channel, "a");
        park(channel, "b");
        // Messages sent while the subscription is down are lost: the waiters must look again.
        view.call("CLIENT", "KILL", "TYPE", "pubsub");
        assertEquals("a", nextWoken());
        assertEquals("b", nextWoken());
        await("subscribed again", SLACK, () -> view.subscribers(CHANNEL) == 1);
    }

    @Test
    void theSubscriptionLingersAfterTheLastWaiterThenGoes() throws Exception {
        WaitChannel channel = join();
        long subscribes = view.commandCalls("subscribe");
        waiters.leave(channel);
        joined.clear();
        WaitChannel again = join();
        assertSame(channel, again, "rejoined within the linger: the same subscription");
        assertEquals(subscribes, view.commandCalls("subscribe"));
        waiters.leave(again);
        joined.clear();
        await("unsubscribed after the linger", SLACK, () -> view.subscribers(CHANNEL) == 0);
        assertNull(waiters.channel(CHANNEL));
    }

    @Test
    void aLocalHandOffWakesAtOnceAndTheMessageStillWakesTheNext() throws Exception {
        WaitChannel channel = join();
        join();
        park(channel, "first");
        park(channel, "second");
        waiters.handOff(CHANNEL, System.nanoTime());
        assertEquals("first", nextWoken());
        publish("0");
        assertEquals("second", nextWoken());
    }

    @Test
    void aWaiterWhoseTimeoutFiredIsSkipped() throws Exception {
        WaitChannel channel = join();
        join();
        Wake timedOut = park(channel, "timed out");
        park(channel, "next");
        assertTrue(timedOut.claim());
        publish("0");
        assertEquals("next", nextWoken());
    }
}
