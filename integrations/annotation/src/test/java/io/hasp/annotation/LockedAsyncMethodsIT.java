package io.hasp.annotation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.lock.HaspLock;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link Locked} methods that return a {@code CompletableFuture} or {@code CompletionStage}, behind
 * {@link LockedProxies}, on a real redis-server: the lock is held until the returned work ends, not
 * when the method returns; each call is an owner of its own, also two calls from one thread; the
 * work's failure and the caller's cancellation give the lock back.
 */
@ExtendWith(RedisServerExtension.class)
class LockedAsyncMethodsIT {

    private static final long TIMEOUT_SECONDS = 30;

    private static HaspClient client;
    private static RedisProbe probe;
    private static ExecutorService threads;

    @BeforeAll
    static void start(RedisServer server) {
        client = HaspClient.create(server.uri());
        probe = server.probe();
        threads = Executors.newCachedThreadPool();
    }

    @AfterAll
    static void stop() {
        threads.shutdownNow();
        client.close();
        probe.close();
    }

    interface Jobs {
        @Locked(value = "job", waitTime = 20_000, retryCount = 0)
        CompletableFuture<String> run(@LockKey String id, CompletableFuture<String> work);

        @Locked(value = "job", retryCount = 1, retryInterval = 10)
        CompletionStage<String> tryRun(@LockKey String id, CompletableFuture<String> work);

        @Locked(value = "job", retryCount = 1, retryInterval = 10, whenUnavailable = WhenUnavailable.SKIP)
        CompletableFuture<String> runOrSkip(@LockKey String id, CompletableFuture<String> work);
    }

    /** Returns the work it is given: the test decides when that work ends. */
    static final class GivenWork implements Jobs {
        final List<String> started = new CopyOnWriteArrayList<>();

        @Override
        public CompletableFuture<String> run(String id, CompletableFuture<String> work) {
            started.add(id + ":" + work.isDone());
            return work;
        }

        @Override
        public CompletionStage<String> tryRun(String id, CompletableFuture<String> work) {
            return run(id, work);
        }

        @Override
        public CompletableFuture<String> runOrSkip(String id, CompletableFuture<String> work) {
            return run(id, work);
        }
    }

    private static long exists(String key) {
        return (Long) probe.call("EXISTS", key);
    }

    @Test
    void theLockIsHeldUntilTheReturnedWorkEnds() throws Exception {
        GivenWork target = new GivenWork();
        Jobs jobs = LockedProxies.create(Jobs.class, target, new LockTemplate(client));
        List<String> events = new CopyOnWriteArrayList<>();
        CompletableFuture<String> firstWork = CompletableFuture.supplyAsync(() -> {
            events.add("first work ended");
            return "first";
        }, CompletableFuture.delayedExecutor(500, TimeUnit.MILLISECONDS));
        CompletableFuture<String> first = jobs.run("a", firstWork);
        assertEquals(1L, exists("job:a"), "held after the method returned");
        CompletableFuture<CompletableFuture<String>> second = CompletableFuture.supplyAsync(() -> {
            CompletableFuture<String> result = jobs.run("a", CompletableFuture.completedFuture("second"));
            events.add("second call ran");
            return result;
        }, threads);
        assertEquals("first", first.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertEquals("second", second.get(TIMEOUT_SECONDS, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertEquals(List.of("first work ended", "second call ran"), events, "the second caller waited for the first's work");
        assertEquals(0L, exists("job:a"));
    }

    @Test
    void twoCallsFromOneThreadAreTwoOwners() throws Exception {
        GivenWork target = new GivenWork();
        Jobs jobs = LockedProxies.create(Jobs.class, target, new LockTemplate(client));
        CompletableFuture<String> pending = new CompletableFuture<>();
        CompletionStage<String> first = jobs.tryRun("b", pending);
        ExecutionException refused = assertThrows(ExecutionException.class,
                () -> jobs.tryRun("b", CompletableFuture.completedFuture("again")).toCompletableFuture()
                        .get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertInstanceOf(LockUnavailableException.class, refused.getCause(), "the same thread does not re-enter");
        assertEquals(1, target.started.size(), "the refused call did not run");
        assertNull(jobs.runOrSkip("b", CompletableFuture.completedFuture("skipped")).get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertEquals(1, target.started.size(), "the skipped call did not run");
        pending.complete("done");
        assertEquals("done", first.toCompletableFuture().get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertEquals(0L, exists("job:b"));
        HaspLock lock = client.getLock("job:b");
        assertFalse(lock.isLocked());
    }

    @Test
    void aFailedWorkGivesTheLockBackAndFailsTheCall() throws Exception {
        Jobs jobs = LockedProxies.create(Jobs.class, new GivenWork(), new LockTemplate(client));
        IllegalStateException boom = new IllegalStateException("work failed");
        CompletableFuture<String> work = new CompletableFuture<>();
        CompletableFuture<String> call = jobs.run("c", work);
        work.completeExceptionally(boom);
        ExecutionException failed = assertThrows(ExecutionException.class, () -> call.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertSame(boom, failed.getCause());
        assertEquals(0L, exists("job:c"));
    }

    @Test
    void cancellingTheCallCancelsTheWorkAndGivesTheLockBack() {
        Jobs jobs = LockedProxies.create(Jobs.class, new GivenWork(), new LockTemplate(client));
        CompletableFuture<String> work = new CompletableFuture<>();
        CompletableFuture<String> call = jobs.run("d", work);
        assertEquals(1L, exists("job:d"));
        assertTrue(call.cancel(true));
        assertTrue(work.isCancelled(), "the work was cancelled with the call");
        assertThrows(CancellationException.class, work::join);
        assertTrue(Conditions.await(Duration.ofSeconds(TIMEOUT_SECONDS), () -> exists("job:d") == 0L));
    }

    // begin-sample: locked-async
    interface Reports {
        /** Lock "report:<account>" is held until the returned future completes, not until build returns. */
        @Locked(value = "report", waitTime = 10_000)
        CompletableFuture<String> build(@LockKey long account);
    }
    // end-sample: locked-async

    @Test
    void theDocsSampleBuildsOneReportOfAnAccountAtATime() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        Reports reports = LockedProxies.create(Reports.class, account -> CompletableFuture
                .runAsync(() -> events.add("start"), threads)
                .thenRunAsync(() -> events.add("end"), CompletableFuture.delayedExecutor(100, TimeUnit.MILLISECONDS))
                .thenApply(done -> "report " + account), new LockTemplate(client));
        List<CompletableFuture<String>> builds = List.of(
                CompletableFuture.supplyAsync(() -> reports.build(7), threads).thenCompose(f -> f),
                CompletableFuture.supplyAsync(() -> reports.build(7), threads).thenCompose(f -> f));
        for (CompletableFuture<String> build : builds) {
            assertEquals("report 7", build.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        }
        assertEquals(List.of("start", "end", "start", "end"), events);
        assertEquals(0L, exists("report:7"));
    }

    interface OwnFuture {
        @Locked("own")
        MyFuture run();
    }

    static final class MyFuture extends CompletableFuture<String> {
    }

    interface PlainFuture {
        @Locked("plain-future")
        java.util.concurrent.Future<String> run();
    }

    interface FlowPublisher {
        @Locked("flow")
        java.util.concurrent.Flow.Publisher<String> run();
    }

    @Test
    void workThatWouldOutliveItsLockIsRefusedAtStartup() {
        IllegalArgumentException future = assertThrows(IllegalArgumentException.class,
                () -> LockedProxies.create(PlainFuture.class, () -> null, new LockTemplate(client)));
        assertTrue(future.getMessage().startsWith("PlainFuture.run(): @Locked return type: java.util.concurrent.Future"),
                future.getMessage());
        IllegalArgumentException flow = assertThrows(IllegalArgumentException.class,
                () -> LockedProxies.create(FlowPublisher.class, () -> null, new LockTemplate(client)));
        assertTrue(flow.getMessage().contains("would outlive the lock"), flow.getMessage());
    }

    @Test
    void aCompletionStageOfAnotherTypeIsRefusedAtStartup() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> LockedProxies.create(OwnFuture.class, MyFuture::new, new LockTemplate(client)));
        assertTrue(refused.getMessage().startsWith("OwnFuture.run(): @Locked return type"), refused.getMessage());
    }
}
