package io.hasp.internal.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspConfig;
import io.hasp.Replies;
import io.hasp.resp.CommandName;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A connection's count of commands it took and has not answered ({@link RedisConnection#commandsInFlight()}):
 * commands written to a sleeping server and commands waiting for a lost connection are counted, and the count
 * is back to 0 once their replies (or failures) came.
 */
class CommandsInFlightTest {

    private static final Duration SLACK = Duration.ofSeconds(20);
    private static final CommandName ECHO = CommandName.of("ECHO");

    private static StringArgsCommand<String> echo(String text) {
        return new StringArgsCommand<>(Replies.STRING, ECHO, text);
    }

    @Test
    void commandsWrittenToABusyServerCountUntilTheirRepliesArrive() throws Exception {
        try (RedisServer server = RedisServer.builder().name("in-flight-busy").option("enable-debug-command", "yes").start()) {
            HaspConfig config = HaspConfig.builder().uri(server.uri()).commandTimeout(Duration.ofSeconds(30)).build();
            try (ClientRig rig = new ClientRig(config, 1)) {
                RedisConnection connection = rig.connect(config);
                assertTrue(Conditions.await(SLACK, () -> connection.commandsInFlight() == 0), "idle after the handshake");
                var sleep = connection.dispatch(new StringArgsCommand<>(Replies.VOID, CommandName.of("DEBUG"), "SLEEP", "2"));
                List<Command<String>> echoes = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    echoes.add(connection.dispatch(echo("e" + i)));
                }
                assertTrue(Conditions.await(SLACK, () -> connection.commandsInFlight() == 5 || sleep.isDone()),
                        "the sleep and four echoes in flight: " + connection.commandsInFlight());
                assertFalse(sleep.isDone(), "counted while the server slept");
                sleep.get(30, TimeUnit.SECONDS);
                for (int i = 0; i < echoes.size(); i++) {
                    assertEquals("e" + i, echoes.get(i).get(30, TimeUnit.SECONDS));
                }
                assertTrue(Conditions.await(SLACK, () -> connection.commandsInFlight() == 0),
                        "every reply arrived: " + connection.commandsInFlight());
            }
        }
    }

    @Test
    void commandsWaitingForALostConnectionCountUntilItIsBack() throws Exception {
        try (RedisServer server = RedisServer.builder().name("in-flight-down").start()) {
            HaspConfig config = HaspConfig.builder().uri(server.uri()).commandTimeout(Duration.ofSeconds(60))
                    .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(200), 0.1).build();
            try (ClientRig rig = new ClientRig(config, 1)) {
                RedisConnection connection = rig.connect(config);
                server.kill();
                assertTrue(Conditions.await(SLACK, () -> !connection.isReady()), "the loss noticed");
                List<Command<String>> echoes = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    echoes.add(connection.dispatch(echo("w" + i)));
                }
                assertTrue(Conditions.await(SLACK, () -> connection.commandsInFlight() == 3),
                        "three commands wait for the connection: " + connection.commandsInFlight());
                server.restart();
                for (int i = 0; i < echoes.size(); i++) {
                    assertEquals("w" + i, echoes.get(i).get(30, TimeUnit.SECONDS));
                }
                assertTrue(Conditions.await(SLACK, () -> connection.commandsInFlight() == 0),
                        "every reply arrived: " + connection.commandsInFlight());
            }
        }
    }

    @Test
    void aCallOnADirectConnectionCountsWhileItWaitsForItsReply() throws Exception {
        try (RedisServer server = RedisServer.builder().name("in-flight-direct").option("enable-debug-command", "yes").start()) {
            HaspConfig config = HaspConfig.builder().uri(server.uri()).commandTimeout(Duration.ofSeconds(30)).build();
            try (ClientRig rig = new ClientRig(config, 1)) {
                RedisConnection connection = rig.connect(config);
                DirectConnections direct = new DirectConnections(config, new ConnectionPool(List.of(connection)), rig.timer,
                        new CallerAdmission() {
                            @Override
                            public boolean takeTurn() {
                                return true;
                            }

                            @Override
                            public int competingCallers() {
                                return 1;
                            }

                            @Override
                            public long deadline() {
                                return 0;
                            }
                        });
                try {
                    assertTrue(direct.tryCall(echo("warm")), "a direct connection opened");
                    assertEquals(0, direct.commandsInFlight());
                    var sleep = new StringArgsCommand<>(Replies.VOID, CommandName.of("DEBUG"), "SLEEP", "2");
                    Thread caller = new Thread(() -> direct.tryCall(sleep), "direct-caller");
                    caller.start();
                    assertTrue(Conditions.await(SLACK, () -> direct.commandsInFlight() == 1 || sleep.isDone()),
                            "the call in flight");
                    assertFalse(sleep.isDone(), "counted while the server slept");
                    caller.join(TimeUnit.SECONDS.toMillis(30));
                    assertTrue(sleep.isDone() && !sleep.isCompletedExceptionally(), "the sleep answered");
                    assertEquals(0, direct.commandsInFlight());
                } finally {
                    direct.close();
                }
            }
        }
    }
}
