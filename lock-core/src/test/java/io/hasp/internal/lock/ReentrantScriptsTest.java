package io.hasp.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.internal.ClientInternals;
import io.hasp.internal.topology.Topology;
import io.hasp.lock.LockOwner;
import io.hasp.testing.CommandStats;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The reentrant lock's acquire and unlock scripts against a real server: what an uncontended pair costs the
 * server (the commands its scripts run), and what a second send of one unlock request answers, whichever of
 * the two runs first (a re-send travels on another connection and may overtake the first send): the outcome
 * of the one that ran first, read from the latch, never applied a second time.
 */
@ExtendWith(RedisServerExtension.class)
class ReentrantScriptsTest {

    private static final long LEASE = 30_000;
    private static final long LATCH = 60_000;

    private static HaspClient client;
    private static Topology topology;
    private static RedisProbe probe;

    @BeforeAll
    static void start(RedisServer server) {
        client = HaspClient.create(server.uri());
        topology = ClientInternals.topology(client);
        probe = RedisProbe.connect(server.port());
    }

    @AfterAll
    static void stop() {
        client.close();
        probe.close();
    }

    private static String name(TestInfo test) {
        return "reentrant:" + test.getTestMethod().orElseThrow().getName();
    }

    private static AcquireOutcome acquire(String name, LockOwner owner, int target) {
        return ReentrantKind.INSTANCE.acquire(topology, name, owner, LEASE, target).join();
    }

    private static ReleaseOutcome unlock(String name, LockOwner owner, String latch) {
        return ReentrantKind.INSTANCE.release(topology, name, owner, latch, LEASE, LATCH).join();
    }

    /** The commands the server ran between {@code before} and now, without the probe's own INFO. */
    private static Map<String, Long> ranSince(CommandStats before) {
        CommandStats after = CommandStats.parse((String) probe.call("INFO", "commandstats"));
        Map<String, Long> ran = new TreeMap<>();
        for (String command : after.allCalls().keySet()) {
            long calls = after.calls(before, command);
            if (calls > 0 && !command.equals("info")) {
                ran.put(command, calls);
            }
        }
        return ran;
    }

    @Test
    void anUncontendedPairRunsTwelveServerCommands(TestInfo test) {
        String name = name(test);
        LockOwner owner = LockOwner.of("c1", 1);
        acquire(name + ":warm", owner, 1);   // the scripts loaded, the connection settled
        unlock(name + ":warm", owner, name + ":latch:warm");
        CommandStats before = CommandStats.parse((String) probe.call("INFO", "commandstats"));
        assertTrue(acquire(name, owner, 1).acquired());
        assertEquals(ReleaseOutcome.FREED, unlock(name, owner, name + ":latch"));
        assertEquals(new TreeMap<>(Map.of("evalsha", 2L, "exists", 1L, "hset", 1L, "pexpire", 1L, "get", 2L, "hget", 1L,
                "del", 1L, "publish", 1L, "lpop", 1L, "set", 1L)), ranSince(before),
                "acquire: EXISTS, the turn's GET, HSET, PEXPIRE; unlock: the latch's GET, HGET, DEL, PUBLISH, LPOP (an empty"
                        + " line) and the latch's SET");
    }

    @Test
    void aSecondSendAnswersWhatTheFirstDidAndNeverFreesALaterHold(TestInfo test) {
        String name = name(test);
        String latch = name + ":latch";
        LockOwner owner = LockOwner.of("c1", 1);
        acquire(name, owner, 1);
        assertEquals(ReleaseOutcome.FREED, unlock(name, owner, latch));
        assertEquals(ReleaseOutcome.FREED, unlock(name, owner, latch), "the outcome of the send that ran, from its latch");
        acquire(name, owner, 1);   // the same owner holds it again before the other send arrives
        assertEquals(ReleaseOutcome.FREED, unlock(name, owner, latch));
        assertEquals("1", probe.call("HGET", name, owner.field()), "the later hold stays");
    }

    @Test
    void twoSendsOfAnUnlockOfOneOfSeveralHoldsTakeOnlyOne(TestInfo test) {
        String name = name(test);
        String latch = name + ":latch";
        LockOwner owner = LockOwner.of("c1", 1);
        acquire(name, owner, 1);
        acquire(name, owner, 2);
        assertEquals(ReleaseOutcome.STILL_HELD, unlock(name, owner, latch));
        assertEquals(ReleaseOutcome.STILL_HELD, unlock(name, owner, latch));
        assertEquals("1", probe.call("HGET", name, owner.field()), "one hold given back, not two");
    }

    @Test
    void anUnlockOfALockTheOwnerDoesNotHoldChangesNothing(TestInfo test) {
        String name = name(test);
        LockOwner holder = LockOwner.of("c1", 1);
        acquire(name, holder, 1);
        assertEquals(ReleaseOutcome.NOT_HELD, unlock(name, LockOwner.of("c1", 2), name + ":latch"));
        assertEquals("1", probe.call("HGET", name, holder.field()));
        assertNull(probe.call("GET", name + ":latch"), "no outcome recorded for a request that changed nothing");
    }
}
