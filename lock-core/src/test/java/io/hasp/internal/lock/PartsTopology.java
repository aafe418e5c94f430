package io.hasp.internal.lock;

import io.hasp.RedisCommands;
import io.hasp.internal.connection.DirectConnections;
import io.hasp.internal.pubsub.ChannelKind;
import io.hasp.internal.pubsub.PubSub;
import io.hasp.internal.topology.KeyBatch;
import io.hasp.internal.topology.Topology;
import java.util.concurrent.CompletableFuture;

/**
 * A one-server {@link Topology} made of given parts, for engine tests that put their own commands
 * (counting, proxied, recording) or another client's subscriptions under a {@link LockService}. It
 * starts and closes nothing: the parts belong to the test's clients.
 */
record PartsTopology(RedisCommands commands, PubSub pubSub) implements Topology {

    private static final Object ONE_SERVER = "the one server";

    @Override
    public ChannelKind channelKind() {
        return ChannelKind.CLASSIC;
    }

    /** One group (not this record: its hash would ask the parts, and a test's commands may be a proxy). */
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
}
