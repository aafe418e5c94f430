package io.hasp.internal.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspConfig;
import io.hasp.Replies;
import io.hasp.resp.CommandName;
import io.hasp.testing.RedisServer;
import io.hasp.testing.WithRedisServer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The direct path asks its {@link CallerAdmission} (here a fake, no lock call involved) before it takes a
 * command: without a turn, with more competing callers than direct connections, or past the caller's
 * deadline, it sends nothing and leaves the command to the event loop; otherwise the calling thread runs it.
 */
@WithRedisServer
class DirectAdmissionTest {

    private static final CommandName ECHO = CommandName.of("ECHO");

    private ClientRig rig;
    private DirectConnections direct;
    private final FakeAdmission admission = new FakeAdmission();

    /** Answers what the test sets. */
    private static final class FakeAdmission implements CallerAdmission {
        volatile boolean turn;
        volatile int competing;
        volatile long deadline;
        int turnsTaken;

        @Override
        public boolean takeTurn() {
            if (!turn) {
                return false;
            }
            turnsTaken++;
            return true;
        }

        @Override
        public int competingCallers() {
            return competing;
        }

        @Override
        public long deadline() {
            return deadline;
        }
    }

    @BeforeEach
    void connect(RedisServer redis) throws Exception {
        HaspConfig config = HaspConfig.builder().uri(redis.uri()).directConnections(2).build();
        rig = new ClientRig(config, 1);
        RedisConnection connection = rig.connect(config);
        direct = new DirectConnections(config, new ConnectionPool(List.of(connection)), rig.timer, admission);
    }

    @AfterEach
    void close() throws Exception {
        direct.close();
        rig.close();
    }

    private static StringArgsCommand<String> echo(String text) {
        return new StringArgsCommand<>(Replies.STRING, ECHO, text);
    }

    @Test
    void aCallerWithItsTurnRunsTheCommandOnItsOwnThread() throws Exception {
        admission.turn = true;
        admission.competing = 2;   // as many as there are direct connections: still worth it
        StringArgsCommand<String> command = echo("direct");
        assertTrue(direct.tryCall(command), "taken");
        assertTrue(command.isDone(), "complete on return: the caller read the reply itself");
        assertEquals("direct", command.get(10, TimeUnit.SECONDS));
        assertEquals(1, direct.calls());
        assertEquals(1, admission.turnsTaken);
    }

    @Test
    void withoutATurnNothingIsSent() {
        admission.turn = false;
        assertFalse(direct.tryCall(echo("no turn")));
        assertEquals(0, direct.calls());
        assertEquals(0, direct.openConnections(), "not even a connection opened");
    }

    @Test
    void moreCompetingCallersThanConnectionsLeaveItToTheEventLoop() {
        admission.turn = true;
        admission.competing = 3;
        assertFalse(direct.tryCall(echo("crowded")));
        assertEquals(0, direct.calls());
    }

    @Test
    void aCallWhoseDeadlinePassedIsLeftToTheEventLoop() {
        admission.turn = true;
        admission.competing = 1;
        admission.deadline = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(1);
        assertFalse(direct.tryCall(echo("late")));
        assertEquals(0, direct.calls());
    }
}
