package io.hasp.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.RedisException;
import io.hasp.internal.connection.ClientThreads;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** {@link Blocking}: waits as hasp's blocking calls wait, and refuses to on a client's own threads. */
class BlockingTest {

    @Test
    void joinGivesTheResultOrTheFailureItself() {
        assertEquals("done", Blocking.join(CompletableFuture.completedFuture("done"), "a test call"));
        HoldLostException lost = new HoldLostException("lost", HoldEnd.LOST);
        assertSame(lost, assertThrows(HoldLostException.class,
                () -> Blocking.join(CompletableFuture.failedFuture(lost), "a test call")));
        RedisException checked = assertThrows(RedisException.class,
                () -> Blocking.join(CompletableFuture.failedFuture(new IOException("gone")), "a test call"));
        assertInstanceOf(IOException.class, checked.getCause());
        assertThrows(IllegalArgumentException.class, () -> Blocking.join(null, "a test call"));
    }

    @Test
    void onAClientThreadBothRefuseAtOnceNamingTheOperation() throws InterruptedException {
        ClientThreads threads = new ClientThreads("hasp-test", ClientThreads.nextClientNumber());
        AtomicReference<Throwable> checked = new AtomicReference<>();
        AtomicReference<Throwable> joined = new AtomicReference<>();
        CompletableFuture<String> never = new CompletableFuture<>();
        Thread clientThread = threads.newThread(() -> {
            try {
                Blocking.checkAllowed("an adapter's lock call");
            } catch (Throwable t) {
                checked.set(t);
            }
            try {
                Blocking.join(never, "an adapter's unlock");
            } catch (Throwable t) {
                joined.set(t);
            }
        });
        clientThread.start();
        clientThread.join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(clientThread.isAlive());
        assertTrue(assertInstanceOf(IllegalStateException.class, checked.get()).getMessage()
                .startsWith("an adapter's lock call: blocking call on hasp client thread"), checked.get().getMessage());
        assertTrue(assertInstanceOf(IllegalStateException.class, joined.get()).getMessage()
                .startsWith("an adapter's unlock: blocking call on hasp client thread"), joined.get().getMessage());
        // An application thread may check, and may join what is done.
        Blocking.checkAllowed("an adapter's lock call");
    }
}
