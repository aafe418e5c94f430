package io.hasp.inspect;

import io.hasp.lock.LockOwner;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One hold of this client, as the client itself records it ({@link LockInspector#holds()}): no round trip to
 * Redis, so what the client believes, which a lost hold can contradict until the client learns of it.
 *
 * @param name the lock's name
 * @param kind the kind of lock, as hasp names it: {@code "reentrant"}, {@code "fair"}, {@code "fenced"},
 *     {@code "read/write lock, read mode"}, ... (with the replicas that confirm it, where a lock asks for them)
 * @param owner the owner holding it: this client's id and the thread's (or the given) holder id
 * @param holdCount how many times the owner holds it
 * @param heldSince when the acquisition that began the hold was sent, on this machine's clock
 * @param leaseLeft how long the lease lasts from now unless renewed, as this client reckons it (zero when due)
 * @param watchdog whether the watchdog renews the lease
 * @param fencingToken the fencing token of the hold's latest acquisition, for a fenced lock; null otherwise
 */
public record HeldLock(String name, String kind, LockOwner owner, int holdCount, Instant heldSince, Duration leaseLeft,
        boolean watchdog, Long fencingToken) {

    /** Checks the components. */
    public HeldLock {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(heldSince, "heldSince");
        Objects.requireNonNull(leaseLeft, "leaseLeft");
    }
}
