package io.hasp.internal.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspConfig;
import io.hasp.RedisConnectionException;
import io.hasp.ReplicaAcks;
import io.hasp.Replies;
import io.hasp.resp.CommandName;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.TcpProxy;
import io.netty.channel.Channel;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The gate's {@code WAIT} counts for a command only on the link the command's reply came on. A master with a live
 * replica answers a {@code WAIT} on a fresh link at once with every replica (that link wrote nothing), so a
 * {@code WAIT} sent after a reconnect would confirm a write of the old link that no replica may have: the test
 * replaces the link in the one moment that can happen, between a command's reply and the {@code WAIT} behind it.
 */
class ReplicaAckGateTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final CommandName SET = CommandName.of("SET");

    @Test
    void aWaitSentOnANewLinkConfirmsNothingOfACommandAnsweredOnTheOldOne() throws Exception {
        try (RedisServer master = RedisServer.builder().name("gate-master").start();
                RedisServer replica = RedisServer.builder().name("gate-replica")
                        .option("replicaof", master.host(), Integer.toString(master.port())).start();
                RedisProbe probe = master.probe();
                TcpProxy link = TcpProxy.start(master.host(), master.port())) {
            assertTrue(Conditions.await(DEADLINE, () -> {
                probe.call("SET", "warm", "1");
                return (Long) probe.call("WAIT", "1", "100") == 1;
            }), "the replica is attached and confirms");
            HaspConfig config = HaspConfig.builder().uri(link.uri()).build();
            try (ClientRig rig = new ClientRig(config, 1)) {
                RedisConnection connection = rig.connect(config);
                StringArgsCommand<String> set = new StringArgsCommand<>(Replies.STRING, SET, "x", "1");
                Channel[] links = new Channel[2];
                ReplicaAckGate gate = new ReplicaAckGate(connection, () -> {
                    // The command was answered on its link; the link goes, and the connection comes back on a new one
                    // before the WAIT is sent.
                    assertTrue(Conditions.await(DEADLINE, set::isDone), "SET answered");
                    links[0] = channel(connection);
                    link.cutAll();
                    assertTrue(Conditions.await(DEADLINE, () -> {
                        Channel now = channel(connection);
                        return now != null && now != links[0] && now.isActive();
                    }), "reconnected on a new link");
                    links[1] = channel(connection);
                });
                CompletableFuture<String> confirmed = gate.dispatch(set, ReplicaAcks.of(1, Duration.ofSeconds(2)));
                ExecutionException failed = assertThrows(ExecutionException.class,
                        () -> confirmed.get(DEADLINE.toSeconds(), TimeUnit.SECONDS),
                        "a WAIT on the new link must not confirm the SET of the old one");
                assertTrue(failed.getCause() instanceof RedisConnectionException, String.valueOf(failed.getCause()));
                assertTrue(failed.getCause().getMessage().contains("confirms nothing"), failed.getCause().getMessage());
                assertEquals("OK", set.join(), "the SET ran");
                assertTrue(links[0] != links[1]);
            }
        }
    }

    private static Channel channel(RedisConnection connection) {
        try {
            return connection.eventLoop().submit(connection::channel).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
