package io.hasp.lock;

import io.hasp.RedisException;

/**
 * A {@link RedLock} could not reach its quorum because too many of its masters did not answer: either
 * masters that are down or answer with errors leave fewer than a quorum able to answer at all (the call
 * fails at once, no wait could help), or the wait ended while too few masters answered in time (down, or
 * late: the message says how late each one was). Nothing is left held on the masters that did answer.
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

    /** How many masters could answer (at once), or answered in time in the last round (at the end of the wait). */
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
