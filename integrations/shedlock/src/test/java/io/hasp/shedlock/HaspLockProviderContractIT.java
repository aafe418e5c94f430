package io.hasp.shedlock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import java.time.Duration;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.test.support.AbstractExtensibleLockProviderIntegrationTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * ShedLock's own test kit for extensible lock providers ({@code shedlock-test-support}), run against
 * {@link HaspLockProvider} on a real redis-server: locking, no second lock, independent locks, the
 * lease running out, {@code lockAtLeastFor}, extension (also of an unlocked or expired lock), and
 * its fuzz test of 8 threads sharing two jobs. The client's timer ticks every millisecond, since the
 * kit takes locks for 2 ms.
 */
class HaspLockProviderContractIT extends AbstractExtensibleLockProviderIntegrationTest {

    private static RedisServer server;
    private static HaspClient client;
    private static HaspLockProvider provider;

    @BeforeAll
    static void start() {
        server = RedisServer.builder().name("shedlock-contract").start();
        client = HaspClient.create(HaspConfig.builder().uri(server.uri()).timerTick(Duration.ofMillis(1)).build());
        provider = new HaspLockProvider(client);
    }

    @AfterAll
    static void stop() {
        try {
            client.close();
        } finally {
            server.close();
        }
    }

    @Override
    protected ExtensibleLockProvider getLockProvider() {
        return provider;
    }

    @Override
    protected void assertUnlocked(String lockName) {
        assertEquals(0L, exists(lockName), "ShedLock lock " + lockName + " is free");
    }

    @Override
    protected void assertLocked(String lockName) {
        assertEquals(1L, exists(lockName), "ShedLock lock " + lockName + " is held");
    }

    private static long exists(String lockName) {
        try (RedisProbe probe = server.probe()) {
            return (Long) probe.call("EXISTS", HaspLockProvider.DEFAULT_PREFIX + lockName);
        }
    }
}
