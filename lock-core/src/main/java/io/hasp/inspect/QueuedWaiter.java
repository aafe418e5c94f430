package io.hasp.inspect;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One waiter in a fair lock's queue, as {@link LockInfo} read it.
 *
 * @param owner the waiting owner as Redis keeps it, {@code "<client id>:<holder id>"}
 * @param clientId the waiting client instance's id
 * @param holderId the waiting thread's id (or holder id) within that client; null when the owner does not have that
 *     form
 * @param deadline the deadline Redisson's fair lock keeps for the waiter (a waiter that reaches the head after it is
 *     dropped; taken on the clients' clocks), or null when it has none
 * @param placeLeft for a hasp waiter, how long its place lasts unless it renews it (a waiter whose process stopped
 *     loses its place when this runs out); null for others
 */
public record QueuedWaiter(String owner, String clientId, Long holderId, Instant deadline, Duration placeLeft) {

    /** Checks the components. */
    public QueuedWaiter {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(clientId, "clientId");
    }

    /** @return whether the waiter is a hasp client: its client id is a UUID of version 8 */
    public boolean isHasp() {
        return Owners.isHasp(clientId);
    }
}
