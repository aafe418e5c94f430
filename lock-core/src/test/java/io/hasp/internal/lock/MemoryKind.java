package io.hasp.internal.lock;

import io.hasp.RedisCommands;
import io.hasp.internal.topology.Topology;
import io.hasp.lock.LockOwner;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * A reentrant {@link LockKind} whose locks live in memory, for tests of the lock engine without a server:
 * the same answers as the scripts (acquire: null or the holder's TTL; release: null, 0, 1 or 2 with the
 * latch answering a re-sent request; renewal: one character per hold), leases on the test's clock, and an
 * unlock message on {@link MemoryPubSub} when a lock is freed. A test can make the next calls fail
 * ({@link #failNext}) or keep their replies back until it lets them go ({@link #holdReplies}). Thread-safe.
 */
final class MemoryKind implements LockKind {

    /** One lock: its holders' counts and when it expires (0: never). */
    private static final class Entry {
        final Map<String, Integer> counts = new LinkedHashMap<>();
        long expiresAtNanos;
    }

    private final LongSupplier clock;
    private final MemoryPubSub pubSub;
    private final Map<String, Entry> locks = new HashMap<>();
    private final Map<String, ReleaseOutcome> latches = new HashMap<>();
    private final Queue<RuntimeException> failures = new ArrayDeque<>();
    private final List<Runnable> heldReplies = new ArrayList<>();
    private final List<Runnable> pending = new ArrayList<>();
    private final List<String> calls = new ArrayList<>();
    private boolean holding;
    private final LockKind orderedWith;

    MemoryKind(LongSupplier clock, MemoryPubSub pubSub) {
        this(clock, pubSub, null);
    }

    /** A kind whose acquisitions wait for the unlocks of {@code orderedWith}'s holds too, as a mode of its lock. */
    MemoryKind(LongSupplier clock, MemoryPubSub pubSub, LockKind orderedWith) {
        this.clock = clock;
        this.pubSub = pubSub;
        this.orderedWith = orderedWith;
    }

    @Override
    public LockKind orderedWith() {
        return orderedWith != null ? orderedWith : this;
    }

    /** The next {@code count} calls fail with {@code failure}, after they took effect (a lost reply). */
    synchronized void failNext(int count, RuntimeException failure) {
        for (int i = 0; i < count; i++) {
            failures.add(failure);
        }
    }

    /** From now on, replies wait until {@link #deliverHeldReplies}; the calls take effect at once. */
    synchronized void holdReplies() {
        holding = true;
    }

    /** Delivers the replies kept back, in order, and stops keeping them back. */
    void deliverHeldReplies() {
        List<Runnable> replies;
        synchronized (this) {
            holding = false;
            replies = new ArrayList<>(heldReplies);
            heldReplies.clear();
        }
        replies.forEach(Runnable::run);
    }

    /** The calls made so far, e.g. {@code "acquire a"}, in order. */
    synchronized List<String> calls() {
        return List.copyOf(calls);
    }

    /** {@code owner}'s hold count on lock {@code name} now (0 when it expired or was never taken). */
    synchronized int count(String name, LockOwner owner) {
        Entry entry = live(name);
        return entry == null ? 0 : entry.counts.getOrDefault(owner.field(), 0);
    }

    /** Whether lock {@code name} has no holder now. */
    synchronized boolean free(String name) {
        Entry entry = live(name);
        return entry == null || entry.counts.isEmpty();
    }

    /** The remaining lease of lock {@code name} in milliseconds, or -2 when it is free. */
    synchronized long ttlMillis(String name) {
        Entry entry = live(name);
        return entry == null || entry.counts.isEmpty() ? -2 : Math.max(1, (entry.expiresAtNanos - clock.getAsLong()) / 1_000_000L);
    }

    /** Ends lock {@code name} as if its key had expired or been deleted on the server. */
    synchronized void forget(String name) {
        locks.remove(name);
    }

    private Entry live(String name) {
        Entry entry = locks.get(name);
        if (entry != null && entry.expiresAtNanos != 0 && entry.expiresAtNanos - clock.getAsLong() <= 0) {
            locks.remove(name);
            return null;
        }
        return entry;
    }

    private long expiry(long leaseMillis) {
        return clock.getAsLong() + leaseMillis * 1_000_000L;
    }

    /** Completes the reply now, later ({@link #holdReplies}), or fails it ({@link #failNext}). */
    private synchronized <T> CompletableFuture<T> reply(String call, T value) {
        calls.add(call);
        CompletableFuture<T> future = new CompletableFuture<>();
        RuntimeException failure = failures.poll();
        Runnable delivery = failure != null ? () -> future.completeExceptionally(failure) : () -> future.complete(value);
        if (holding) {
            heldReplies.add(delivery);
        } else {
            pending.add(delivery);   // run by deliver, outside this object's lock: callbacks call back in
        }
        return future;
    }

    /** Runs the replies completed by the last call, outside the kind's lock. */
    private <T> CompletableFuture<T> deliver(CompletableFuture<T> future) {
        List<Runnable> now;
        synchronized (this) {
            now = new ArrayList<>(pending);
            pending.clear();
        }
        now.forEach(Runnable::run);
        return future;
    }

    @Override
    public String channel(String name) {
        return "memory:" + name;
    }

    @Override
    public CompletableFuture<AcquireOutcome> acquire(Topology topology, String name, LockOwner owner, long leaseMillis,
            int targetCount) {
        CompletableFuture<AcquireOutcome> future;
        synchronized (this) {
            Entry entry = live(name);
            AcquireOutcome answer;
            if (entry == null || entry.counts.isEmpty() || entry.counts.containsKey(owner.field())) {
                if (entry == null) {
                    entry = new Entry();
                    locks.put(name, entry);
                }
                entry.counts.put(owner.field(), targetCount);
                entry.expiresAtNanos = expiry(leaseMillis);
                answer = AcquireOutcome.ACQUIRED;
            } else {
                answer = AcquireOutcome.busy(Math.max(1, (entry.expiresAtNanos - clock.getAsLong()) / 1_000_000L));
            }
            future = reply("acquire " + name, answer);
        }
        return deliver(future);
    }

    @Override
    public CompletableFuture<ReleaseOutcome> release(Topology topology, String name, LockOwner owner, String latch,
            long leaseMillis, long latchMillis) {
        return release(name, owner, latch, leaseMillis, null, 0);
    }

    @Override
    public boolean handsOver() {
        return true;
    }

    @Override
    public CompletableFuture<ReleaseOutcome> releaseTo(Topology topology, String name, LockOwner owner, String latch,
            long leaseMillis, long latchMillis, LockOwner successor, long successorLeaseMillis) {
        return release(name, owner, latch, leaseMillis, successor, successorLeaseMillis);
    }

    private CompletableFuture<ReleaseOutcome> release(String name, LockOwner owner, String latch, long leaseMillis,
            LockOwner successor, long successorLeaseMillis) {
        CompletableFuture<ReleaseOutcome> future;
        boolean freed = false;
        synchronized (this) {
            ReleaseOutcome answer;
            if (latches.containsKey(latch)) {
                answer = latches.get(latch);
            } else {
                Entry entry = live(name);
                Integer count = entry == null ? null : entry.counts.get(owner.field());
                if (count == null) {
                    answer = ReleaseOutcome.NOT_HELD;
                } else if (count > 1) {
                    entry.counts.put(owner.field(), count - 1);
                    entry.expiresAtNanos = expiry(leaseMillis);
                    answer = ReleaseOutcome.STILL_HELD;
                } else if (successor != null) {
                    entry.counts.remove(owner.field());
                    entry.counts.put(successor.field(), 1);
                    entry.expiresAtNanos = expiry(successorLeaseMillis);
                    answer = ReleaseOutcome.HANDED_OVER;
                } else {
                    entry.counts.remove(owner.field());
                    if (entry.counts.isEmpty()) {
                        locks.remove(name);
                    }
                    answer = ReleaseOutcome.FREED;
                    freed = true;
                }
                latches.put(latch, answer);
            }
            future = reply((successor != null ? "releaseTo " : "release ") + name, answer);
        }
        if (freed) {
            pubSub.publish(channel(name), "0");
        }
        return deliver(future);
    }

    @Override
    public CompletableFuture<Boolean> rollback(Topology topology, String name, LockOwner owner, int targetCount,
            long leaseMillis) {
        CompletableFuture<Boolean> future;
        boolean undone = false;
        synchronized (this) {
            Entry entry = live(name);
            Integer count = entry == null ? null : entry.counts.get(owner.field());
            if (count != null && count == targetCount) {
                if (count > 1) {
                    entry.counts.put(owner.field(), count - 1);
                } else {
                    entry.counts.remove(owner.field());
                    if (entry.counts.isEmpty()) {
                        locks.remove(name);
                    }
                }
                undone = true;
            }
            future = reply("rollback " + name, undone);
        }
        if (undone) {
            pubSub.publish(channel(name), "0");
        }
        return deliver(future);
    }

    @Override
    public CompletableFuture<String> renew(RedisCommands redis, List<String> names, List<LockOwner> owners,
            long leaseMillis, boolean keysDeclared) {
        CompletableFuture<String> future;
        synchronized (this) {
            StringBuilder outcome = new StringBuilder();
            for (int i = 0; i < names.size(); i++) {
                Entry entry = live(names.get(i));
                boolean held = entry != null && entry.counts.containsKey(owners.get(i).field());
                if (held) {
                    entry.expiresAtNanos = expiry(leaseMillis);
                }
                outcome.append(held ? '1' : '0');
            }
            future = reply("renew " + String.join(",", names), outcome.toString());
        }
        return deliver(future);
    }

    @Override
    public CompletableFuture<Boolean> forceRelease(Topology topology, String name) {
        CompletableFuture<Boolean> future;
        boolean freed;
        synchronized (this) {
            freed = locks.remove(name) != null;
            future = reply("forceRelease " + name, freed);
        }
        if (freed) {
            pubSub.publish(channel(name), "0");
        }
        return deliver(future);
    }

    @Override
    public String toString() {
        return "memory";
    }
}
