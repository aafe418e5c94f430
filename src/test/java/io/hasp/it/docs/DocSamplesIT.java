package io.hasp.it.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.sync.HaspCountDownLatch;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisCluster;
import io.hasp.testing.RedisSentinel;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the Java samples of README.md and docs/ ({@link DocSamples}) against real redis-servers: each does
 * the work it protects, and leaves no lock behind. {@code DocSamplesTest} keeps the pages equal to them.
 */
@ExtendWith(RedisServerExtension.class)
class DocSamplesIT {

    private static RedisServer redis;
    private static HaspClient client;

    @BeforeAll
    static void start(RedisServer server) {
        redis = server;
        client = HaspClient.create(server.uri());
    }

    @AfterAll
    static void stop() {
        client.close();
    }

    @BeforeEach
    void forget() {
        DocSamples.RAN.clear();
    }

    private static int ran(String step) {
        AtomicInteger count = DocSamples.RAN.get(step);
        return count == null ? 0 : count.get();
    }

    private static long exists(RedisServer server, String key) {
        try (RedisProbe probe = server.probe()) {
            return (Long) probe.call("EXISTS", key);
        }
    }

    @Test
    void quickStart() throws Exception {
        DocSamples.quickStart(redis.uri());
        assertEquals(2, ran("exclusive-work"));
        assertEquals(1, ran("async-work"));
        assertEquals(3, ran("batch"), "three batches, the lease extended after each");
        assertEquals(0, ran("stopped"), "no hold was lost");
        assertEquals(0L, exists(redis, "orders:42"), "the lock is free");
    }

    @Test
    void readWrite() throws Exception {
        DocSamples.readWrite(client);
        assertEquals(1, ran("read"));
        assertEquals(1, ran("write"));
        assertEquals(0, client.heldLocks());
        assertEquals(0L, exists(redis, "catalogue"));
    }

    @Test
    void semaphore() throws Exception {
        DocSamples.semaphore(client);
        assertEquals(2, ran("partner-call"));
        assertTrue(Conditions.await(Duration.ofSeconds(10),
                () -> client.getSemaphore("partner-api").availablePermits() == 10), "every permit back");
    }

    @Test
    void leasedPermits() throws Exception {
        DocSamples.leasedPermits(client);
        assertEquals(1, ran("render-first-half"));
        assertEquals(1, ran("render-second-half"));
        assertEquals(4, client.getPermitExpirableSemaphore("render-licences").availablePermits(), "the permit back");
        assertEquals(0L, exists(redis, "{render-licences}:timeout"), "no lease left");
    }

    @Test
    void latch() throws Exception {
        // Two workers elsewhere have counted down already; the sample is the third.
        HaspCountDownLatch latch = client.getCountDownLatch("import:2026-11-27");
        CompletableFuture<Boolean> third = CompletableFuture.supplyAsync(() -> {
            try {
                return DocSamples.latch(client);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(Conditions.await(Duration.ofSeconds(10), () -> latch.getCount() > 0 || third.isDone()));
        latch.countDown();
        latch.countDown();
        assertTrue(third.get(30, java.util.concurrent.TimeUnit.SECONDS), "the latch opened");
        assertEquals(1, ran("import-part"));
        assertEquals(1, ran("import-published"));
    }

    @Test
    void micrometer() throws Exception {
        io.micrometer.core.instrument.simple.SimpleMeterRegistry registry = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
        DocSamples.micrometer(redis.uri(), registry);
        assertEquals(1, ran("exclusive-work"));
        assertEquals(1, registry.get("hasp.lock.acquire").tags("client", "orders", "outcome", "acquired").timer().count());
        assertEquals(1, registry.get("hasp.lock.held").tags("end", "released").timer().count());
    }

    @Test
    void fair() throws Exception {
        DocSamples.fair(client);
        assertEquals(2, ran("settle"));
        assertEquals(0, client.getFairLock("settlement").getHoldCount());   // other samples may keep holds of their own
        assertEquals(0L, exists(redis, "settlement"));
    }

    @Test
    void fenced() throws Exception {
        ConcurrentHashMap<Long, Long> rows = new ConcurrentHashMap<>();
        DocSamples.fenced(client, (id, token) -> {
            Long last = rows.get(id);
            if (last != null && last >= token) {
                return 0;
            }
            rows.put(id, token);
            return 1;
        });
        assertEquals(0, ran("stopped"), "the first holder's token is the newest");
        assertEquals(1, ran("fenced-token"), "tryLockAndGetToken's token is the hold's current token");
        assertEquals(0, client.heldLocks());
    }

    @Test
    void multiLock() throws Exception {
        DocSamples.multiLock(client);
        assertEquals(1, ran("transfer"));
        assertEquals(0, client.heldLocks());
        assertEquals(0L, exists(redis, "account:42"));
        assertEquals(0L, exists(redis, "account:17"));
    }

    @Test
    void redLock() throws Exception {
        try (RedisServer b = RedisServer.builder().name("docs-redlock-b").start();
                RedisServer c = RedisServer.builder().name("docs-redlock-c").start();
                HaspClient clientB = HaspClient.create(b.uri());
                HaspClient clientC = HaspClient.create(c.uri())) {
            DocSamples.redLock(client, clientB, clientC);
            assertEquals(1, ran("pay"));
            for (RedisServer master : List.of(redis, b, c)) {
                assertEquals(0L, exists(master, "payments:7"), "released on every master");
            }
        }
    }

    @Test
    void annotation() throws Exception {
        AtomicInteger deducted = new AtomicInteger();
        DocSamples.annotation(client, new DocSamples.Inventory() {
            @Override
            public int deduct(long sku, int quantity) {
                assertTrue(client.getLock("shop:stock:" + sku).isLocked(), "held while the method runs");
                return deducted.addAndGet(quantity);
            }

            @Override
            public void nightlyReport() {
            }
        });
        assertEquals(1, deducted.get());
        assertEquals(1, ran("pay"));
        assertEquals(1, ran("receipt:7"));
        assertEquals(0L, exists(redis, "shop:stock:42"), "the method's lock is given back");
        assertEquals(0L, exists(redis, "orders:7"), "the block's lock is given back");
    }

    @Test
    void cluster() {
        try (RedisCluster cluster = RedisCluster.start()) {
            DocSamples.cluster(cluster.uri());
            assertEquals(1, ran("exclusive-work"));
        }
    }

    @Test
    void shedlock() {
        DocSamples.shedlock(client);
        assertEquals(1, ran("report"));
        assertEquals(1L, exists(redis, "shedlock:report"), "held for lockAtLeastFor after the run");
        DocSamples.shedlock(client);
        assertEquals(1, ran("report"), "a second run within lockAtLeastFor is skipped");
    }

    @Test
    void springIntegration() throws Exception {
        DocSamples.springIntegration(client);
        assertEquals(1, ran("ship:42"));
        assertEquals(1, ran("ship:43"));
        assertEquals(0L, exists(redis, "orders:42"), "executeLocked gave the lock back");
        assertEquals(0L, exists(redis, "orders:43"), "unlock gave the lock back");
    }

    @Test
    void replicaAcks() throws Exception {
        try (RedisServer master = RedisServer.builder().name("docs-acks-master").start();
                RedisServer replica = RedisServer.builder().name("docs-acks-replica")
                        .option("replicaof", master.host(), Integer.toString(master.port())).start();
                RedisProbe probe = master.probe()) {
            assertTrue(Conditions.await(Duration.ofSeconds(30),
                    () -> ((String) probe.call("INFO", "replication")).contains("state=online")));
            DocSamples.replicaAcks(master.uri());
            assertEquals(1, ran("exclusive-work"));
            assertEquals(0, ran("retry-later"));
        }
    }

    @Test
    void sentinel() {
        try (RedisSentinel deployment = RedisSentinel.start()) {
            DocSamples.sentinel(deployment.uri());
            assertEquals(1, ran("exclusive-work"));
        }
    }
}
