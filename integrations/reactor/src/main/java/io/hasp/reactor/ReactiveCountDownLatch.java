package io.hasp.reactor;

import static io.hasp.reactor.LockScope.call;

import io.hasp.sync.HaspCountDownLatch;
import java.time.Duration;
import java.util.Objects;
import reactor.core.publisher.Mono;

/**
 * A {@link HaspCountDownLatch} for Reactor. A subscription cancelled while it waits for the latch stops
 * waiting. Nothing here blocks. Thread-safe; a cheap view.
 */
public final class ReactiveCountDownLatch {

    private final HaspCountDownLatch latch;

    private ReactiveCountDownLatch(HaspCountDownLatch latch) {
        this.latch = latch;
    }

    /** {@code latch} for Reactor. */
    public static ReactiveCountDownLatch of(HaspCountDownLatch latch) {
        Objects.requireNonNull(latch, "latch");
        return new ReactiveCountDownLatch(latch);
    }

    /** The latch's name. */
    public String name() {
        return latch.getName();
    }

    /** Sets the count when the latch has none: true when set. */
    public Mono<Boolean> trySetCount(long count) {
        return call(() -> latch.trySetCountAsync(count));
    }

    /** Counts down by one; the latch opens at zero. */
    public Mono<Void> countDown() {
        return call(latch::countDownAsync);
    }

    /** The count now (0 when open). */
    public Mono<Long> count() {
        return call(latch::getCountAsync);
    }

    /** Completes when the latch is open, waiting as long as needed. */
    public Mono<Void> await() {
        return call(latch::awaitAsync);
    }

    /** Whether the latch opened within {@code waitTime}. */
    public Mono<Boolean> await(Duration waitTime) {
        return call(() -> latch.awaitAsync(waitTime));
    }

    /** Deletes the latch (it opens): true when it had a count. */
    public Mono<Boolean> delete() {
        return call(latch::deleteAsync);
    }

    @Override
    public String toString() {
        return "ReactiveCountDownLatch[" + latch.getName() + "]";
    }
}
