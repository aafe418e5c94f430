package io.hasp.internal.lock;

import io.hasp.lock.LockOwner;
import java.util.concurrent.CompletableFuture;

/**
 * What this client does with a turn, or a grant, of one lock that nobody here takes any more (see {@link WaitChannel}).
 */
interface UnusedTurns {

    /** The turn of the lock came to this process and nobody here waits: passes it on to the next process in line. */
    void pass();

    /**
     * Declines {@code grant}, made to an owner with no acquisition parked here (it ended, is between two tries, or
     * has not come back): the lock goes to {@code to}, another waiter claimed here, when not null, else on to the
     * next process. Harmless when the owner's own acquire took the grant first: the script then finds it consumed.
     */
    void decline(Grant grant, HandOver to);

    /**
     * This client closes: its process leaves the lock's line, and a grant to it that it never took goes on (a grant
     * to {@code taken}, when not null, or to an owner holding the lock here, was taken). The future completes once
     * that is done, or failed; never exceptionally.
     */
    CompletableFuture<Void> leave(LockOwner taken);

    /** When, on this client's clock, the heir {@code grant} went to was named: the lock was granted after that. */
    long namedAtNanos(Grant grant);

    /**
     * A release of another process granted the lock to {@code grant}, this process's heir, heard on {@code channel}:
     * a parked acquisition of the owner it names holds the lock; when none is parked, the grant is given back.
     */
    default void granted(WaitChannel channel, Grant grant) {
        if (grant == null) {
            return;   // not a message hasp sends
        }
        Successor heir = channel.claimGranted(grant);
        if (heir != null) {
            heir.granted(namedAtNanos(grant));
        } else {
            decline(grant, HandOver.forDeclinedGrant(channel));
        }
    }

    /** This client's, for lock {@code name} of {@code kind}: by the kind's scripts. */
    static UnusedTurns of(LockContext context, LockKind kind, String name) {
        return new UnusedTurnsOnServer(context, kind, name);
    }
}
