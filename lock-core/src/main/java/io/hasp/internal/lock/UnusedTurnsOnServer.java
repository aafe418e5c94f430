package io.hasp.internal.lock;

import io.hasp.RedisClosedException;
import io.hasp.internal.Futures;
import io.hasp.lock.LockOwner;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link UnusedTurns} by the kind's scripts: a turn passed on to the next process in line, a granted lock given back
 * so that it goes on at once rather than when the grant's lease runs out.
 */
final class UnusedTurnsOnServer implements UnusedTurns {

    private static final Logger log = LoggerFactory.getLogger(UnusedTurnsOnServer.class);

    private final LockContext context;
    private final LockKind kind;
    private final String name;

    UnusedTurnsOnServer(LockContext context, LockKind kind, String name) {
        this.context = context;
        this.kind = kind;
        this.name = name;
    }

    /** Passes the turn on; if that fails, the turn runs out with its short lease. */
    @Override
    public void pass() {
        Futures.sent(() -> kind.passTurn(context.topology, name, context.inLine()))
                .whenComplete((passed, error) -> {
                    if (error != null) {
                        log.debug("passing the turn of {} lock {} on failed (it runs out): {}", kind, name,
                                error.toString());
                    }
                });
    }

    @Override
    public CompletableFuture<Void> leave(LockOwner taken) {
        List<String> held = new ArrayList<>();
        if (taken != null) {
            held.add(taken.field());
        }
        for (Hold hold : context.holds.onLock(kind, name)) {
            held.add(hold.key.field());
        }
        return Futures.sent(() -> kind.leaveLine(context.topology, name, context.inLine(), held))
                .handle((declined, error) -> {
                    if (error != null) {
                        log.debug("leaving the line of {} lock {} failed (a grant to this client runs out): {}",
                                kind, name, error.toString());
                    }
                    return null;
                });
    }

    @Override
    public long namedAtNanos(Grant grant) {
        return context.stampNanos(grant.stamp());
    }

    /** Sent again after a failure, within the unlock's retry budget; past it, the grant runs out with its lease. */
    @Override
    public void decline(Grant grant, HandOver to) {
        new Decline(grant, to).send();
    }

    private final class Decline implements Stranded {

        private final Grant grant;
        /** The local waiter the lock goes to instead, or null: it goes on to the next process. */
        private final HandOver handOver;
        private final long sentNanos = context.nanoTime();
        private final long retryUntilNanos = sentNanos + context.retryNanos;
        private int failedSends;
        /** The last send's failure, when one failed: an earlier send may have taken effect. */
        private Throwable lastFailure;

        Decline(Grant grant, HandOver handOver) {
            this.grant = grant;
            this.handOver = handOver;
        }

        void send() {
            Successor next = handOver == null ? null : handOver.successor();
            Futures.sent(() -> kind.declineGrant(context.topology, name, context.inLine(), grant,
                            next == null ? null : next.owner(), next == null ? 0 : next.leaseMillis()))
                    .whenComplete(this::answered);
        }

        /** 2: the lock went to the local waiter; 1: freed and given on; 0: the owner's acquire had taken it. */
        private void answered(Long outcome, Throwable error) {
            if (error == null) {
                if (handOver != null) {
                    // After a failed send, "nothing to decline" may be an earlier send's hand-over: unknown.
                    handOver.ended(outcome == 2, outcome == 0 ? lastFailure : null, sentNanos);
                } else if (outcome == 1) {
                    context.waiters.handOff(kind.channel(name), context.nanoTime());
                }
                return;
            }
            Throwable cause = Futures.unwrap(error);
            lastFailure = cause;
            if (context.resendLater(this, this::send, cause, failedSends++, retryUntilNanos)) {
                return;
            }
            log.debug("declining the grant of {} lock {} to {} failed (it runs out with its lease of {} ms): {}",
                    kind, name, grant.owner(), grant.leaseMillis(), cause.toString());
            if (handOver != null) {
                handOver.ended(false, cause, sentNanos);   // it may have gone to the waiter: it looks again
            }
        }

        @Override
        public void clientClosed(RedisClosedException closed) {
            if (handOver != null) {
                handOver.ended(false, closed, sentNanos);
            }
        }
    }
}
