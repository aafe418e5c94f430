package io.hasp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.RedisConnectionException;
import io.hasp.RedisException;
import io.hasp.RedisServerException;
import io.hasp.RedisTimeoutException;
import io.hasp.internal.connection.ClientThreads;
import io.hasp.testing.Conditions;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The one futures-and-errors helper: unwrapping, rethrowing, retryability and the blocking waits. */
class FuturesTest {

    @Test
    void unwrapFindsTheCauseInsideNestedWrappers() {
        IllegalMonitorStateException cause = new IllegalMonitorStateException("not held");
        Throwable wrapped = new CompletionException(new ExecutionException(new CompletionException(cause)));
        assertSame(cause, Futures.unwrap(wrapped));
        assertSame(cause, Futures.unwrap(cause));
    }

    @Test
    void rethrowableKeepsUncheckedFailuresAndWrapsCheckedOnesWithTheirCause() {
        RedisServerException server = new RedisServerException("ERR no");
        assertSame(server, Futures.rethrowable(new CompletionException(server)));
        IOException checked = new IOException("disk");
        RuntimeException wrapped = Futures.rethrowable(new ExecutionException(checked));
        assertInstanceOf(RedisException.class, wrapped);
        assertSame(checked, wrapped.getCause());
        AssertionError error = new AssertionError("bug");
        assertSame(error, assertThrows(AssertionError.class, () -> Futures.rethrowable(error)));
    }

    @Test
    void whetherAFailureMayBeSentAgainIsTheErrorsOwnAnswerEvenWhenWrapped() {
        assertTrue(Futures.retryable(new CompletionException(new RedisConnectionException("link cut"))));
        assertFalse(Futures.retryable(new RedisServerException("ERR wrong number of arguments")));
        assertTrue(Futures.retryable(new RedisServerException("LOADING Redis is loading the dataset in memory")));
        assertFalse(Futures.retryable(new IllegalStateException("not a Redis error")));
    }

    @Test
    void joinWaitsThroughAnInterruptAndKeepsTheInterruptStatus() throws InterruptedException {
        CompletableFuture<String> future = new CompletableFuture<>();
        AtomicReference<String> got = new AtomicReference<>();
        AtomicReference<Boolean> stillInterrupted = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            got.set(Futures.join(future, "a test wait"));
            stillInterrupted.set(Thread.currentThread().isInterrupted());
        }, "joiner");
        waiter.start();
        try {
            assertTrue(Conditions.await(Duration.ofSeconds(10), () -> waiter.getState() == Thread.State.WAITING),
                    "the joiner waits");
            waiter.interrupt();
            assertTrue(Conditions.await(Duration.ofSeconds(10), () -> waiter.getState() == Thread.State.WAITING),
                    "and goes on waiting after the interrupt");
            future.complete("done");
            waiter.join(TimeUnit.SECONDS.toMillis(10));
        } finally {
            future.complete("done");
            waiter.join(TimeUnit.SECONDS.toMillis(10));
        }
        assertFalse(waiter.isAlive());
        assertEquals("done", got.get());
        assertTrue(stillInterrupted.get(), "the interrupt is not swallowed");
    }

    @Test
    void aBlockingWaitOnAClientThreadFailsFastNamingTheOperation() throws InterruptedException {
        ClientThreads threads = new ClientThreads("hasp-test", ClientThreads.nextClientNumber());
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        CompletableFuture<String> never = new CompletableFuture<>();
        Thread clientThread = threads.newThread(() -> {
            try {
                Futures.join(never, "a blocking HaspLock call");
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        clientThread.start();
        clientThread.join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(clientThread.isAlive());
        IllegalStateException refused = assertInstanceOf(IllegalStateException.class, thrown.get());
        assertTrue(refused.getMessage().startsWith("a blocking HaspLock call: blocking call on hasp client thread"),
                refused.getMessage());
    }

    @Test
    void aTimedAwaitThatRunsOutFailsWithATimeout() {
        CompletableFuture<String> never = new CompletableFuture<>();
        assertThrows(RedisTimeoutException.class, () -> Futures.await(never, Duration.ofMillis(1)));
    }
}
