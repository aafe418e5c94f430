package io.hasp.internal.sync;

import io.hasp.HaspListener;
import io.hasp.internal.Futures;
import io.hasp.internal.topology.Topology;
import io.hasp.lock.HoldEnd;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The permits of one client's permit-expirable semaphores taken without a lease: each is leased for the client's
 * watchdog lease and renewed in every pass of the client's watchdog (beside its watchdog locks), one script call per
 * semaphore and batch of ids, so that it lasts while the client lives and comes back by itself within one lease once
 * the process dies or loses Redis. A permit that a renewal finds gone (reclaimed after its lease ran out, or given
 * back by someone else), or that no renewal could confirm before its lease ran out, ends {@link HoldEnd#LOST}, as a
 * lock's hold does; how kept permits ended is remembered (a bounded number) for {@link #end}. Thread-safe.
 */
public final class WatchdogPermits {

    /** How the listener names these leases among lock kinds. */
    static final String KIND = "expirable-permit";
    private static final int BATCH = 100;
    /** How many endings of kept permits {@link #end} remembers at most. */
    private static final int MAX_REMEMBERED = 4096;
    private static final Logger log = LoggerFactory.getLogger(WatchdogPermits.class);

    private final Topology topology;
    private final long leaseMillis;
    private final Runnable arm;
    private final HaspListener listener;   // null: none
    /** The kept permits, by semaphore name, then by id (its text). */
    private final Map<String, Map<String, Kept>> kept = new ConcurrentHashMap<>();
    /** How kept permits ended, by semaphore name and id; bounded. */
    private final Map<String, HoldEnd> endings = new ConcurrentHashMap<>();
    /** The semaphores whose renewal is on its way: a pass sends no second one for them meanwhile. */
    private final Set<String> renewing = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /**
     * @param leaseMillis the watchdog's lease: each permit is leased and renewed for this long
     * @param arm starts the client's watchdog, whose passes call {@link #renewNow}
     * @param listener told of each permit's end and each renewal call; null for none
     */
    public WatchdogPermits(Topology topology, long leaseMillis, Runnable arm, HaspListener listener) {
        this.topology = topology;
        this.leaseMillis = leaseMillis;
        this.arm = arm;
        this.listener = listener;
    }

    /** One kept permit. */
    private static final class Kept {
        final byte[] id;
        final long sinceNanos;
        /** When the last confirmed lease began: the send of the grant or of the renewal that confirmed it. */
        private long confirmedNanos;   // guarded by this
        final CompletableFuture<HoldEnd> end = new CompletableFuture<>();

        Kept(byte[] id, long sinceNanos) {
            this.id = id;
            this.sinceNanos = sinceNanos;
            this.confirmedNanos = sinceNanos;
        }

        synchronized void confirmed(long sentNanos) {
            confirmedNanos = Math.max(confirmedNanos, sentNanos);
        }

        synchronized boolean leaseRanOut(long nowNanos, long leaseNanos) {
            return nowNanos - confirmedNanos >= leaseNanos;
        }
    }

    long leaseMillis() {
        return leaseMillis;
    }

    /**
     * Keeps the permit {@code id} of semaphore {@code name}, leased by a grant sent at {@code sentNanos}; a permit
     * granted as the client closed ends CLIENT_CLOSED at once (its lease runs out in Redis).
     */
    void keep(String name, byte[] id, long sentNanos) {
        String text = PermitIds.text(id);
        Kept permit = new Kept(id, sentNanos);
        if (closed) {
            ended(name, text, permit, HoldEnd.CLIENT_CLOSED);
            return;
        }
        kept.compute(name, (n, permits) -> {
            Map<String, Kept> into = permits != null ? permits : new ConcurrentHashMap<>();
            into.put(text, permit);
            return into;
        });
        if (closed && remove(name, text) == permit) {   // close() ran meanwhile and did not see it
            ended(name, text, permit, HoldEnd.CLIENT_CLOSED);
            return;
        }
        arm.run();
    }

    /** Stops keeping a permit that was given back before anyone knew of it (a grant that came too late). */
    void forget(String name, byte[] id) {
        remove(name, PermitIds.text(id));
    }

    /**
     * Gives back the permit {@code id} with {@code release}, having stopped keeping it first (a renewal after the
     * release must not find it gone and call it lost): a kept permit ends RELEASED when {@code release} answers 1
     * (it was leased; also when too few replicas confirmed the release, which stands on the master), else LOST.
     *
     * @param release sends the release; its answer is the release script's
     * @return {@code release}'s future
     */
    CompletableFuture<Long> releasing(String name, String id, Supplier<CompletableFuture<Long>> release) {
        String text = id.toLowerCase(Locale.ROOT);
        Kept permit = remove(name, text);
        CompletableFuture<Long> answer = Futures.sent(release);
        if (permit != null) {
            answer.whenComplete((released, error) -> {
                Long outcome = error == null ? released : Futures.appliedOnMaster(error, Long.class);
                ended(name, text, permit, Long.valueOf(1).equals(outcome) ? HoldEnd.RELEASED : HoldEnd.LOST);
            });
        } else {
            endings.remove(key(name, text));
        }
        return answer;
    }

    /**
     * How the permit {@code id} kept by this client ended, once it does; how a kept permit ended, when it did and
     * was not given back by this client since; RELEASED at once when this client never kept it.
     */
    CompletableFuture<HoldEnd> end(String name, String id) {
        String text = id.toLowerCase(Locale.ROOT);
        Map<String, Kept> permits = kept.get(name);
        Kept permit = permits == null ? null : permits.get(text);
        if (permit != null) {
            return permit.end;
        }
        HoldEnd how = endings.get(key(name, text));
        return CompletableFuture.completedFuture(how != null ? how : HoldEnd.RELEASED);
    }

    /** Whether this client keeps the permit {@code id} of semaphore {@code name}. */
    boolean keeps(String name, String id) {
        Map<String, Kept> permits = kept.get(name);
        return permits != null && permits.containsKey(id.toLowerCase(Locale.ROOT));
    }

    /** The number of permits kept now. */
    public int size() {
        int n = 0;
        for (Map<String, Kept> permits : kept.values()) {
            n += permits.size();
        }
        return n;
    }

    /**
     * One renewal pass over every kept permit, but those of a semaphore whose renewal is still on its way; the future
     * completes when every call settled.
     */
    public CompletableFuture<Void> renewNow() {
        List<CompletableFuture<Void>> calls = new ArrayList<>();
        long now = System.nanoTime();
        for (Map.Entry<String, Map<String, Kept>> semaphore : kept.entrySet()) {
            String name = semaphore.getKey();
            if (!renewing.add(name)) {
                continue;
            }
            List<CompletableFuture<Void>> batches = new ArrayList<>();
            List<Kept> batch = new ArrayList<>();
            for (Kept permit : semaphore.getValue().values()) {
                batch.add(permit);
                if (batch.size() == BATCH) {
                    batches.add(renew(name, batch, now));
                    batch = new ArrayList<>();
                }
            }
            if (!batch.isEmpty()) {
                batches.add(renew(name, batch, now));
            }
            CompletableFuture<Void> all = CompletableFuture.allOf(batches.toArray(new CompletableFuture<?>[0]));
            all.whenComplete((v, e) -> renewing.remove(name));
            calls.add(all);
        }
        return CompletableFuture.allOf(calls.toArray(new CompletableFuture<?>[0]));
    }

    /** The client closed: nothing is renewed any more, and every kept permit ends CLIENT_CLOSED. */
    public void close() {
        closed = true;
        for (Map.Entry<String, Map<String, Kept>> semaphore : kept.entrySet()) {
            for (String id : new ArrayList<>(semaphore.getValue().keySet())) {
                Kept permit = remove(semaphore.getKey(), id);
                if (permit != null) {
                    ended(semaphore.getKey(), id, permit, HoldEnd.CLIENT_CLOSED);
                }
            }
        }
    }

    private CompletableFuture<Void> renew(String name, List<Kept> batch, long sentNanos) {
        List<byte[]> ids = new ArrayList<>(batch.size());
        for (Kept permit : batch) {
            ids.add(permit.id);
        }
        return Futures.sent(() -> ExpirableScripts.renew(topology, name, ids, leaseMillis))
                .handle((outcome, error) -> {
                    settle(name, batch, outcome, error, sentNanos);
                    return null;
                });
    }

    private void settle(String name, List<Kept> batch, String outcome, Throwable error, long sentNanos) {
        String applied = error == null ? null : Futures.appliedOnMaster(error, String.class);
        if (applied != null) {
            outcome = applied;   // renewed on the master; too few replicas confirmed it, as for a lock's renewal
            error = null;
        }
        boolean answered = error == null && outcome != null && outcome.length() == batch.size();
        int lost = 0;
        long now = System.nanoTime();
        for (int i = 0; i < batch.size(); i++) {
            Kept permit = batch.get(i);
            if (answered && outcome.charAt(i) == '1') {
                permit.confirmed(sentNanos);
                continue;
            }
            if (!answered && !permit.leaseRanOut(now, TimeUnit.MILLISECONDS.toNanos(leaseMillis))) {
                continue;   // Redis unreachable (or an answer not understood): tried again next pass
            }
            String id = PermitIds.text(permit.id);
            if (remove(name, id) == permit) {
                lost++;
                log.warn("permit-expirable semaphore {}: permit {} {}", name, id, answered
                        ? "was gone when the watchdog renewed it (its lease ran out, or someone gave it back)"
                        : "could not be renewed before its lease ran out (" + (error != null ? error : outcome) + ")");
                ended(name, id, permit, HoldEnd.LOST);
            }
        }
        if (listener != null && answered) {
            try {
                listener.renewed(batch.size(), lost, now - sentNanos);
            } catch (RuntimeException e) {
                log.warn("the listener failed: {}", e.toString());
            }
        }
    }

    private Kept remove(String name, String id) {
        Kept[] removed = new Kept[1];
        kept.computeIfPresent(name, (n, permits) -> {
            removed[0] = permits.remove(id);
            return permits.isEmpty() ? null : permits;
        });
        return removed[0];
    }

    private static String key(String name, String id) {
        return id + ' ' + name;
    }

    private void ended(String name, String id, Kept permit, HoldEnd how) {
        if (!permit.end.complete(how)) {
            return;
        }
        if (how != HoldEnd.RELEASED) {
            if (endings.size() >= MAX_REMEMBERED) {
                Iterator<String> oldest = endings.keySet().iterator();
                if (oldest.hasNext()) {
                    oldest.next();
                    oldest.remove();
                }
            }
            endings.put(key(name, id), how);
        }
        if (listener == null) {
            return;
        }
        try {
            listener.holdEnded(KIND, name, how, System.nanoTime() - permit.sinceNanos);
        } catch (RuntimeException e) {
            log.warn("the listener failed: {}", e.toString());
        }
    }
}
