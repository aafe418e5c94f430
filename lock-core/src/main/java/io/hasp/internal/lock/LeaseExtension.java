package io.hasp.internal.lock;

import io.hasp.RedisClosedException;
import io.hasp.internal.Futures;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.LockOwner;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * One {@code extend}: the kind's renewal script for one hold, re-sent after a retryable failure
 * until its budget runs out, and itself the future the caller gets. Re-sending is safe: the script
 * only resets the lease of a hold the owner still has, so every send answers the same question.
 */
final class LeaseExtension extends CompletableFuture<Boolean> implements BiConsumer<String, Throwable>, Stranded {

    private final LockContext context;
    private final LockKind kind;
    private final String name;
    private final LockOwner owner;
    private final long leaseMillis;
    /** This client's record of the hold, or null when it tracks none. */
    private final Hold hold;
    private final long retryUntilNanos;
    private int failedSends;
    private long sentNanos;

    LeaseExtension(LockContext context, LockKind kind, String name, LockOwner owner, long leaseMillis, Hold hold) {
        this.context = context;
        this.kind = kind;
        this.name = name;
        this.owner = owner;
        this.leaseMillis = leaseMillis;
        this.hold = hold;
        this.retryUntilNanos = context.nanoTime() + context.retryNanos;
    }

    void send() {
        sentNanos = context.nanoTime();
        CompletableFuture<String> reply;
        try {
            reply = kind.extend(context.topology, name, owner, leaseMillis);
        } catch (RuntimeException e) {
            accept(null, e);
            return;
        }
        Futures.whenDone(reply, this);
    }

    /** Waiting for a re-send when the client closed: fails with {@code closed}. */
    @Override
    public void clientClosed(RedisClosedException closed) {
        completeExceptionally(closed);
    }

    @Override
    public String toString() {
        return "lease extension of " + kind + " lock " + name + " by " + owner;
    }

    @Override
    public void accept(String outcome, Throwable error) {
        if (error != null) {
            Throwable cause = Futures.unwrap(error);
            if (context.resendLater(this, this::send, cause, failedSends++, retryUntilNanos)) {
                return;
            }
            completeExceptionally(cause);
            return;
        }
        boolean held = outcome != null && outcome.startsWith("1");
        if (hold != null) {
            if (held) {
                hold.extended(leaseMillis, sentNanos);
            } else {
                context.holds.end(hold, hold.expired(context.nanoTime(), 0) ? HoldEnd.EXPIRED : HoldEnd.LOST);
            }
        }
        complete(held);
    }
}
