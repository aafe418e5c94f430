package io.hasp.internal.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.RedisConnectionException;
import io.hasp.Replies;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** {@link Command#whenDone}: one action, run exactly once, however and whenever the command completes. */
class CommandWhenDoneTest {

    /** A command that is never sent: these tests complete it by hand. */
    private static final class Unsent extends Command<Long> {
        Unsent() {
            super(Replies.LONG);
        }

        @Override
        public String name() {
            return "TEST";
        }

        @Override
        public int encodedSize() {
            return 0;
        }

        @Override
        public void encode(ByteBuf out) {
        }
    }

    private final List<String> seen = new ArrayList<>();

    private void record(Long value, Throwable failure) {
        seen.add(value + "/" + (failure == null ? "-" : failure.getClass().getSimpleName()));
    }

    @Test
    void runsOnceWithTheValueWhenCompletedLater() {
        Unsent command = new Unsent();
        assertTrue(command.whenDone(this::record));
        assertTrue(seen.isEmpty());
        command.complete(7L);
        command.complete(8L);
        assertEquals(List.of("7/-"), seen);
    }

    @Test
    void runsAtOnceWhenAlreadyComplete() {
        Unsent command = new Unsent();
        command.complete(7L);
        assertTrue(command.whenDone(this::record));
        assertEquals(List.of("7/-"), seen);
    }

    @Test
    void passesTheFailureUnwrapped() {
        Unsent command = new Unsent();
        RedisConnectionException lost = new RedisConnectionException("lost");
        AtomicReference<Throwable> failure = new AtomicReference<>();
        command.whenDone((v, e) -> failure.set(e));
        command.fail(lost);
        assertSame(lost, failure.get());

        Unsent earlier = new Unsent();
        earlier.fail(lost);
        earlier.whenDone((v, e) -> failure.set(e));
        assertSame(lost, failure.get());
    }

    @Test
    void aCancelledCommandReportsCancellation() {
        Unsent command = new Unsent();
        command.whenDone(this::record);
        assertTrue(command.cancel(false));
        command.cancel(false);
        assertEquals(List.of("null/CancellationException"), seen);
        assertTrue(command.isCancelled());
    }

    @Test
    void takesOneActionOnly() {
        Unsent command = new Unsent();
        assertTrue(command.whenDone(this::record));
        assertFalse(command.whenDone((v, e) -> seen.add("second")));
        command.complete(1L);
        assertEquals(List.of("1/-"), seen);
    }

    @Test
    void registeringWhileAnotherThreadCompletesRunsTheActionExactlyOnce() throws Exception {
        for (int round = 0; round < 2_000; round++) {
            Unsent command = new Unsent();
            AtomicInteger runs = new AtomicInteger();
            CountDownLatch go = new CountDownLatch(1);
            Thread completer = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                command.complete(1L);
            });
            completer.start();
            go.countDown();
            command.whenDone((v, e) -> runs.incrementAndGet());
            completer.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(completer.isAlive());
            assertEquals(1, runs.get(), "round " + round);
        }
    }

    @Test
    void runsTheActionWhenCompletedAsynchronously() throws Exception {
        Unsent command = new Unsent();
        CountDownLatch ran = new CountDownLatch(1);
        command.whenDone((v, e) -> {
            record(v, e);
            ran.countDown();
        });
        command.completeAsync(() -> 9L, Runnable::run);
        assertTrue(ran.await(30, TimeUnit.SECONDS));
        assertEquals(List.of("9/-"), seen);

        Unsent failing = new Unsent();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        failing.whenDone((v, e) -> failure.set(e));
        IllegalStateException boom = new IllegalStateException("boom");
        failing.completeAsync(() -> {
            throw boom;
        }, Runnable::run);
        assertSame(boom, failure.get());
    }

    @Test
    void runsTheActionWhenTimedOutByOrTimeout() throws Exception {
        Unsent command = new Unsent();
        CountDownLatch ran = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        command.whenDone((v, e) -> {
            failure.set(e);
            ran.countDown();
        });
        command.orTimeout(1, TimeUnit.MILLISECONDS);
        assertTrue(ran.await(30, TimeUnit.SECONDS));
        assertTrue(failure.get() instanceof java.util.concurrent.TimeoutException, String.valueOf(failure.get()));
    }

    @Test
    void refusesToOverwriteTheResult() {
        Unsent command = new Unsent();
        command.whenDone(this::record);
        command.complete(1L);
        UnsupportedOperationException e =
                assertThrows(UnsupportedOperationException.class, () -> command.obtrudeValue(2L));
        assertTrue(e.getMessage().startsWith("obtrudeValue:"));
        assertThrows(UnsupportedOperationException.class,
                () -> command.obtrudeException(new IllegalStateException()));
        assertEquals(1L, command.getNow(null));
        assertEquals(List.of("1/-"), seen);
    }

    @Test
    void rejectsANullAction() {
        Unsent command = new Unsent();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> command.whenDone(null));
        assertTrue(e.getMessage().startsWith("action: null"));
        assertTrue(command.whenDone(this::record), "nothing was registered");
    }
}
