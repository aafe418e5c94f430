package io.hasp.internal.lock;

import io.hasp.lock.LockOwner;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Undoes, best effort, an acquisition whose outcome stayed unknown when its caller gave up (its reply
 * was lost, or came after a deadline, an interrupt or a cancel): the kind's rollback brings the owner
 * back from the target hold count, harmless when the acquire never ran. When it undid a hold, the next
 * waiter here is told the lock may be free. A rollback that fails leaves the hold to its lease.
 */
final class Rollback {

    private static final Logger log = LoggerFactory.getLogger(Rollback.class);

    private Rollback() {
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
        HoldKey key = HoldKey.of(kind, name, owner);
        try {
            Unconfirmed.standing(kind.rollback(context.topology, name, owner, target, leaseMillis), Boolean.class,
                    "rollback of " + kind + " lock " + name).whenComplete((undone, e) -> {
                context.unsettled.settle(key);   // the next acquisition of this hold may go
                if (e != null) {
                    log.debug("rollback of an abandoned acquisition of {} lock {} failed (its lease will expire): {}",
                            kind, name, e.toString());
                } else if (Boolean.TRUE.equals(undone)) {
                    context.waiters.handOff(kind.channel(name), context.nanoTime());
                }
            });
        } catch (RuntimeException e) {
            context.unsettled.settle(key);
            log.debug("rollback of {} lock {} not sent: {}", kind, name, e.toString());
        }
    }
}
