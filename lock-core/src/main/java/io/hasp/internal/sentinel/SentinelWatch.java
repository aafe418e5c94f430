package io.hasp.internal.sentinel;

import io.hasp.internal.Futures;
import io.hasp.internal.pubsub.PubSub;
import io.hasp.internal.topology.NodeAddress;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells of master switches in a Sentinel deployment as soon as a sentinel announces one: it listens to
 * {@code +switch-master} on every sentinel it can reach, and, for the switches those messages miss (a
 * sentinel down, a connection lost at that moment, all of them unreachable at start), asks for the
 * master ({@link SentinelDiscovery}) every {@code checkEvery}. Each new master is reported once, in
 * the order seen, on an event-loop or timer thread: the callback must not block. Thread-safe.
 *
 * <p>The sentinel that runs a failover also says, before it promotes the replica it chose, which one
 * ({@code +selected-slave}); the watch passes that on at once, so that the client stops writing to a
 * master whose writes are about to be thrown away, rather than at the switch message, which comes
 * after the promotion (0.6-2 s later here).
 *
 * <p>A switch message comes from the sentinel that made the switch and is believed. A check moves off
 * the current master only when that master no longer says it is one (or does not answer): right after
 * a switch, a sentinel that has not heard of it yet still names the old master, which still says it is
 * a master until the sentinels demote it, and following it back there would send writes to the one
 * node whose writes are about to be thrown away.
 */
public final class SentinelWatch implements AutoCloseable {

    /** The channel on which a sentinel announces {@code <name> <old-ip> <old-port> <new-ip> <new-port>}. */
    static final String SWITCH_CHANNEL = "+switch-master";
    /**
     * The channel on which the sentinel running a failover names the replica it will promote, before it
     * does: {@code slave <ip:port> <ip> <port> @ <name> <master-ip> <master-port>}.
     */
    static final String PROMOTION_CHANNEL = "+selected-slave";

    private static final Logger log = LoggerFactory.getLogger(SentinelWatch.class);

    private final SentinelDiscovery discovery;
    private final List<NodeAddress> sentinels;
    private final Function<NodeAddress, CompletableFuture<PubSub>> open;
    private final Timer timer;
    private final long checkMillis;
    private final Consumer<NodeAddress> onSwitch;
    private final Consumer<NodeAddress> onPromotion;
    private final AtomicReference<NodeAddress> master = new AtomicReference<>();
    private final List<PubSub> listening = new CopyOnWriteArrayList<>();
    private final AtomicLong checks = new AtomicLong();
    /** Sentinels whose messages this watch hears, and those it could not listen to yet. */
    private final Set<NodeAddress> heard = ConcurrentHashMap.newKeySet();
    private final Set<NodeAddress> deaf = ConcurrentHashMap.newKeySet();
    private volatile Timeout check;
    private volatile boolean closed;

    /**
     * @param discovery asks the sentinels for the master (the periodic check)
     * @param sentinels the sentinels to listen to
     * @param open opens a started pub/sub connection to a sentinel; the watch closes it
     * @param timer the client's timer, for the periodic check
     * @param checkMillis the period of the check, &gt; 0
     * @param onSwitch told of each new master
     * @param onPromotion told of the replica a sentinel is about to promote in place of the current master
     */
    public SentinelWatch(SentinelDiscovery discovery, List<NodeAddress> sentinels,
            Function<NodeAddress, CompletableFuture<PubSub>> open, Timer timer, long checkMillis,
            Consumer<NodeAddress> onSwitch, Consumer<NodeAddress> onPromotion) {
        if (checkMillis <= 0) {
            throw new IllegalArgumentException("checkMillis: " + checkMillis + " (expected: > 0)");
        }
        this.discovery = discovery;
        this.sentinels = List.copyOf(sentinels);
        this.open = open;
        this.timer = timer;
        this.checkMillis = checkMillis;
        this.onSwitch = onSwitch;
        this.onPromotion = onPromotion;
    }

    /**
     * Starts watching from {@code current}, the master found at start.
     *
     * @return completes once every sentinel listens or failed to (a failure is logged; the periodic
     *     check covers what that sentinel would have said, and tries to listen to it again)
     */
    public CompletableFuture<Void> start(NodeAddress current) {
        master.set(current);
        List<CompletableFuture<Void>> subscribed = new ArrayList<>();
        for (NodeAddress sentinel : sentinels) {
            subscribed.add(listen(sentinel));
        }
        scheduleCheck();
        return CompletableFuture.allOf(subscribed.toArray(new CompletableFuture<?>[0]));
    }

    /** Subscribes to {@code sentinel}'s promotion and switch messages; on failure, the next check tries again. */
    private CompletableFuture<Void> listen(NodeAddress sentinel) {
        return Futures.sent(() -> open.apply(sentinel))
                .thenCompose(pubSub -> {
                    listening.add(pubSub);
                    if (closed) {
                        pubSub.close();
                    }
                    return pubSub.subscribe(PROMOTION_CHANNEL, this::promoting)
                            .thenCompose(first -> pubSub.subscribe(SWITCH_CHANNEL, this::announced))
                            .whenComplete((ok, failure) -> {
                                if (failure != null) {
                                    listening.remove(pubSub);
                                    pubSub.close();
                                }
                            });
                })
                .handle((subscription, failure) -> {
                    if (failure == null) {
                        heard.add(sentinel);
                    } else if (!closed) {
                        deaf.add(sentinel);
                        log.info("sentinel {} is not listened to for switches of '{}' (the check every {} ms"
                                + " still is, and tries again): {}", sentinel, discovery.masterName(), checkMillis,
                                Futures.unwrap(failure).toString());
                    }
                    return null;
                });
    }

    /** How many sentinels are listened to now; for tests. */
    int listenedTo() {
        return heard.size();
    }

    /** The master as last seen: the one found at start, or the latest switch. */
    public NodeAddress master() {
        return master.get();
    }

    /** How many periodic checks have completed; for tests. */
    long checks() {
        return checks.get();
    }

    /** A message on {@link #PROMOTION_CHANNEL}; package-private for tests. */
    void promoting(String channel, String message) {
        String[] fields = message.split(" ");
        if (fields.length != 8 || !fields[4].equals("@") || !fields[5].equals(discovery.masterName())) {
            return;   // another master's failover, or a message of another form
        }
        try {
            NodeAddress replaced = new NodeAddress(fields[6], Integer.parseInt(fields[7]));
            NodeAddress chosen = new NodeAddress(fields[2], Integer.parseInt(fields[3]));
            if (replaced.equals(master.get()) && !closed) {
                log.info("a sentinel is promoting {} in place of {}, the master of '{}'", chosen, replaced,
                        discovery.masterName());
                onPromotion.accept(chosen);
            }
        } catch (IllegalArgumentException malformed) {
            log.warn("sentinel announced a promotion for '{}' hasp cannot read: {}", discovery.masterName(), message);
        }
    }

    /** A message on {@link #SWITCH_CHANNEL}; package-private for tests. */
    void announced(String channel, String message) {
        String[] fields = message.split(" ");
        if (fields.length != 5 || !fields[0].equals(discovery.masterName())) {
            return;   // another master's switch, or a message of another form
        }
        try {
            switchTo(new NodeAddress(fields[3], Integer.parseInt(fields[4])));
        } catch (IllegalArgumentException malformed) {
            log.warn("sentinel announced a switch of '{}' hasp cannot read: {}", discovery.masterName(), message);
        }
    }

    private void switchTo(NodeAddress next) {
        NodeAddress before = master.getAndSet(next);
        if (!next.equals(before) && !closed) {
            log.info("master of '{}' switched from {} to {}", discovery.masterName(), before, next);
            onSwitch.accept(next);
        }
    }

    private void scheduleCheck() {
        if (closed) {
            return;
        }
        try {
            check = timer.newTimeout(t -> {
                listenAgain();
                discovery.master().thenCompose(found -> {
                    NodeAddress current = master.get();
                    if (found.equals(current)) {
                        return CompletableFuture.completedFuture(null);
                    }
                    return discovery.saysMaster(current).thenApply(stillMaster -> stillMaster ? null : found);
                }).whenComplete((moved, failure) -> {
                    checks.incrementAndGet();
                    if (moved != null) {
                        switchTo(moved);
                    }
                    scheduleCheck();
                });
            }, checkMillis, TimeUnit.MILLISECONDS);
        } catch (IllegalStateException timerStopped) {
            // the client is closing
        }
    }

    /** Tries again to listen to the sentinels it could not listen to. */
    private void listenAgain() {
        List<NodeAddress> again = new ArrayList<>();
        for (NodeAddress sentinel : deaf) {
            if (deaf.remove(sentinel)) {
                again.add(sentinel);
            }
        }
        again.forEach(this::listen);   // after the loop: a failure adds the sentinel back to deaf at once
    }

    /** Stops the check and closes the sentinels' pub/sub connections. */
    @Override
    public void close() {
        closed = true;
        Timeout t = check;
        if (t != null) {
            t.cancel();
        }
        for (PubSub pubSub : listening) {
            pubSub.close();
        }
    }
}
