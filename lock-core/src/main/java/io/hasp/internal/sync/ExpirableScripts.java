package io.hasp.internal.sync;

import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.internal.topology.Topology;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Typed calls of the permit-expirable semaphore's scripts, in the layout Redisson's {@code RPermitExpirableSemaphore}
 * (3.x and 4.x) uses: the free permits a decimal string at the semaphore's name, each leased permit a member of the
 * sorted set {@code {<name>}:timeout} (its id's 16 bytes) scored by the end of its lease in epoch milliseconds, and
 * permits that come back announced on the plain semaphore's channel {@code redisson_sc:{<name>}}. Each script is
 * {@code leases.lua} (the layout and the reclaiming of leases that ran out) followed by its own file.
 */
final class ExpirableScripts {

    /** The answer of {@link #acquire} when the ids hold their permits. */
    static final long LEASED = -1;

    private static final Script ACQUIRE = compose("expirable_acquire.lua");
    private static final Script RELEASE = compose("expirable_release.lua");
    private static final Script UPDATE = compose("expirable_update.lua");
    private static final Script AVAILABLE = compose("expirable_available.lua");
    private static final Script RENEW = compose("expirable_renew.lua");

    private ExpirableScripts() {
    }

    private static Script compose(String operation) {
        String leases = Script.fromResource(ExpirableScripts.class, "leases.lua").text();
        return Script.of(operation, leases + "\n" + Script.fromResource(ExpirableScripts.class, operation).text());
    }

    /** The sorted set of semaphore {@code name}'s leases: {@code {<name>}:timeout}, or {@code <name>:timeout}. */
    static String leases(String name) {
        return name.indexOf('{') >= 0 ? name + ":timeout" : '{' + name + "}:timeout";
    }

    /**
     * Leases one permit for {@code id} for {@code leaseMillis} when one is free.
     *
     * @return a future of {@link #LEASED} when {@code id} holds a permit after the call; else of how many milliseconds
     *     remain until the first lease that can run out does (0: none can)
     */
    static CompletableFuture<Long> acquire(Topology topology, String name, byte[] id, long leaseMillis) {
        return topology.commands().evalsha(ACQUIRE, Replies.LONG, keys(name), leaseMillis,
                topology.channelKind().publishCommand(), id);
    }

    /** Gives back the permit of {@code id}: 1 when it was leased, 2 when its lease had run out, 0 when none is. */
    static CompletableFuture<Long> release(Topology topology, String name, byte[] id) {
        return topology.commands().evalsha(RELEASE, Replies.LONG, keys(name), id,
                topology.channelKind().publishCommand());
    }

    /** Sets the lease of {@code id}'s permit to {@code leaseMillis} from now; {@code true} when it was leased. */
    static CompletableFuture<Boolean> update(Topology topology, String name, byte[] id, long leaseMillis) {
        return topology.commands().evalsha(UPDATE, Replies.BOOLEAN, keys(name), id, leaseMillis,
                topology.channelKind().publishCommand());
    }

    /** The number of free permits once leases that ran out are reclaimed. */
    static CompletableFuture<Long> available(Topology topology, String name) {
        return topology.commands().evalsha(AVAILABLE, Replies.LONG, keys(name),
                topology.channelKind().publishCommand());
    }

    /**
     * Renews the leases of {@code ids} for {@code leaseMillis} from now: one character per id, {@code '1'} when its
     * permit was leased, {@code '0'} when it is gone.
     */
    static CompletableFuture<String> renew(Topology topology, String name, List<byte[]> ids, long leaseMillis) {
        Object[] args = new Object[ids.size() + 2];
        args[0] = leaseMillis;
        args[1] = topology.channelKind().publishCommand();
        for (int i = 0; i < ids.size(); i++) {
            args[i + 2] = ids.get(i);
        }
        return topology.commands().evalsha(RENEW, Replies.STRING, keys(name), args);
    }

    private static List<String> keys(String name) {
        return List.of(name, leases(name), SemaphoreScripts.channel(name));
    }
}
