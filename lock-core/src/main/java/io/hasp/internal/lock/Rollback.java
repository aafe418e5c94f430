package io.hasp.internal.lock;

import io.hasp.RedisClosedException;
import io.hasp.internal.Futures;
import io.hasp.lock.LockOwner;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Undoes an acquisition whose outcome stayed unknown when its caller gave up (its reply was lost, or came after a
 * deadline, an interrupt or a cancel), or gives back the place in line a waiter no longer needs: the kind's rollback
 * brings the owner back from the target hold count, harmless when the acquire never ran, and harmless when sent again
 * (a second send finds the count, or the place, already gone). When it undid a hold, the next waiter here is told the
 * lock may be free.
 *
 * <p>A send that fails in a way that may be retried (a lost connection, a timeout) is sent again, with the command
 * backoff, for twice the unlock's retry budget (four command timeouts). Until it is settled, the same owner's next
 * acquisition and unlock of the hold wait for it ({@link UnsettledAcquires}), so the budget stays short; past it,
 * what it would have given back runs out in Redis on its own (a place in a fair lock's line with its place lease, a
 * grant with its lease). It is not sent again after it settled: a late send could undo the owner's next hold.
 */
final class Rollback implements Stranded {

    private static final Logger log = LoggerFactory.getLogger(Rollback.class);

    private final LockContext context;
    private final LockKind kind;
    private final String name;
    private final LockOwner owner;
    private final int target;
    private final long leaseMillis;
    private final HoldKey key;
    private final long retryUntilNanos;
    private int failedSends;   // one send at a time

    private Rollback(LockContext context, LockKind kind, String name, LockOwner owner, int target, long leaseMillis) {
        this.context = context;
        this.kind = kind;
        this.name = name;
        this.owner = owner;
        this.target = target;
        this.leaseMillis = leaseMillis;
        this.key = HoldKey.of(kind, name, owner);
        this.retryUntilNanos = context.nanoTime() + 2 * context.retryNanos;
    }

    /**
     * Once {@code result}, the acquisition's, completed: when it gave the lock, the acquire's outcome is known and
     * nothing is undone; else sends the rollback ({@code target} 0: only the place in line is given back).
     */
    static void unlessAcquired(CompletableFuture<Boolean> result, LockContext context, LockKind kind, String name,
            LockOwner owner, int target, long leaseMillis) {
        // getNow would throw on a cancelled or failed result: those gave nothing to the caller either
        if (!result.isCompletedExceptionally() && Boolean.TRUE.equals(result.getNow(null))) {
            context.unsettled.settle(HoldKey.of(kind, name, owner));
            return;
        }
        start(context, kind, name, owner, target, leaseMillis);
    }

    /**
     * Sends the rollback of the acquire that would have brought {@code owner} to {@code target} holds (0: of none,
     * only a place in line to give back).
     */
    static void start(LockContext context, LockKind kind, String name, LockOwner owner, int target, long leaseMillis) {
        new Rollback(context, kind, name, owner, target, leaseMillis).send();
    }

    private void send() {
        CompletableFuture<Boolean> reply;
        try {
            reply = Unconfirmed.standing(kind.rollback(context.topology, name, owner, target, leaseMillis),
                    Boolean.class, "rollback of " + kind + " lock " + name);
        } catch (RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        reply.whenComplete(this::settled);
    }

    private void settled(Boolean undone, Throwable error) {
        if (error != null) {
            Throwable cause = Futures.unwrap(error);
            if (context.resendLater(this, this::send, cause, failedSends++, retryUntilNanos)) {
                return;
            }
            context.unsettled.settle(key);   // the next acquisition of this hold may go
            log.debug("rollback of an abandoned acquisition of {} lock {} failed after {} send(s) (what it gives back"
                    + " runs out with its lease): {}", kind, name, failedSends, cause.toString());
            return;
        }
        context.unsettled.settle(key);
        if (Boolean.TRUE.equals(undone)) {
            context.waiters.handOff(kind.channel(name), context.nanoTime());
        }
    }

    /** The client closed while this rollback waited to be sent again: what it gives back runs out with its lease. */
    @Override
    public void clientClosed(RedisClosedException closed) {
        context.unsettled.settle(key);
    }

    @Override
    public String toString() {
        return "rollback of " + kind + " lock " + name + " by " + owner + " to " + target;
    }
}
