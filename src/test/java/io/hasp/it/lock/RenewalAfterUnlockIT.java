package io.hasp.it.lock;

import static io.hasp.it.lock.Clients.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.Script;
import io.hasp.internal.lock.LockService;
import io.hasp.lock.HaspLock;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The unlock/renewal race (Redisson issue #7272): with a very short watchdog lease, many
 * lock/unlock cycles, some unlocking right as a renewal pass runs. The server records every
 * command it executes (slow log with a zero threshold), so the order is the server's own: no
 * renewal naming the lock may run between an unlock of it and its next acquisition, nor after the
 * final unlock, and the key stays absent.
 */
@ExtendWith(RedisServerExtension.class)
class RenewalAfterUnlockIT {

    private static final String NAME = "race";
    private static final String SENTINEL = "race-sentinel";
    private static final Duration SLACK = Duration.ofSeconds(60);
    private static final int CYCLES = 40;

    private final Script acquire = opensWithTurns("acquire.lua");
    private final Script unlock = opensWithTurns("unlock.lua");
    private final Script renew = Script.fromResource(LockService.class, "renew.lua");
    private RedisProbe probe;
    private HaspClient client;

    /** A script of the reentrant lock as the client sends it: {@code turns.lua}, then the operation's file. */
    private static Script opensWithTurns(String operation) {
        String turns = Script.fromResource(LockService.class, "turns.lua").text();
        return Script.of(operation, turns + "\n" + Script.fromResource(LockService.class, operation).text());
    }

    /** One lock script call as the server executed it. */
    private record Call(long id, String script, List<String> keys) {
    }

    @BeforeEach
    void start(RedisServer server) {
        probe = RedisProbe.connect(server.port());
        probe.call("CONFIG", "SET", "slowlog-log-slower-than", "0");
        probe.call("CONFIG", "SET", "slowlog-max-len", "100000");
        for (Script script : List.of(acquire, unlock, renew)) {
            probe.call("SCRIPT", "LOAD", script.text());  // no NOSCRIPT round in the log
        }
        probe.call("SLOWLOG", "RESET");
        // Renewals every 300 ms: a loaded machine may be late by 600 ms before a lease runs out.
        client = Clients.hasp(server.uri(), Duration.ofMillis(900));
    }

    @AfterEach
    void stop() {
        client.close();
        probe.close();
    }

    @Test
    void noRenewalReachesRedisAfterAnUnlock() throws Exception {
        HaspLock sentinel = client.getLock(SENTINEL);
        HaspLock lock = client.getLock(NAME);
        sentinel.lock();  // held throughout: its renewals show that passes keep running
        for (int i = 0; i < CYCLES; i++) {
            lock.lock();
            if (i % 2 == 1) {
                // Hold until a renewal pass renewed it, then unlock at once: the next pass may be on its way.
                long before = renewalsOf(NAME);
                await("a renewal of the held lock", SLACK, () -> renewalsOf(NAME) > before);
            }
            lock.unlock();
        }
        List<Call> atFinalUnlock = calls();
        long sentinelRenewals = renewalsOf(SENTINEL);
        await("three renewal passes after the final unlock", SLACK, () -> renewalsOf(SENTINEL) >= sentinelRenewals + 3);

        assertEquals(0L, probe.call("EXISTS", NAME), "the lock stays free");
        List<Call> calls = calls();
        assertTrue(calls.size() > atFinalUnlock.size());
        String state = "free";
        int renewed = 0;
        for (Call call : calls) {
            if (!call.keys().contains(NAME)) {
                continue;
            }
            if (call.script().equals("acquire")) {
                state = "held";
            } else if (call.script().equals("unlock")) {
                state = "free";
            } else if (call.script().equals("renew")) {
                renewed++;
                assertEquals("held", state, "renewal #" + call.id() + " ran after an unlock: " + calls);
            }
        }
        assertTrue(renewed >= CYCLES / 2, "the held cycles were renewed: " + renewed);
        assertEquals(CYCLES, calls.stream().filter(c -> c.script().equals("unlock") && c.keys().contains(NAME)).count());
        sentinel.unlock();
    }

    private long renewalsOf(String name) {
        return calls().stream().filter(c -> c.script().equals("renew") && c.keys().contains(name)).count();
    }

    /** The lock script calls the server executed, oldest first. */
    private List<Call> calls() {
        List<Call> calls = new ArrayList<>();
        for (Object entry : (List<?>) probe.call("SLOWLOG", "GET", "-1")) {
            List<?> fields = (List<?>) entry;
            List<?> args = (List<?>) fields.get(3);
            if (args.size() < 3 || !"EVALSHA".equalsIgnoreCase((String) args.get(0))) {
                continue;
            }
            String sha = (String) args.get(1);
            String script = sha.equalsIgnoreCase(acquire.sha1()) ? "acquire"
                    : sha.equalsIgnoreCase(unlock.sha1()) ? "unlock"
                    : sha.equalsIgnoreCase(renew.sha1()) ? "renew" : "other";
            int numKeys = Integer.parseInt((String) args.get(2));
            List<String> keys = args.subList(3, 3 + numKeys).stream().map(String.class::cast).toList();
            calls.add(new Call((Long) fields.get(0), script, keys));
        }
        Collections.reverse(calls);
        return calls;
    }
}
