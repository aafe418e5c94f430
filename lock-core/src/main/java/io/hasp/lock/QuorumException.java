package io.hasp.lock;

import io.hasp.RedisException;

/**
 * A {@link RedLock} could not reach its quorum because too many of its masters did not answer (down,
 * unreachable, or failing): with fewer than a quorum of masters able to answer, no wait could help, so
 * the call fails at once instead of waiting. Nothing is left held on the masters that did answer.
 */
public class QuorumException extends RedisException {

    private static final long serialVersionUID = 1L;

    private final int answered;
    private final int masters;
    private final int quorum;

    /**
     * @param message what happened, naming the masters that failed
     * @param answered how many masters answered
     * @param masters how many masters the lock has
     * @param quorum how many it needs
     */
    public QuorumException(String message, int answered, int masters, int quorum) {
        super(message);
        this.answered = answered;
        this.masters = masters;
        this.quorum = quorum;
    }

    /** How many masters answered the attempt. */
    public int answered() {
        return answered;
    }

    /** How many masters the lock has. */
    public int masters() {
        return masters;
    }

    /** How many masters the lock needs. */
    public int quorum() {
        return quorum;
    }
}
