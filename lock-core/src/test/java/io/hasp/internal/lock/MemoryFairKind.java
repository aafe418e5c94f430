package io.hasp.internal.lock;

import io.hasp.RedisCommands;
import io.hasp.RedisConnectionException;
import io.hasp.internal.topology.Topology;
import io.hasp.lock.LockOwner;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * The fair lock as a {@link LockKind} in memory, for tests of the engine without a server: the hold counts of a
 * {@link MemoryKind}, plus the line of {@code fair_queue.lua} with the same rules (the lock goes to the head of the
 * line, or to anyone while the line is empty; a waiter keeps its place while it looks again within the place
 * lease; giving up takes it out; only the head is woken, on its own channel). A test can lose the next reply of an
 * acquire that enqueued ({@link #loseNextReply}) and cut a client off ({@link #cutOff}: its calls no longer reach
 * the "server", as if its process had died). Thread-safe.
 */
final class MemoryFairKind implements LockKind {

    private final MemoryKind holds;
    private final LongSupplier clock;
    private final MemoryPubSub pubSub;
    private final long placeLeaseMillis;
    private final Map<String, LinkedHashMap<String, Long>> lines = new HashMap<>();  // name -> waiter -> place ends
    private final Set<String> cutOff = new HashSet<>();
    private final List<String> calls = new ArrayList<>();
    private boolean loseNextReply;

    MemoryFairKind(LongSupplier clock, MemoryPubSub pubSub, long placeLeaseMillis) {
        this.holds = new MemoryKind(clock, pubSub);
        this.clock = clock;
        this.pubSub = pubSub;
        this.placeLeaseMillis = placeLeaseMillis;
    }

    /** The hold counts, to read or to make their replies wait ({@link MemoryKind#holdReplies}). */
    MemoryKind holds() {
        return holds;
    }

    /** The waiters in line for lock {@code name}, head first (after dropping those whose place lapsed). */
    synchronized List<String> line(String name) {
        purge(name);
        return List.copyOf(line0(name).keySet());
    }

    /** The calls that reached the "server", e.g. {@code "enqueue c:1"}, {@code "leave c:1"}, in order. */
    synchronized List<String> calls() {
        return List.copyOf(calls);
    }

    /** The next acquire that puts its owner in line takes effect, and its reply is lost. */
    synchronized void loseNextReply() {
        loseNextReply = true;
    }

    /** From now on, calls of client {@code clientId} never reach the server and never answer. */
    synchronized void cutOff(String clientId) {
        cutOff.add(clientId);
    }

    private LinkedHashMap<String, Long> line0(String name) {
        return lines.computeIfAbsent(name, n -> new LinkedHashMap<>());
    }

    private boolean reaches(LockOwner owner) {
        return !cutOff.contains(owner.clientId());
    }

    /** Drops waiters whose place lapsed; returns the head to wake when the head changed on a free lock, else null. */
    private String purge(String name) {
        LinkedHashMap<String, Long> line = line0(name);
        String before = line.isEmpty() ? null : line.keySet().iterator().next();
        long now = clock.getAsLong();
        line.values().removeIf(until -> until - now <= 0);
        String after = line.isEmpty() ? null : line.keySet().iterator().next();
        return after != null && !after.equals(before) && holds.free(name) ? after : null;
    }

    private void wake(String name, String waiter) {
        if (waiter != null) {
            pubSub.publish(channel(name) + ':' + waiter, "0");
        }
    }

    @Override
    public String channel(String name) {
        return "memoryfair:" + name;
    }

    @Override
    public String waitChannel(String name, LockOwner owner) {
        return channel(name) + ':' + owner.field();
    }

    @Override
    public boolean queuesWaiters() {
        return true;
    }

    @Override
    public CompletableFuture<AcquireOutcome> acquire(Topology topology, String name, LockOwner owner, long leaseMillis,
            int targetCount) {
        return acquire(topology, name, owner, leaseMillis, targetCount, true);
    }

    @Override
    public CompletableFuture<AcquireOutcome> acquireWithoutWaiting(Topology topology, String name, LockOwner owner,
            long leaseMillis, int targetCount) {
        return acquire(topology, name, owner, leaseMillis, targetCount, false);
    }

    private CompletableFuture<AcquireOutcome> acquire(Topology topology, String name, LockOwner owner, long leaseMillis,
            int targetCount, boolean waits) {
        String woken;
        boolean lose;
        AcquireOutcome answer;
        synchronized (this) {
            if (!reaches(owner)) {
                return new CompletableFuture<>();
            }
            woken = purge(name);
            LinkedHashMap<String, Long> line = line0(name);
            String head = line.isEmpty() ? null : line.keySet().iterator().next();
            boolean held = holds.count(name, owner) > 0;
            if (!held && targetCount > 1) {
                answer = AcquireOutcome.LOST;
            } else if (held || (holds.free(name) && (head == null || head.equals(owner.field())))) {
                line.remove(owner.field());
                calls.add("grant " + owner.field());
                answer = null;   // the hold counts decide
            } else if (!waits) {
                calls.add("try " + owner.field());
                answer = AcquireOutcome.busy(Math.max(1, placeLeaseMillis / 3));
            } else {
                if (!line.containsKey(owner.field())) {
                    calls.add("enqueue " + owner.field());
                }
                line.put(owner.field(), clock.getAsLong() + placeLeaseMillis * 1_000_000L);
                long park = Math.max(1, placeLeaseMillis / 3);
                long ttl = holds.ttlMillis(name);
                boolean first = line.keySet().iterator().next().equals(owner.field());
                answer = AcquireOutcome.busy(first && ttl > 0 ? Math.min(park, ttl) : park);
            }
            lose = answer != null && !answer.lost() && loseNextReply;
            loseNextReply &= !lose;
        }
        wake(name, woken);
        if (answer == null) {
            return holds.acquire(topology, name, owner, leaseMillis, targetCount);
        }
        return lose ? CompletableFuture.failedFuture(new RedisConnectionException("reply lost (test)"))
                : CompletableFuture.completedFuture(answer);
    }

    @Override
    public CompletableFuture<ReleaseOutcome> release(Topology topology, String name, LockOwner owner, String latch,
            long leaseMillis, long latchMillis) {
        synchronized (this) {
            if (!reaches(owner)) {
                return new CompletableFuture<>();
            }
        }
        CompletableFuture<ReleaseOutcome> released = holds.release(topology, name, owner, latch, leaseMillis, latchMillis);
        if (holds.free(name)) {
            wake(name, head(name));
        }
        return released;
    }

    private synchronized String head(String name) {
        LinkedHashMap<String, Long> line = line0(name);
        return line.isEmpty() ? null : line.keySet().iterator().next();
    }

    @Override
    public CompletableFuture<Boolean> rollback(Topology topology, String name, LockOwner owner, int targetCount,
            long leaseMillis) {
        boolean left;
        boolean headed;
        synchronized (this) {
            if (!reaches(owner)) {
                return new CompletableFuture<>();
            }
            headed = owner.field().equals(head(name));
            left = line0(name).remove(owner.field()) != null;
            if (left) {
                calls.add("leave " + owner.field() + " undoing " + targetCount);
            }
        }
        boolean wasFree = holds.free(name);
        CompletableFuture<Boolean> undone = holds.rollback(topology, name, owner, targetCount, leaseMillis);
        if (holds.free(name) && (headed || !wasFree)) {
            wake(name, head(name));
        }
        return left ? undone.thenApply(ignored -> true) : undone;
    }

    @Override
    public CompletableFuture<String> renew(RedisCommands redis, List<String> names, List<LockOwner> owners,
            long leaseMillis, boolean keysDeclared) {
        return holds.renew(redis, names, owners, leaseMillis, keysDeclared);
    }

    @Override
    public CompletableFuture<Boolean> forceRelease(Topology topology, String name) {
        CompletableFuture<Boolean> freed = holds.forceRelease(topology, name);
        wake(name, head(name));
        return freed;
    }

    @Override
    public String toString() {
        return "memory fair";
    }
}
