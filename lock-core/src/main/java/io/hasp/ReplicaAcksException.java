package io.hasp;

/**
 * Fewer replicas than {@link ReplicaAcks} asks confirmed a write in time: the master applied it, but a
 * failover now could lose it. For a lock acquisition this means "not granted": hasp rolls it back and
 * tries again within the caller's wait, and throws this when the wait ran out; retryable, since the
 * replicas may catch up. A synchronizer's acquisition (a semaphore's) fails with it at once, its permits
 * given back. For a release or an unlock it means the change stands on the master, unconfirmed.
 */
public class ReplicaAcksException extends RedisException {

    private static final long serialVersionUID = 1L;

    private final int acknowledged;
    private final int required;
    private final transient Object reply;

    /**
     * @param message what was not confirmed, by how many replicas, within how long
     * @param acknowledged how many replicas confirmed
     * @param required how many had to
     * @param reply what the master answered to the write (it applied it), or null
     */
    public ReplicaAcksException(String message, int acknowledged, int required, Object reply) {
        super(message);
        this.acknowledged = acknowledged;
        this.required = required;
        this.reply = reply;
    }

    /** @return how many replicas confirmed the write in time */
    public int acknowledged() {
        return acknowledged;
    }

    /** @return how many replicas had to */
    public int required() {
        return required;
    }

    /** @return the master's answer to the write, which it applied; null when unknown */
    public Object reply() {
        return reply;
    }

    /** @return true: the replicas may confirm a later send */
    @Override
    public boolean retryable() {
        return true;
    }
}
