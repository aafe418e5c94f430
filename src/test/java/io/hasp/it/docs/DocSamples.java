package io.hasp.it.docs;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.ReplicaAcks;
import io.hasp.ReplicaAcksException;
import io.hasp.annotation.LockKey;
import io.hasp.annotation.LockOptions;
import io.hasp.annotation.LockTemplate;
import io.hasp.annotation.Locked;
import io.hasp.annotation.LockedProxies;
import io.hasp.annotation.WhenUnavailable;
import io.hasp.lock.FencedLock;
import io.hasp.lock.HaspLock;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.HoldLostException;
import io.hasp.lock.LockOwner;
import io.hasp.lock.MultiLock;
import io.hasp.lock.RedLock;
import io.hasp.lock.rw.HaspReadWriteLock;
import io.hasp.lock.rw.HaspReadWriteLocks;
import io.hasp.sync.HaspCountDownLatch;
import io.hasp.sync.HaspPermitExpirableSemaphore;
import io.hasp.sync.HaspSemaphore;
import io.hasp.micrometer.HaspMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.hasp.shedlock.HaspLockProvider;
import io.hasp.spring.integration.HaspLockRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import org.springframework.integration.support.locks.DistributedLock;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * The Java samples of README.md and docs/, as compiled code: each region between {@code // begin-sample: <id>}
 * and {@code // end-sample: <id>} is what a page shows under {@code <!-- sample: <this file> <id> -->}, and
 * {@code DocSamplesTest} fails when the two differ. {@code DocSamplesIT} runs each sample against real
 * redis-servers, so a sample that stops compiling or working fails the build. The helpers below the samples
 * (the work a sample protects) record what the samples did, for the test to check.
 */
public final class DocSamples {

    private DocSamples() {
    }

    /** What the samples' protected work did: how often each step ran. */
    public static final ConcurrentHashMap<String, AtomicInteger> RAN = new ConcurrentHashMap<>();

    /** The quick start of README.md; {@code uri} is a redis:// URI, as "redis://127.0.0.1:6379". */
    public static void quickStart(String uri) throws Exception {
        // begin-sample: quick-start
        try (HaspClient client = HaspClient.create(uri)) {   // uri: "redis://127.0.0.1:6379"
            HaspLock lock = client.getLock("orders:42");    // same key and layout as redisson.getLock("orders:42")

            lock.lock();                                     // watchdog lease: renewed while held
            try {
                exclusiveWork();
            } finally {
                lock.unlock();
            }

            if (lock.tryLock(Duration.ofSeconds(2), Duration.ofSeconds(10))) {   // wait up to 2 s, lease 10 s
                try { exclusiveWork(); } finally { lock.unlock(); }
            }

            // Async: no thread waits; the owner is explicit because continuations run on other threads.
            LockOwner owner = lock.owner(7);
            lock.tryLockAsync(Duration.ofSeconds(2), owner)
                .thenCompose(acquired -> acquired ? doWork().thenCompose(r -> lock.unlockAsync(owner))
                                                  : CompletableFuture.completedFuture(null))
                .get(10, TimeUnit.SECONDS);

            // A watchdog hold that is lost (renewal found it gone, or Redis unreachable past the lease):
            lock.lock();
            lock.holdEnd().thenAccept(end -> { if (end == HoldEnd.LOST) { stopTheProtectedWork(); } });
            lock.unlock();

            // A fixed lease whose work runs long: extend it while still held (false: the hold had ended).
            if (lock.tryLock(Duration.ZERO, Duration.ofSeconds(30))) {
                try {
                    while (moreBatches()) {
                        process();
                        if (!lock.extend(Duration.ofSeconds(30))) { break; }   // lost: stop, it is unprotected
                    }
                } finally {
                    try { lock.unlock(); } catch (HoldLostException ended) { /* the lease ran out first */ }
                }
            }
        }
        // end-sample: quick-start
    }

    /** docs/connecting.md: a Redis Cluster; {@code uri} is a redis-cluster:// URI. */
    public static void cluster(String uri) {
        // begin-sample: cluster
        try (HaspClient client = HaspClient.create(uri)) {   // "redis-cluster://10.0.0.1:7000,10.0.0.2:7000,10.0.0.3:7000"
            HaspLock lock = client.getLock("orders:42");     // its keys share the {orders:42} slot
            lock.lock();
            try { exclusiveWork(); } finally { lock.unlock(); }
        }
        // end-sample: cluster
    }

    /** docs/connecting.md: a master that Redis Sentinel watches; {@code uri} is a redis-sentinel:// URI. */
    public static void sentinel(String uri) {
        // begin-sample: sentinel
        try (HaspClient client = HaspClient.create(uri)) {   // "redis-sentinel://:secret@10.0.0.1,10.0.0.2,10.0.0.3#mymaster"
            HaspLock lock = client.getLock("orders:42");     // on the master the sentinels name, then on each new one
            lock.lock();
            try { exclusiveWork(); } finally { lock.unlock(); }
        }
        // end-sample: sentinel
    }

    /** docs/locks.md: a client whose grants a replica must confirm. */
    public static void replicaAcks(String uri) throws Exception {
        // begin-sample: replica-acks
        HaspConfig config = HaspConfig.builder().uri(uri)                 // a master, Sentinel or Cluster URI
                .replicaAcks(ReplicaAcks.of(1, Duration.ofMillis(100)))  // 1 replica confirms each write within 100 ms
                .build();
        try (HaspClient client = HaspClient.create(config)) {
            HaspLock lock = client.getLock("payments:7");
            try {
                if (lock.tryLock(Duration.ofSeconds(2), Duration.ofMinutes(1))) {
                    try { exclusiveWork(); } finally { lock.unlock(); }
                }
            } catch (ReplicaAcksException e) {                            // no replica confirmed it within the wait
                retryLater();
            }
        }
        // end-sample: replica-acks
    }

    static void retryLater() {
        step("retry-later");
    }

    /** docs/integrations.md: a ShedLock job on hasp, without Spring. */
    public static void shedlock(HaspClient client) {
        // begin-sample: shedlock
        LockProvider provider = new HaspLockProvider(client);                 // locks named "shedlock:<job name>"
        LockingTaskExecutor jobs = new DefaultLockingTaskExecutor(provider);
        jobs.executeWithLock((Runnable) () -> report(),                        // skipped while another instance runs it
                new LockConfiguration(Instant.now(), "report", Duration.ofMinutes(10), Duration.ofSeconds(1)));
        // end-sample: shedlock
    }

    /** docs/integrations.md: Spring Integration's lock registry on hasp. */
    public static void springIntegration(HaspClient client) throws Exception {
        // begin-sample: spring-integration
        LockRegistry<DistributedLock> locks = new HaspLockRegistry(client, "orders");   // locks named "orders:<key>"
        locks.executeLocked("42", () -> ship(42));                     // waits for the lock, runs, unlocks
        DistributedLock lock = locks.obtain("43");
        if (lock.tryLock(Duration.ofSeconds(1), Duration.ofMinutes(5))) {   // wait at most 1 s, hold at most 5 min
            try { ship(43); } finally { lock.unlock(); }
        }
        // end-sample: spring-integration
    }

    static void ship(long orderId) {
        step("ship:" + orderId);
    }

    static void report() {
        step("report");
    }

    /** docs/locks.md: the read/write lock. */
    public static void readWrite(HaspClient client) throws Exception {
        // begin-sample: read-write
        HaspReadWriteLock rw = HaspReadWriteLocks.of(client).get("catalogue");   // or HaspReadWriteLocks.get(client, "catalogue")

        rw.readLock().lock();                      // blocking, watchdog lease; also lockInterruptibly, tryLock(...)
        try { read(); } finally { rw.readLock().unlock(); }

        if (rw.writeLock().tryLock(2, 10, TimeUnit.SECONDS)) {   // wait up to 2 s, lease 10 s (never renewed)
            try { write(); } finally { rw.writeLock().unlock(); }
        }

        LockOwner owner = rw.readLock().owner(42);               // async twins take the owner explicitly
        rw.readLock().lockAsync(owner)
            .thenCompose(held -> rw.readLock().unlockAsync(owner))   // from any thread
            .get(10, TimeUnit.SECONDS);
        // end-sample: read-write
    }

    /** docs/synchronizers.md: the semaphore. */
    public static void semaphore(HaspClient client) throws Exception {
        // begin-sample: semaphore
        HaspSemaphore calls = client.getSemaphore("partner-api");
        calls.trySetPermits(10);                      // once, by whoever comes first: true when it set them

        if (calls.tryAcquire(2, TimeUnit.SECONDS)) {  // wait up to 2 s for one permit
            try { callPartner(); } finally { calls.release(); }
        }

        calls.acquireAsync(3)                          // async twins: acquire, tryAcquire, release, ...
            .thenRun(() -> {
                try { callPartner(); } finally { calls.releaseAsync(3); }
            })
            .get(10, TimeUnit.SECONDS);
        // end-sample: semaphore
    }

    /** docs/synchronizers.md: the permit-expirable semaphore. */
    public static void leasedPermits(HaspClient client) throws Exception {
        // begin-sample: leased-permits
        HaspPermitExpirableSemaphore licences = client.getPermitExpirableSemaphore("render-licences");
        licences.trySetPermits(4);

        // a permit leased for 5 minutes: it comes back by itself if this process dies holding it
        String permit = licences.tryAcquire(Duration.ofSeconds(10), Duration.ofMinutes(5));
        if (permit != null) {
            try {
                renderFirstHalf();
                licences.updateLeaseTime(permit, Duration.ofMinutes(5));   // more time, from now
                renderSecondHalf();
            } finally {
                licences.release(permit);   // by its id, from any thread or process
            }
        }
        // end-sample: leased-permits
    }

    /** docs/synchronizers.md: the count-down latch. */
    public static boolean latch(HaspClient client) throws Exception {
        // begin-sample: latch
        HaspCountDownLatch imported = client.getCountDownLatch("import:2026-11-27");
        imported.trySetCount(3);                         // once per round: true when it set the count

        // each of three workers, in any process:
        importPart();
        imported.countDown();

        if (imported.await(30, TimeUnit.SECONDS)) {      // or await(), awaitAsync(...)
            publishTheImport();
        }
        // end-sample: latch
        return imported.getCount() == 0;
    }

    /** docs/integrations.md: hasp's meters on a Micrometer registry. */
    public static void micrometer(String uri, MeterRegistry registry) throws Exception {
        // begin-sample: micrometer
        HaspMetrics metrics = HaspMetrics.builder().clientName("orders").build();   // every meter's client tag
        HaspClient client = HaspClient.create(HaspConfig.builder().uri(uri).listener(metrics).build());
        metrics.bindTo(registry);      // hasp.lock.acquire, hasp.lock.held, hasp.lock.lost, hasp.lock.renewals, ...
        metrics.watch(client);         // the gauges hasp.locks.held and hasp.commands.in.flight read this client
        // end-sample: micrometer
        try (client) {
            HaspLock lock = client.getLock("orders:42");
            lock.lock();
            try { exclusiveWork(); } finally { lock.unlock(); }
        }
    }

    /** docs/locks.md: the fair lock. */
    public static void fair(HaspClient client) throws Exception {
        // begin-sample: fair
        HaspLock lock = client.getFairLock("settlement");   // the line Redisson's getFairLock("settlement") uses

        lock.lock();                                   // waits in line, then holds with the watchdog lease
        try { settle(); } finally { lock.unlock(); }   // the unlock wakes the head of the line only

        if (lock.tryLock(Duration.ofSeconds(5), Duration.ofSeconds(30))) {   // keeps its place for 5 s at most
            try { settle(); } finally { lock.unlock(); }
        }                                              // false: it has left the line
        // end-sample: fair
    }

    static void settle() {
        step("settle");
    }

    /** docs/locks.md: the fenced lock; {@code stock} stands for the table the token guards. */
    public static void fenced(HaspClient client, Stock stock) throws Exception {
        // begin-sample: fenced
        FencedLock lock = client.getFencedLock("stock:42");
        long token = lock.lockAndGetToken();                 // blocking, watchdog lease
        try {
            // UPDATE stock SET qty = qty - 1, token = ? WHERE id = 42 AND token < ?
            int updated = stock.decrementIfNewer(42, token);
            if (updated == 0) {
                // a newer holder has written: this one's lease ran out while it was paused; stop here
                stopTheProtectedWork();
            }
        } finally {
            lock.unlock();
        }

        OptionalLong maybe = lock.tryLockAndGetToken(Duration.ofSeconds(2), Duration.ofSeconds(30));
        OptionalLong current = lock.getToken();              // the current hold's token, empty when not held
        lock.unlock();
        LockOwner owner = lock.owner(7);                     // async twins take the owner
        lock.lockAndGetTokenAsync(owner)
            .thenCompose(t -> lock.unlockAsync(owner))
            .get(10, TimeUnit.SECONDS);
        // end-sample: fenced
        RAN.computeIfAbsent(maybe.isPresent() && current.equals(maybe) ? "fenced-token" : "fenced-no-token",
                k -> new AtomicInteger()).incrementAndGet();
    }

    /** docs/locks.md: the multi-lock. */
    public static void multiLock(HaspClient client) throws Exception {
        Duration wait = Duration.ofSeconds(2);
        Duration lease = Duration.ofSeconds(30);
        // begin-sample: multi-lock
        MultiLock both = MultiLock.of(client.getLock("account:42"), client.getLock("account:17"));
        if (both.tryLock(Duration.ofSeconds(2), Duration.ofSeconds(30))) {   // one wait for all, a lease each
            try { transfer(17, 42); } finally { both.unlock(); }
        }
        both.lock();                                   // watchdog lease on each member, waits as long as needed
        both.unlock();
        both.tryLockAsync(wait, lease, 7)              // async: holder id 7 on every member's client
            .thenCompose(all -> all ? both.unlockAsync(7) : CompletableFuture.completedFuture(null))
            .get(10, TimeUnit.SECONDS);
        // end-sample: multi-lock
    }

    /** docs/locks.md: RedLock over three independent masters. */
    public static void redLock(HaspClient clientA, HaspClient clientB, HaspClient clientC) throws Exception {
        // begin-sample: redlock
        RedLock lock = RedLock.of("payments:7", clientA, clientB, clientC);
        if (lock.tryLock(Duration.ofSeconds(1), Duration.ofSeconds(10))) {   // wait 1 s, lease 10 s per master
            try { pay(7); } finally { lock.unlock(); }
        }
        lock.lock();
        lock.holdEnd().thenAccept(how -> {   // LOST once fewer than a quorum of masters still hold it
            if (how == HoldEnd.LOST) { stopTheProtectedWork(); }
        });
        lock.unlock();
        // end-sample: redlock
    }

    /** docs/integrations.md: {@code @Locked} methods without a framework. */
    public static void annotation(HaspClient client, Inventory target) throws Exception {
        long orderId = 7;
        // begin-sample: annotation
        LockTemplate locks = new LockTemplate(client);
        Inventory inventory = LockedProxies.create(Inventory.class, target, locks);
        inventory.deduct(42, 1);

        // or any block, with the same options:
        Receipt r = locks.executeLocked("orders:" + orderId, LockOptions.builder().retryCount(0).build(), () -> pay(orderId));
        // end-sample: annotation
        RAN.computeIfAbsent("receipt:" + r.orderId(), k -> new AtomicInteger()).incrementAndGet();
    }

    // begin-sample: annotation-interface
    public interface Inventory {
        // lock "shop:stock:<sku>", the watchdog renewing it; 5 more tries 50-100 ms apart, then LockUnavailableException
        @Locked(prefix = "shop", value = "stock", retryCount = 5, retryInterval = 50)
        int deduct(@LockKey long sku, int quantity);

        // a nightly job that one instance runs: the others skip it
        @Locked(value = "nightly-report", retryCount = 1, whenUnavailable = WhenUnavailable.SKIP)
        void nightlyReport();
    }
    // end-sample: annotation-interface

    /** The table the fenced lock's token guards: a row's update applies only with a newer token. */
    public interface Stock {
        int decrementIfNewer(long id, long token);
    }

    /** A payment's receipt. */
    public record Receipt(long orderId) {
    }

    // ---------------------------------------------------------------- the work the samples protect

    private static void step(String name) {
        RAN.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
    }

    static void exclusiveWork() {
        step("exclusive-work");
    }

    static CompletableFuture<String> doWork() {
        step("async-work");
        return CompletableFuture.completedFuture("done");
    }

    static void stopTheProtectedWork() {
        step("stopped");
    }

    private static final AtomicInteger BATCHES = new AtomicInteger(3);

    static boolean moreBatches() {
        return BATCHES.getAndDecrement() > 0;
    }

    static void process() {
        step("batch");
    }

    static void importPart() {
        step("import-part");
    }

    static void publishTheImport() {
        step("import-published");
    }

    static void callPartner() {
        step("partner-call");
    }

    static void renderFirstHalf() {
        step("render-first-half");
    }

    static void renderSecondHalf() {
        step("render-second-half");
    }

    static void read() {
        step("read");
    }

    static void write() {
        step("write");
    }

    static void transfer(long from, long to) {
        step("transfer");
    }

    static Receipt pay(long orderId) {
        step("pay");
        return new Receipt(orderId);
    }

    /** The sample's ids, for the test that runs them: every region above. */
    public static final List<String> IDS = List.of("quick-start", "cluster", "sentinel", "replica-acks", "shedlock", "spring-integration", "micrometer", "read-write", "semaphore", "leased-permits", "latch", "fair", "fenced", "multi-lock",
            "redlock", "annotation", "annotation-interface");
}
