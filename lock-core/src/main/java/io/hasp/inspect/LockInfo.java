package io.hasp.inspect;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What Redis held for one name at one instant, read in one round trip by {@link LockInspector#inspect(String)}:
 * the kind of object its keys make, its holders, its lease, its waiters. It reads locks that Redisson took as
 * well as hasp's, since both keep them in one layout. A snapshot: by the time it is read, holders may have changed.
 *
 * @param name the name inspected
 * @param kind what the keys under the name are
 * @param readAt the server's clock when it was read
 * @param leaseLeft how long the name's key lives on (a lock's lease); null when it has no expiry or no key
 * @param holders each owner holding the lock, in no particular order; empty when free or not a lock
 * @param fencingToken the latest fencing token issued for the name (a fenced lock's counter), or null when none was
 * @param queue the fair lock's waiters, first in line first; empty for other kinds
 * @param waitingProcesses the hasp clients (their ids) standing in the lock's line of waiting processes, first
 *     first; each stands for the waiters of one process
 * @param turn the hasp client whose turn it is to take the lock after a release, or null
 * @param listeners how many connections listen for the name's release (its channel, and the turn channels of the
 *     processes in its line; classic and sharded): each is a client (a process) with waiters, or one that keeps its
 *     subscription for a moment after its last waiter. On a Redis Cluster before 7.0, whose channels are broadcast to
 *     every node, only the listeners connected to the lock's master are counted
 * @param value a semaphore's free permits or a count-down latch's count, or null when the name is not a number
 * @param leasedPermits the permits a permit-expirable semaphore has lent out (0 for other kinds)
 * @param processes the processes of the hasp clients this reading names (holders, waiters, the line), by client id,
 *     as their records told when read; a client without one (a Redisson client, or one that ended) is missing
 */
public record LockInfo(String name, Kind kind, Instant readAt, Duration leaseLeft, List<LockHolder> holders,
        Long fencingToken, List<QueuedWaiter> queue, List<String> waitingProcesses, String turn, int listeners,
        Long value, int leasedPermits, Map<String, ClientProcess> processes) {

    /** What the keys under a name are. */
    public enum Kind {
        /** Nothing: no key under the name (a free lock leaves none). */
        NONE,
        /** A reentrant lock: a hash of owners and hold counts. A fair lock nobody waits for reads as this. */
        REENTRANT,
        /** A fenced lock: a reentrant lock's hash beside a token counter, or that counter alone when free. */
        FENCED,
        /** A fair lock: a reentrant lock's hash with a queue of waiters (or the queue alone, between holders). */
        FAIR,
        /** A read/write lock: a hash with a {@code mode} field, its readers and its writer. */
        READ_WRITE,
        /**
         * A number: a semaphore's free permits or a count-down latch's count, which share one layout (see
         * {@link LockInfo#value()}).
         */
        NUMBER,
        /** A permit-expirable semaphore: the free permits, and the leases of those lent out. */
        PERMIT_EXPIRABLE_SEMAPHORE,
        /** A key of another type, none of hasp's objects. */
        OTHER
    }

    /** Checks and copies the lists. */
    public LockInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(readAt, "readAt");
        holders = List.copyOf(holders);
        queue = List.copyOf(queue);
        waitingProcesses = List.copyOf(waitingProcesses);
        processes = Map.copyOf(processes);
    }

    /**
     * The process of client {@code clientId}, when its record was read.
     *
     * @param clientId a holder's or waiter's client id
     * @return the process, or empty for a Redisson client or one whose record is gone
     */
    public Optional<ClientProcess> process(String clientId) {
        return Optional.ofNullable(processes.get(clientId));
    }

    /** @return whether anyone holds the lock */
    public boolean isHeld() {
        return !holders.isEmpty();
    }
}
