package io.hasp.lock;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Who holds a lock: a client instance and a holder inside it. Its Redis form, {@link #field()},
 * is {@code "<clientId>:<holderId>"}, the hash field Redisson also uses, so a hasp owner and a
 * Redisson thread never collide and each side sees the other's holds.
 *
 * <p>The blocking API uses the calling thread's id as the holder id; the async API names the
 * owner explicitly because its continuations run on other threads. One owner stands for one
 * flow of control: its acquisitions and releases of one lock must not overlap in time (as those
 * of one thread cannot). Immutable and thread-safe.
 */
public final class LockOwner {

    /** Holder ids of owners that are not threads: counted down from -1, so never a thread's id. */
    private static final AtomicLong TASK_HOLDER_IDS = new AtomicLong();

    private final String clientId;
    private final long holderId;
    private final String field;

    private LockOwner(String clientId, long holderId) {
        this.clientId = clientId;
        this.holderId = holderId;
        this.field = clientId + ':' + holderId;
    }

    /**
     * The owner {@code holderId} of client {@code clientId}.
     *
     * @throws IllegalArgumentException when {@code clientId} is null or empty
     */
    public static LockOwner of(String clientId, long holderId) {
        if (clientId == null || clientId.isEmpty()) {
            throw new IllegalArgumentException("clientId: " + (clientId == null ? "null" : "\"\"")
                    + " (expected: a non-empty client id)");
        }
        return new LockOwner(clientId, holderId);
    }

    /**
     * A holder id for an owner that is not a thread, such as a reactive subscription or a coroutine:
     * negative, so never the id of a thread (those are positive), and never handed out twice in this JVM.
     * hasp's reactive and coroutine adapters take their owners' ids from here.
     */
    public static long newHolderId() {
        return TASK_HOLDER_IDS.decrementAndGet();
    }

    /** The client instance's id (a UUID string for hasp and Redisson clients). */
    public String clientId() {
        return clientId;
    }

    /** The holder's id inside its client: a thread id, or any id the async caller chose. */
    public long holderId() {
        return holderId;
    }

    /** The owner's hash field in Redis: {@code "<clientId>:<holderId>"}. */
    public String field() {
        return field;
    }

    /** Owners are equal when client id and holder id are. */
    @Override
    public boolean equals(Object other) {
        return other instanceof LockOwner that && holderId == that.holderId && clientId.equals(that.clientId);
    }

    /** Consistent with {@link #equals}. */
    @Override
    public int hashCode() {
        return Objects.hash(clientId, holderId);
    }

    /** The {@link #field()}. */
    @Override
    public String toString() {
        return field;
    }
}
