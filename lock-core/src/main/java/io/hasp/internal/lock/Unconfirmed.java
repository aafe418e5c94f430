package io.hasp.internal.lock;

import io.hasp.ReplicaAcksException;
import io.hasp.internal.Futures;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the master applied but too few replicas confirmed in time ({@link ReplicaAcksException}), where
 * the master's answer stands: an unlock or a forced unlock (lost in a failover, the lock stays held until
 * its lease ends: never a second holder), and a watchdog renewal (the holds are kept; a failover now could
 * shorten their lease back, so each such renewal is logged as a warning and counted). Acquisitions and
 * extensions are not among them: for those the shortfall is a failure. Thread-safe.
 */
final class Unconfirmed {

    private static final Logger log = LoggerFactory.getLogger(Unconfirmed.class);

    private final AtomicLong renewals = new AtomicLong();

    /**
     * The master's answer to a write, when {@code error} says only that replicas did not confirm it.
     *
     * @return the answer, or null when {@code error} is another failure (or the answer is not a {@code type})
     */
    static <T> T applied(Throwable error, Class<T> type) {
        return Futures.appliedOnMaster(error, type);
    }

    /** The "held by another" answer of an acquire that too few replicas confirmed (it wrote nothing), or null. */
    static AcquireOutcome busy(Throwable error) {
        AcquireOutcome answer = error == null ? null : applied(error, AcquireOutcome.class);
        return answer != null && !answer.acquired() ? answer : null;
    }

    /** {@code sent}, whose answer stands even when replicas did not confirm it (logged at debug). */
    static <T> CompletableFuture<T> standing(CompletableFuture<T> sent, Class<T> type, String what) {
        return sent.exceptionally(error -> {
            T answer = applied(error, type);
            if (answer == null) {
                throw error instanceof CompletionException wrapped ? wrapped : new CompletionException(error);
            }
            log.debug("{}: applied on the master, not confirmed by enough replicas ({})", what,
                    Futures.unwrap(error).getMessage());
            return answer;
        });
    }

    /** A watchdog renewal's answer, also when replicas did not confirm it: then counted and logged as a warning. */
    CompletableFuture<String> renewal(CompletableFuture<String> sent, int holds) {
        return sent.exceptionally(error -> {
            String answer = applied(error, String.class);
            if (answer == null) {
                throw error instanceof CompletionException wrapped ? wrapped : new CompletionException(error);
            }
            renewals.incrementAndGet();
            log.warn("the watchdog renewed {} hold(s) on the master, but {}: a failover now could give them back"
                    + " their previous lease", holds, Futures.unwrap(error).getMessage());
            return answer;
        });
    }

    /** How many watchdog renewal calls the master applied but too few replicas confirmed. */
    long renewals() {
        return renewals.get();
    }
}
