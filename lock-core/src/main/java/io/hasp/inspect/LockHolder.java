package io.hasp.inspect;

import java.time.Duration;
import java.util.Objects;

/**
 * One owner holding a lock, as {@link LockInfo} read it.
 *
 * @param owner the owner as Redis keeps it, {@code "<client id>:<holder id>"}
 * @param clientId the client instance's id: a UUID, of version 8 for hasp clients and version 4 for Redisson's
 * @param holderId the thread id (or the holder id an asynchronous call gave) within that client; null when the owner
 *     does not have that form
 * @param holdCount how many times the owner holds it (re-entries count)
 * @param mode how it holds it
 * @param leaseLeft how long the hold lasts unless renewed: the lock's lease, or for a read hold the longest of its
 *     own; null when it has no expiry
 */
public record LockHolder(String owner, String clientId, Long holderId, int holdCount, Mode mode, Duration leaseLeft) {

    /** How an owner holds a lock. */
    public enum Mode {
        /** Alone: a reentrant, fenced or fair lock. */
        EXCLUSIVE,
        /** A read hold of a read/write lock, beside other readers. */
        READ,
        /** The write hold of a read/write lock. */
        WRITE
    }

    /** Checks the components. */
    public LockHolder {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(clientId, "clientId");
        Objects.requireNonNull(mode, "mode");
    }

    /** @return whether the holder is a hasp client: its client id is a UUID of version 8 (Redisson's are version 4) */
    public boolean isHasp() {
        return Owners.isHasp(clientId);
    }
}
