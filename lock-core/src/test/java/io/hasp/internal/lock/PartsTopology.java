package io.hasp.internal.lock;

import io.hasp.RedisCommands;
import io.hasp.internal.connection.DirectConnections;
import io.hasp.internal.pubsub.ChannelKind;
import io.hasp.internal.pubsub.PubSub;
import io.hasp.internal.topology.KeyBatch;
import io.hasp.internal.topology.Topology;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A one-server {@link Topology} made of given parts (and a master change the test announces), for engine tests that put their own commands
 * (counting, proxied, recording) or another client's subscriptions under a {@link LockService}. It
 * starts and closes nothing: the parts belong to the test's clients.
 */
final class PartsTopology implements Topology {

    private static final Object ONE_SERVER = "the one server";

    private final RedisCommands commands;
    private final PubSub pubSub;
    private volatile Consumer<String> mastersMoved = why -> { };

    PartsTopology(RedisCommands commands, PubSub pubSub) {
        this.commands = commands;
        this.pubSub = pubSub;
    }

    @Override
    public RedisCommands commands() {
        return commands;
    }

    @Override
    public PubSub pubSub() {
        return pubSub;
    }

    /** Tells the engine, as a topology would after a failover, that some keys have another master now. */
    void mastersMoved(String why) {
        mastersMoved.accept(why);
    }

    @Override
    public void onMastersMoved(Consumer<String> listener) {
        this.mastersMoved = listener;
    }

    @Override
    public ChannelKind channelKind() {
        return ChannelKind.CLASSIC;
    }

    /** One group (not this object: a group is compared by its hash, and a test's commands may be a proxy). */
    @Override
    public Object batchGroup(String key) {
        return ONE_SERVER;
    }

    @Override
    public CompletableFuture<String> send(KeyBatch batch) {
        return batch.send(commands, /* keysDeclared= */ true);
    }

    @Override
    public boolean knownDown(String key) {
        return false;
    }

    @Override
    public DirectConnections direct() {
        return null;
    }

    @Override
    public CompletableFuture<Void> start() {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<Void> close() {
        return CompletableFuture.completedFuture(null);
    }

    /** The parts' connections belong to the test's clients: none of this topology's own. */
    @Override
    public int commandsInFlight() {
        return 0;
    }
}
