package io.hasp.internal.topology;

import io.hasp.RedisCommands;
import io.hasp.ReplicaAcks;
import io.hasp.internal.connection.DirectConnections;
import io.hasp.internal.pubsub.ChannelKind;
import io.hasp.internal.pubsub.PubSub;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Where a client's locks live and how it reaches them: one Redis server ({@link SingleServer}) or a
 * Redis Cluster ({@code ClusterTopology}). A {@code HaspClient} holds exactly one, chosen from its
 * configuration; the lock engine asks it for everything that differs between deployments, so that
 * neither the client nor the engine tells topologies apart.
 *
 * <p>What a topology provides, and what a new one (Sentinel, say) implements:
 * <ul>
 *   <li>{@link #commands()}: every keyed command and script call reaches the server that serves its key;</li>
 *   <li>{@link #pubSub()} and {@link #channelKind()}: where waiters listen for unlock messages, and on
 *       which kind of channel the scripts publish them;</li>
 *   <li>{@link #batchGroup} and {@link #send(KeyBatch)}: how the watchdog's batches over many locks are
 *       grouped and sent (one call per server);</li>
 *   <li>{@link #knownDown}: whether a command on a key would only wait for a reconnect now;</li>
 *   <li>{@link #commandsInFlight()}: how many commands its connections hold now;</li>
 *   <li>{@link #onMastersMoved}: telling the engine that holds may have moved with a master;</li>
 *   <li>{@link #start()} and {@link #close()}: connecting (and upkeep, such as topology refreshes), and
 *       stopping all of it.</li>
 * </ul>
 * Implementations are thread-safe and never block.
 */
public interface Topology {

    /** The commands of the client: each keyed command and script call goes to the server that serves its key. */
    RedisCommands commands();

    /**
     * The commands of each master, unrouted, for work that must visit every one (a SCAN of all keys): on one
     * server its commands, on a cluster each master's as the client's view knows them now.
     */
    default List<RedisCommands> masterCommands() {
        return List.of(commands());
    }

    /** The client's subscriptions to unlock channels. */
    PubSub pubSub();

    /**
     * The kind of channel unlock messages travel on: what the lock scripts publish with and waiters
     * subscribe to. Settled once {@link #start()} completed.
     */
    ChannelKind channelKind();

    /**
     * Whether a publish counts every listener of its channel, so that a lock's release can tell whether the
     * process it gives the turn to still listens: true (the default) on one server, a Sentinel-watched master and
     * a cluster's sharded channels; false on a cluster whose classic channels reach listeners through other nodes,
     * where the count is the lock's node's alone (there the processes waiting for a lock take no turns).
     */
    default boolean publishCountsListeners() {
        return true;
    }

    /**
     * Which batch a per-key call on {@code key} may join: keys of one group can travel in one call
     * ({@link #send(KeyBatch)}). Groups are compared with {@code equals}.
     */
    Object batchGroup(String key);

    /**
     * Sends {@code batch}, whose keys share one {@link #batchGroup}, and answers one character per
     * key, in order. A topology may split the batch (and does when its view of the servers is behind);
     * a key's {@code '0'} is only answered on the word of the server that serves the key.
     */
    CompletableFuture<String> send(KeyBatch batch);

    /**
     * Runs {@code listener} whenever the server that serves some keys changed (a failover, a master
     * switch, a moved slot), with what changed in words: holds kept there may be gone, and the lock
     * engine checks them at once instead of at its next watchdog pass, and says that change when it
     * reports a hold lost. One listener, the client's lock engine; it runs on an event-loop or timer
     * thread and must not block.
     */
    void onMastersMoved(Consumer<String> listener);

    /**
     * Whether a command on {@code key} has nowhere to go now: every connection to the server that serves
     * the key is lost (and reconnecting), or no server of the key is known. A snapshot.
     */
    boolean knownDown(String key);

    /**
     * How many replicas must confirm each script the client sends ({@link ReplicaAcks}): then a script's
     * future completes only once they did, and fails with {@link io.hasp.ReplicaAcksException} when too few
     * did in time. {@link ReplicaAcks#NONE} by default.
     */
    default ReplicaAcks replicaAcks() {
        return ReplicaAcks.NONE;
    }

    /**
     * The commands of {@link #commands()}, with each script confirmed by {@code acks} instead of the
     * client's {@link #replicaAcks()}: for a lock that asks its own. Made once per setting.
     *
     * @throws UnsupportedOperationException when this topology cannot confirm scripts otherwise
     */
    default RedisCommands commands(ReplicaAcks acks) {
        if (acks.equals(replicaAcks())) {
            return commands();
        }
        throw new UnsupportedOperationException(this + " confirms scripts only as its client does");
    }

    /**
     * The direct connections on which blocking lock calls read their own replies.
     *
     * @return {@code null} when this topology has none (a cluster, TLS, a Unix socket, or turned off)
     */
    DirectConnections direct();

    /**
     * How many commands the client's command connections hold now, sent or queued and not answered yet,
     * on every server of the topology (direct calls included; subscriptions are not commands). A snapshot
     * read from the connections, which count nothing per command; for monitoring.
     */
    int commandsInFlight();

    /**
     * Connects: completes once the topology can serve commands and subscriptions; fails with the reason
     * when it cannot. Called once.
     */
    CompletableFuture<Void> start();

    /**
     * Stops its upkeep and closes its connections: pending and later commands fail with
     * {@link io.hasp.RedisClosedException}. Idempotent.
     *
     * @return completes once every connection is closed
     */
    CompletableFuture<Void> close();
}
