package io.hasp.internal.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.RedisAuthException;
import io.netty.channel.DefaultEventLoop;
import io.netty.channel.EventLoop;
import io.netty.util.HashedWheelTimer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The watchdog's first connect, on a real event loop and timer with attempts the test scripts (no
 * server is involved: the attempts are what is under test): it tries again with the backoff until an
 * attempt succeeds, stops at once on a hopeless cause, and stops at the deadline with the last cause
 * and the number of attempts.
 */
class ConnectionWatchdogTest {

    private final EventLoop loop = new DefaultEventLoop();
    private final HashedWheelTimer timer = new HashedWheelTimer(10, TimeUnit.MILLISECONDS);
    private final AtomicInteger attempts = new AtomicInteger();

    @AfterEach
    void stop() throws Exception {
        timer.stop();
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    private ConnectionWatchdog watchdog(Supplier<CompletableFuture<Void>> attempt) {
        return new ConnectionWatchdog("test", timer, loop, Duration.ofMillis(10), Duration.ofMillis(40), 0, () -> {
            assertTrue(loop.inEventLoop(), "attempts run on the connection's event loop");
            attempts.incrementAndGet();
            return attempt.get();
        });
    }

    private CompletableFuture<Void> firstConnect(ConnectionWatchdog watchdog, Duration within) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        return loop.submit(() -> watchdog.firstConnect(deadline, cause -> cause instanceof RedisAuthException,
                (cause, n) -> new IllegalStateException(n + " attempt(s)", cause))).get(5, TimeUnit.SECONDS);
    }

    private static Throwable failure(CompletableFuture<Void> connected) throws Exception {
        try {
            connected.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        }
        throw new AssertionError("connected");
    }

    @Test
    void failedAttemptsAreRetriedUntilOneSucceeds() throws Exception {
        CompletableFuture<Void> connected = firstConnect(watchdog(() -> attempts.get() < 3
                ? CompletableFuture.failedFuture(new IllegalStateException("refused"))
                : CompletableFuture.completedFuture(null)), Duration.ofSeconds(10));
        connected.get(10, TimeUnit.SECONDS);
        assertEquals(3, attempts.get());
    }

    @Test
    void aHopelessCauseEndsTheFirstConnectAtOnce() throws Exception {
        RedisAuthException refused = new RedisAuthException("WRONGPASS", null);
        Throwable failure = failure(firstConnect(watchdog(() -> CompletableFuture.failedFuture(refused)),
                Duration.ofSeconds(10)));
        assertSame(refused, failure);
        assertEquals(1, attempts.get());
    }

    @Test
    void theDeadlineEndsTheAttemptsWithTheLastCauseAndTheirNumber() throws Exception {
        Throwable failure = failure(firstConnect(watchdog(() -> CompletableFuture.failedFuture(
                new IllegalStateException("refused " + attempts.get()))), Duration.ofMillis(300)));
        int made = attempts.get();
        assertTrue(made > 1, "retried within the deadline: " + made);
        assertEquals(made + " attempt(s)", failure.getMessage());
        assertEquals("refused " + made, failure.getCause().getMessage(), "the last attempt's cause");
    }
}
