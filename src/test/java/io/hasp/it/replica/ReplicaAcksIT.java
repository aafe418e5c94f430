package io.hasp.it.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.ReplicaAcks;
import io.hasp.ReplicaAcksException;
import io.hasp.lock.FencedLock;
import io.hasp.lock.HaspLock;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.rw.HaspReadWriteLock;
import io.hasp.lock.rw.HaspReadWriteLocks;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.TcpProxy;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The oldest objection to locks on one Redis master, on a real master and replica: the replica copies
 * the master through a fault proxy, so that a test can hold replication back (a blackholed link: the
 * master's writes never reach the replica), {@code kill -9} the master and promote the stale replica.
 *
 * <p>Without {@link ReplicaAcks} a grant the replica never saw is gone after the promotion: a second
 * client takes the lock while the first still holds it, and a fenced token repeats (the hazard, shown).
 * With them, the same grant is refused and rolled back, or granted late once the replica caught up, and
 * survives the promotion. Each test starts its own master, proxy and replica.
 */
class ReplicaAcksIT {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    /**
     * One replica within a second: long enough that a busy machine's replica confirms the writes the tests expect
     * confirmed (200 ms was not, on a loaded CI host), short enough that each refusal the tests cause is quick.
     */
    private static final ReplicaAcks ONE_REPLICA = ReplicaAcks.of(1, Duration.ofSeconds(1));

    private RedisServer master;
    private TcpProxy link;
    private RedisServer replica;

    @BeforeEach
    void start() {
        master = RedisServer.builder().name("acks-master").start();
        link = TcpProxy.start(master.host(), master.port());
        replica = RedisServer.builder().name("acks-replica").option("replicaof", link.host(), Integer.toString(link.port()))
                .start();
        // Online in the master's eyes (it counts the replica in WAIT) once the replica's first ACK came.
        assertTrue(Conditions.await(DEADLINE, () -> info(master).contains("state=online")), "the replica copies the master");
        // and confirms a write within the clients' second: a replica still settling after its first sync (on a busy
        // machine) would otherwise refuse the first grant a test expects to be confirmed
        assertTrue(Conditions.await(DEADLINE, () -> (Long) call(master, "WAIT", "1", "1000") == 1), "the replica confirms writes");
        call(master, "CONFIG", "RESETSTAT");   // the tests count the clients' WAITs, not this one
    }

    @AfterEach
    void stop() {
        try {
            replica.close();
        } finally {
            try {
                link.close();
            } finally {
                master.close();
            }
        }
    }

    private static String info(RedisServer server) {
        try (RedisProbe probe = server.probe()) {
            return (String) probe.call("INFO", "replication");
        }
    }

    private static Object call(RedisServer server, String... command) {
        try (RedisProbe probe = server.probe()) {
            return probe.call(command);
        }
    }

    private HaspClient client(RedisServer server, ReplicaAcks acks) {
        return HaspClient.create(HaspConfig.builder().uri(server.uri()).replicaAcks(acks).build());
    }

    /** The master dies with writes the replica never got; the replica becomes the master. */
    private void crashMasterAndPromoteTheReplica() {
        master.kill();
        call(replica, "REPLICAOF", "NO", "ONE");
        assertTrue(Conditions.await(DEADLINE, () -> info(replica).contains("role:master")));
    }

    @Test
    void withoutAcksAGrantTheReplicaNeverSawLetsASecondHolderInAndATokenRepeats() throws Exception {
        try (HaspClient first = client(master, ReplicaAcks.NONE)) {
            link.blackhole(true);
            HaspLock lock = first.getLock("stock");
            assertTrue(lock.tryLock(Duration.ZERO, Duration.ofSeconds(60)));
            long firstToken = first.getFencedLock("payments").tryLockAndGetToken(Duration.ZERO, Duration.ofSeconds(60))
                    .orElseThrow();

            crashMasterAndPromoteTheReplica();
            try (HaspClient second = client(replica, ReplicaAcks.NONE)) {
                assertTrue(second.getLock("stock").tryLock(Duration.ZERO, Duration.ofSeconds(60)),
                        "the promoted replica never had the first grant: a second holder gets in");
                OptionalLong secondToken = second.getFencedLock("payments")
                        .tryLockAndGetToken(Duration.ZERO, Duration.ofSeconds(60));
                assertTrue(secondToken.isPresent());
                assertTrue(secondToken.getAsLong() <= firstToken,
                        "the token went backwards: " + firstToken + " then " + secondToken.getAsLong());
            }
        }
    }

    @Test
    void withAcksAPermitNoReplicaConfirmedIsRefusedAndGivenBack() throws Exception {
        try (HaspClient client = client(master, ONE_REPLICA)) {
            io.hasp.sync.HaspSemaphore plain = client.getSemaphore("permits");
            io.hasp.sync.HaspPermitExpirableSemaphore leased = client.getPermitExpirableSemaphore("leases");
            assertTrue(plain.trySetPermits(2));
            assertTrue(leased.trySetPermits(2));
            assertTrue(plain.tryAcquire(), "taken while the replica confirms");
            plain.release();

            link.blackhole(true);
            java.util.concurrent.ExecutionException refused = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> plain.tryAcquireAsync(1).get(30, java.util.concurrent.TimeUnit.SECONDS));
            assertTrue(refused.getCause() instanceof ReplicaAcksException, String.valueOf(refused.getCause()));
            assertTrue(Conditions.await(DEADLINE, () -> "2".equals(call(master, "GET", "permits"))),
                    "the permit taken on the master is given back");

            refused = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> leased.tryAcquireAsync(Duration.ZERO, Duration.ofMinutes(1)).get(30,
                            java.util.concurrent.TimeUnit.SECONDS));
            assertTrue(refused.getCause() instanceof ReplicaAcksException, String.valueOf(refused.getCause()));
            assertTrue(Conditions.await(DEADLINE, () -> "2".equals(call(master, "GET", "leases"))
                    && Long.valueOf(0).equals(call(master, "EXISTS", "{leases}:timeout"))),
                    "the permit leased on the master is given back, its lease gone");
        }
    }

    @Test
    void withAcksAPermitKeptByTheWatchdogStaysKeptWhileNoReplicaConfirmsItsRenewals() throws Exception {
        try (HaspClient client = HaspClient.create(HaspConfig.builder().uri(master.uri()).replicaAcks(ONE_REPLICA)
                .watchdogLease(Duration.ofMillis(3_000)).build())) {   // renewals that wait 1 s for acks keep it
            io.hasp.sync.HaspPermitExpirableSemaphore leased = client.getPermitExpirableSemaphore("kept");
            assertTrue(leased.trySetPermits(1));
            String id = leased.tryAcquire();
            java.util.concurrent.CompletableFuture<io.hasp.lock.HoldEnd> end = leased.leaseEnd(id);
            link.blackhole(true);
            // Renewals run on the master, but no replica confirms them: as for a lock's, the master's answer stands.
            long start = serverMillis(master);
            assertTrue(Conditions.await(DEADLINE, () -> serverMillis(master) > start + 3 * 3_000));
            assertFalse(end.isDone(), "still kept: " + end);
            assertEquals(1L, call(master, "ZCARD", "{kept}:timeout"), "still leased on the master");
        }
    }

    private static long serverMillis(RedisServer server) {
        java.util.List<?> time = (java.util.List<?>) call(server, "TIME");
        return Long.parseLong((String) time.get(0)) * 1000 + Long.parseLong((String) time.get(1)) / 1000;
    }

    @Test
    void withAcksAGrantNoReplicaConfirmedIsRefusedAndRolledBack() throws Exception {
        try (HaspClient first = client(master, ONE_REPLICA)) {
            HaspLock lock = first.getLock("stock");
            assertTrue(lock.tryLock(Duration.ZERO, Duration.ofSeconds(60)), "granted while the replica confirms");
            lock.unlock();

            link.blackhole(true);
            ReplicaAcksException refused = assertThrows(ReplicaAcksException.class,
                    () -> lock.tryLock(Duration.ofSeconds(5), Duration.ofSeconds(60)));   // refused within it
            assertEquals(0, refused.acknowledged());
            assertEquals(1, refused.required());
            assertTrue(Conditions.await(DEADLINE, () -> (Long) call(master, "EXISTS", "stock") == 0),
                    "the unconfirmed grant was rolled back on the master");
            assertFalse(lock.isHeldByCurrentThread());
            FencedLock fenced = first.getFencedLock("payments");
            assertThrows(ReplicaAcksException.class, () -> fenced.tryLockAndGetToken(Duration.ZERO, Duration.ofSeconds(60)));
            assertEquals(0, first.heldLocks(), "no hold believed");

            crashMasterAndPromoteTheReplica();
            try (HaspClient second = client(replica, ReplicaAcks.NONE)) {
                assertTrue(second.getLock("stock").tryLock(Duration.ZERO, Duration.ofSeconds(60)),
                        "free on the new master, and nobody believes to hold it");
            }
        }
    }

    @Test
    void aReplicaThatComesBackWithinTheWaitConfirmsTheGrantLateAndItSurvivesThePromotion() throws Exception {
        try (HaspClient first = client(master, ONE_REPLICA)) {
            FencedLock fenced = first.getFencedLock("payments");
            long before = fenced.tryLockAndGetToken(Duration.ZERO, Duration.ofSeconds(60)).orElseThrow();
            fenced.unlock();

            link.blackhole(true);
            CompletableFuture<OptionalLong> late = CompletableFuture.supplyAsync(() -> {
                try {
                    return fenced.tryLockAndGetToken(Duration.ofSeconds(20), Duration.ofSeconds(60));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertTrue(Conditions.await(DEADLINE, () -> (Long) call(master, "EXISTS", "payments") == 1),
                    "the grant sits on the master, unconfirmed");
            assertFalse(late.isDone(), "not granted while no replica confirmed it");
            link.blackhole(false);
            long token = late.get(30, TimeUnit.SECONDS).orElseThrow();
            assertTrue(token > before);

            crashMasterAndPromoteTheReplica();
            try (HaspClient second = client(replica, ReplicaAcks.NONE)) {   // the new master has no replica yet
                assertFalse(second.getLock("payments").tryLock(Duration.ZERO, Duration.ofSeconds(60)),
                        "the promoted replica has the confirmed grant: no second holder");
                call(replica, "DEL", "payments");   // the first holder is done (its unlock went to the dead master)
                long next = second.getFencedLock("payments").tryLockAndGetToken(Duration.ZERO, Duration.ofSeconds(60))
                        .orElseThrow();
                assertTrue(next > token, "tokens keep increasing across the failover: " + token + " then " + next);
            }
        }
    }

    @Test
    void aRenewalNoReplicaConfirmedKeepsTheHoldAndIsReported() {
        HaspConfig config = HaspConfig.builder().uri(master.uri()).replicaAcks(ONE_REPLICA)
                .watchdogLease(Duration.ofSeconds(3)).build();
        try (HaspClient client = HaspClient.create(config)) {
            HaspLock lock = client.getLock("stock");
            lock.lock();
            CompletableFuture<HoldEnd> end = lock.holdEnd();
            link.blackhole(true);
            assertTrue(Conditions.await(DEADLINE, () -> client.unconfirmedRenewals() >= 2),
                    "the watchdog's renewals are counted as unconfirmed");
            assertFalse(end.isDone(), "the hold is kept: the master renewed it");
            assertEquals(1L, call(master, "EXISTS", "stock"));
            lock.unlock();   // applied on the master; unconfirmed, but an unlock's loss in a failover only delays the next holder
            assertEquals(0L, call(master, "EXISTS", "stock"));
            assertEquals(HoldEnd.RELEASED, end.getNow(null));
        }
    }

    /** How many WAIT commands the master has run. */
    private long waits() {
        String stats = (String) call(master, "INFO", "commandstats");
        for (String line : stats.split("\r?\n")) {
            if (line.startsWith("cmdstat_wait:calls=")) {
                return Long.parseLong(line.substring("cmdstat_wait:calls=".length(), line.indexOf(',')));
            }
        }
        return 0;
    }

    @Test
    void withoutAcksNoWaitIsSent() throws Exception {
        try (HaspClient client = client(master, ReplicaAcks.NONE)) {
            HaspLock lock = client.getLock("stock");
            lock.lock();
            lock.unlock();
            assertTrue(lock.tryLock(Duration.ZERO, Duration.ofSeconds(5)));
            lock.unlock();
            client.getFencedLock("payments").lockAndGetToken();
            client.getFencedLock("payments").unlock();
            assertEquals(0, waits());
        }
    }

    @Test
    void concurrentLocksShareTheirWaits() {
        try (HaspClient client = client(master, ONE_REPLICA)) {
            int locks = 200;
            java.util.List<CompletableFuture<Boolean>> acquired = new java.util.ArrayList<>();
            for (int i = 0; i < locks; i++) {
                HaspLock lock = client.getLock("stock:" + i);
                acquired.add(lock.tryLockAsync(Duration.ZERO, Duration.ofSeconds(60), lock.owner(1)));
            }
            for (CompletableFuture<Boolean> each : acquired) {
                assertTrue(each.join(), "confirmed by the replica");
            }
            long waits = waits();
            assertTrue(waits >= 1 && waits < locks, waits + " WAITs for " + locks + " acquisitions");
            assertEquals(locks, ((java.util.List<?>) call(replica, "KEYS", "stock:*")).size(), "every grant reached the replica");
        }
    }

    private static final io.hasp.Script MARKED_SET = io.hasp.Script.of("marked_set",
            "redis.call('set', KEYS[1], ARGV[1]) return ARGV[1]");

    @Test
    void aWaitSentOnANewLinkAfterAReconnectConfirmsNothingOfTheOldOne() throws Exception {
        // One pooled connection through a proxy of its own, which the test cuts right behind a reply.
        try (TcpProxy clientLink = TcpProxy.start(master.host(), master.port());
                HaspClient client = HaspClient.create(HaspConfig.builder().uri(clientLink.uri()).poolSize(1)
                        .commandTimeout(Duration.ofSeconds(20)).replicaAcks(ReplicaAcks.of(1, Duration.ofSeconds(2)))
                        .build())) {
            client.commands().evalsha(MARKED_SET, io.hasp.Replies.STRING, java.util.List.of("warm"), "warm")
                    .get(30, TimeUnit.SECONDS);
            link.blackhole(true);   // the replica copies nothing from here on, yet the master still counts it
            assertTrue(Conditions.await(DEADLINE, () -> {
                try (RedisProbe probe = master.probe()) {
                    probe.call("SET", "stalled", "1");
                    return (Long) probe.call("WAIT", "1", "100") == 0;
                }
            }), "the replica confirms nothing any more");
            // y's WAIT holds the connection for its 2 s; x runs right after it, and the next WAIT is to cover x. The
            // link is cut right behind x's reply: that WAIT goes on the new link, which wrote nothing, and is answered
            // at once with every replica the master still counts.
            clientLink.cutAfterReplyContaining("reply-of-x");
            CompletableFuture<String> y = client.commands().evalsha(MARKED_SET, io.hasp.Replies.STRING,
                    java.util.List.of("y"), "reply-of-y");
            CompletableFuture<String> x = client.commands().evalsha(MARKED_SET, io.hasp.Replies.STRING,
                    java.util.List.of("x"), "reply-of-x");
            Throwable yFailed = assertThrows(java.util.concurrent.ExecutionException.class, () -> y.get(30, TimeUnit.SECONDS))
                    .getCause();
            assertTrue(yFailed instanceof ReplicaAcksException, "no replica confirmed y: " + yFailed);
            java.util.concurrent.ExecutionException failed = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> x.get(30, TimeUnit.SECONDS), "x must not be confirmed by a WAIT on another link");
            assertTrue(failed.getCause() instanceof io.hasp.RedisConnectionException, String.valueOf(failed.getCause()));
            assertEquals("reply-of-x", call(master, "GET", "x"), "x ran on the master");
            assertEquals(0L, call(replica, "EXISTS", "x"), "and the replica never got it");
        }
    }

    private static final io.hasp.Script SET = io.hasp.Script.of("counter_set", "return redis.call('set', KEYS[1], ARGV[1])");

    /**
     * Two workers incrementing a counter under the lock (GET, then SET as a script, so that it is confirmed
     * like the lock) until the replica's link is blackholed and each made {@code attemptsWhileCut} more
     * attempts; then the master is killed and the stale replica promoted.
     *
     * @return increments the workers were told were done, and the counter on the promoted replica
     */
    private long[] fleetThroughACrash(ReplicaAcks acks, int attemptsWhileCut) throws Exception {
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicLong done = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicLong attempts = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.ExecutorService workers = java.util.concurrent.Executors.newFixedThreadPool(2);
        try (HaspClient client = client(master, acks)) {
            HaspLock lock = client.getLock("fleet");
            for (int w = 0; w < 2; w++) {
                workers.submit(() -> {
                    while (!stop.get()) {
                        attempts.incrementAndGet();
                        try {
                            if (!lock.tryLock(Duration.ofSeconds(1), Duration.ofSeconds(30))) {
                                continue;
                            }
                            try {
                                String value = client.commands().get("counter").join();
                                long next = (value == null ? 0 : Long.parseLong(value)) + 1;
                                // The same absolute value until confirmed: at most one unconfirmed increment each.
                                while (!stop.get()) {
                                    try {
                                        client.commands().evalsha(SET, io.hasp.Replies.OK, java.util.List.of("counter"),
                                                Long.toString(next)).join();
                                        done.incrementAndGet();
                                        break;
                                    } catch (RuntimeException notConfirmed) {
                                        attempts.incrementAndGet();
                                    }
                                }
                            } finally {
                                lock.unlock();
                            }
                        } catch (InterruptedException e) {
                            return;
                        } catch (RuntimeException notNow) {
                            // not confirmed, or the master is gone: try again
                        }
                    }
                });
            }
            assertTrue(Conditions.await(DEADLINE, () -> done.get() >= 100), "work before the cut");
            link.blackhole(true);
            long cutAt = attempts.get();
            assertTrue(Conditions.await(DEADLINE, () -> attempts.get() >= cutAt + attemptsWhileCut), "work while cut");
            crashMasterAndPromoteTheReplica();
            stop.set(true);
            workers.shutdownNow();
            assertTrue(workers.awaitTermination(30, TimeUnit.SECONDS));
            Object counter = call(replica, "GET", "counter");
            return new long[] {done.get(), counter == null ? 0 : Long.parseLong((String) counter)};
        } finally {
            workers.shutdownNow();
        }
    }

    @Test
    void withoutAcksAFleetLosesIncrementsInACrash() throws Exception {
        long[] lost = fleetThroughACrash(ReplicaAcks.NONE, 40);
        System.out.println("[replica acks] without: " + lost[1] + " of " + lost[0] + " done increments on the promoted replica");
        assertTrue(lost[1] < lost[0], "increments the master confirmed and the replica never got: " + lost[0] + " done, "
                + lost[1] + " on the promoted replica");
    }

    @Test
    void withAcksAFleetLosesNoIncrementInACrash() throws Exception {
        long[] kept = fleetThroughACrash(ONE_REPLICA, 6);
        System.out.println("[replica acks] with: " + kept[1] + " of " + kept[0] + " done increments on the promoted replica");
        // Every done increment is there; besides, each worker's one increment in flight may have reached the
        // replica unconfirmed.
        assertTrue(kept[1] >= kept[0] && kept[1] <= kept[0] + 2, kept[0] + " done, " + kept[1] + " on the promoted replica");
    }

    @Test
    void fsyncConfirmationsNeedWaitaofAndAServerWithoutItIsRefusedAtStart() throws Exception {
        ReplicaAcks fsynced = ONE_REPLICA.withFsync();
        assertTrue(fsynced.fsync());
        assertEquals("ReplicaAcks[1 fsynced within 1000 ms]", fsynced.toString());
        boolean hasWaitAof = master.versionAtLeast(7, 2);
        if (!hasWaitAof) {
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> client(master, fsynced));
            assertTrue(refused.getMessage().contains("WAITAOF") && refused.getMessage().contains("7.2"),
                    refused.getMessage());
            return;
        }
        // Redis 7.2 and later: a replica that writes its append-only file confirms; one that does not, never.
        try (HaspClient client = client(master, fsynced)) {
            HaspLock lock = client.getLock("stock");
            assertThrows(ReplicaAcksException.class, () -> lock.tryLock(Duration.ZERO, Duration.ofSeconds(60)));
            call(replica, "CONFIG", "SET", "appendonly", "yes");
            assertTrue(Conditions.await(DEADLINE, () -> {
                try {
                    return lock.tryLock(Duration.ZERO, Duration.ofSeconds(60));
                } catch (ReplicaAcksException | InterruptedException notYet) {
                    return false;
                }
            }), "confirmed once the replica writes its append-only file");
            lock.unlock();
        }
    }

    @Test
    void aLockAsksItsOwnAcknowledgementsWhateverItsClientAsks() throws Exception {
        link.blackhole(true);
        try (HaspClient plain = client(master, ReplicaAcks.NONE);
                HaspClient confirming = client(master, ONE_REPLICA)) {
            HaspLock confirmed = plain.getLock("stock", ONE_REPLICA);
            assertThrows(ReplicaAcksException.class, () -> confirmed.tryLock(Duration.ZERO, Duration.ofSeconds(60)));
            assertThrows(ReplicaAcksException.class,
                    () -> plain.getFencedLock("payments", ONE_REPLICA).tryLockAndGetToken(Duration.ZERO, Duration.ofSeconds(60)));
            HaspLock other = plain.getLock("other");
            assertTrue(other.tryLock(Duration.ZERO, Duration.ofSeconds(60)), "the client's other locks ask nothing");
            other.unlock();

            HaspLock unconfirmed = confirming.getLock("free", ReplicaAcks.NONE);
            assertTrue(unconfirmed.tryLock(Duration.ZERO, Duration.ofSeconds(60)), "a lock that asks none on a client that asks");
            unconfirmed.unlock();
            assertThrows(ReplicaAcksException.class,
                    () -> confirming.getLock("stock").tryLock(Duration.ZERO, Duration.ofSeconds(60)));
            assertThrows(IllegalArgumentException.class, () -> plain.getLock("stock", null));
        }
        link.blackhole(false);
        try (HaspClient plain = client(master, ReplicaAcks.NONE)) {
            HaspLock confirmed = plain.getLock("stock", ONE_REPLICA);
            assertTrue(Conditions.await(DEADLINE, () -> (Long) call(master, "EXISTS", "stock") == 0), "rolled back");
            assertTrue(confirmed.tryLock(Duration.ofSeconds(5), Duration.ofSeconds(60)), "confirmed once the link is back");
            assertTrue(confirmed.isHeldByCurrentThread());
            link.blackhole(true);
            assertThrows(ReplicaAcksException.class, () -> confirmed.extend(Duration.ofSeconds(120)),
                    "the lock's extensions ask its own confirmations too");
            link.blackhole(false);
            confirmed.unlock();
            IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
                    () -> plain.getLock("x", ReplicaAcks.of(1, Duration.ofSeconds(5))));
            assertTrue(tooLong.getMessage().contains("commandTimeout"), tooLong.getMessage());
        }
    }

    @Test
    void aReadWriteLockAsksItsOwnAcknowledgementsInBothModes() throws Exception {
        link.blackhole(true);
        try (HaspClient plain = client(master, ReplicaAcks.NONE);
                HaspClient confirming = client(master, ONE_REPLICA)) {
            HaspReadWriteLocks locks = HaspReadWriteLocks.of(plain);
            HaspReadWriteLock confirmed = locks.get("catalogue", ONE_REPLICA);
            assertThrows(ReplicaAcksException.class,
                    () -> confirmed.writeLock().tryLock(Duration.ZERO, Duration.ofSeconds(60)));
            assertThrows(ReplicaAcksException.class,
                    () -> confirmed.readLock().tryLock(Duration.ZERO, Duration.ofSeconds(60)));
            HaspReadWriteLock other = locks.get("other");
            assertTrue(other.writeLock().tryLock(Duration.ZERO, Duration.ofSeconds(60)), "the client's other locks ask nothing");
            other.writeLock().unlock();

            HaspReadWriteLock unconfirmed = HaspReadWriteLocks.of(confirming).get("free", ReplicaAcks.NONE);
            assertTrue(unconfirmed.readLock().tryLock(Duration.ZERO, Duration.ofSeconds(60)),
                    "a lock that asks none on a client that asks");
            unconfirmed.readLock().unlock();
            assertThrows(ReplicaAcksException.class, () -> HaspReadWriteLocks.of(confirming).get("catalogue").readLock()
                    .tryLock(Duration.ZERO, Duration.ofSeconds(60)));
            assertThrows(IllegalArgumentException.class, () -> locks.get("catalogue", null));
            assertThrows(IllegalArgumentException.class, () -> locks.get("catalogue", ReplicaAcks.of(1, Duration.ofSeconds(5))));
        }
        link.blackhole(false);
        try (HaspClient plain = client(master, ReplicaAcks.NONE)) {
            HaspReadWriteLock confirmed = HaspReadWriteLocks.of(plain).get("catalogue", ONE_REPLICA);
            assertTrue(Conditions.await(DEADLINE, () -> (Long) call(master, "EXISTS", "catalogue") == 0), "rolled back");
            assertTrue(confirmed.writeLock().tryLock(Duration.ofSeconds(5), Duration.ofSeconds(60)),
                    "confirmed once the link is back");
            // A downgrade: the read lock under the write lock, then the write lock given back.
            assertTrue(confirmed.readLock().tryLock(Duration.ZERO, Duration.ofSeconds(60)));
            confirmed.writeLock().unlock();
            assertEquals(1, HaspReadWriteLocks.of(plain).heldLocks(), "the read hold, counted with the confirmed views");
            link.blackhole(true);
            assertThrows(ReplicaAcksException.class, () -> confirmed.readLock().extend(Duration.ofSeconds(120)),
                    "the mode's extensions ask its own confirmations too");
            link.blackhole(false);
            confirmed.readLock().unlock();
            assertEquals(0L, call(master, "EXISTS", "catalogue"));
        }
    }

    @Test
    void aReentryAndAnExtensionNoReplicaConfirmedFailAndTheHoldStaysAsItWas() throws Exception {
        HaspConfig config = HaspConfig.builder().uri(master.uri()).replicaAcks(ONE_REPLICA)
                .commandTimeout(Duration.ofSeconds(2)).build();
        try (HaspClient client = HaspClient.create(config)) {
            HaspLock lock = client.getLock("stock");
            assertTrue(lock.tryLock(Duration.ZERO, Duration.ofSeconds(60)));
            link.blackhole(true);
            assertThrows(ReplicaAcksException.class, () -> lock.tryLock(Duration.ZERO, Duration.ofSeconds(60)),
                    "a re-entry is a grant too");
            assertTrue(Conditions.await(DEADLINE, () -> "1".equals(call(master, "HGET", "stock",
                    lock.currentOwner().field()))), "the re-entry rolled back to one hold");
            assertEquals(1, lock.getHoldCount());
            assertThrows(ReplicaAcksException.class, () -> lock.extend(Duration.ofSeconds(120)),
                    "an extension no replica confirmed");
            link.blackhole(false);
            assertTrue(lock.extend(Duration.ofSeconds(120)), "confirmed once the link is back");
            assertTrue((Long) call(master, "PTTL", "stock") > 60_000);
            lock.unlock();
            assertEquals(0L, call(master, "EXISTS", "stock"));
        }
    }

    @Test
    void theAcksTimeoutMustBeShorterThanTheCommandTimeout() {
        HaspConfig.Builder builder = HaspConfig.builder().commandTimeout(Duration.ofSeconds(1))
                .replicaAcks(ReplicaAcks.of(1, Duration.ofSeconds(1)));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, builder::build);
        assertTrue(refused.getMessage().contains("commandTimeout"), refused.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ReplicaAcks.of(0, Duration.ofMillis(100)));
        assertThrows(IllegalArgumentException.class, () -> ReplicaAcks.of(1, Duration.ZERO));
        assertFalse(ReplicaAcks.NONE.enabled());
        assertThrows(IllegalStateException.class, ReplicaAcks.NONE::withFsync);
    }
}
