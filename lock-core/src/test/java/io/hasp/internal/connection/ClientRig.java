package io.hasp.internal.connection;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspConfig;
import io.netty.util.HashedWheelTimer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What a client is made of, without the client: named event-loop and timer threads, the timer and
 * the transport, for tests that build connections (or cluster routing) themselves. Closing it
 * closes the connections it made, shuts the event loops down and checks that every thread ended.
 */
public final class ClientRig implements AutoCloseable {

    public final ClientThreads threads;
    public final HashedWheelTimer timer;
    public final Transport transport;
    private final List<RedisConnection> connections = new ArrayList<>();

    /** A rig with {@code eventLoops} event-loop threads and a 10 ms timer, on the transport {@code config} asks for. */
    public ClientRig(HaspConfig config, int eventLoops) {
        int number = ClientThreads.nextClientNumber();
        threads = new ClientThreads("hasp-io", number);
        timer = new HashedWheelTimer(new ClientThreads("hasp-timer", number), 10, TimeUnit.MILLISECONDS);
        transport = Transport.create(eventLoops, config.nativeTransport(), threads);
    }

    /** A command connection to {@code config}'s server, started and ready. */
    public RedisConnection connect(HaspConfig config) throws Exception {
        RedisConnection connection = new RedisConnection("cmd-0", new Connector(config, transport),
                transport.group().next(), timer, null);
        connections.add(connection);
        connection.start().get(30, TimeUnit.SECONDS);
        return connection;
    }

    @Override
    public void close() throws ExecutionException, TimeoutException {
        try {
            for (RedisConnection connection : connections) {
                connection.close().get(30, TimeUnit.SECONDS);
            }
            transport.group().shutdownGracefully(0, 2, TimeUnit.SECONDS).await(30, TimeUnit.SECONDS);
            timer.stop();
            assertTrue(threads.join(30, TimeUnit.SECONDS), "event-loop threads ended");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while closing the rig", e);
        }
    }
}
