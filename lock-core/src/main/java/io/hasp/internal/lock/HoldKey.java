package io.hasp.internal.lock;

import io.hasp.lock.LockOwner;

/**
 * Which hold: one owner's ({@code field}, the kind's {@link LockKind#holdField}) on one lock of one
 * kind; the key of the {@link HoldRegistry}. Callers that look a hold up more than once (an
 * acquisition, its hold) make it once and reuse it.
 */
record HoldKey(LockKind kind, String name, String field) {

    /** The key of {@code owner}'s hold on {@code name} in {@code kind}. */
    static HoldKey of(LockKind kind, String name, LockOwner owner) {
        return new HoldKey(kind, name, kind.holdField(owner));
    }

    /**
     * The key under which {@code owner}'s unlocks and acquisitions of this hold's lock are ordered
     * ({@link UnlocksInFlight}): this key, or one shared by the modes of a lock ({@link LockKind#orderedWith}).
     */
    HoldKey ordering(LockOwner owner) {
        LockKind with = kind.orderedWith();
        return with == kind ? this : of(with, name, owner);
    }
}
