package io.hasp;

import java.time.Duration;

/**
 * How many replicas must confirm a lock's writes before hasp counts them done, and how long to wait
 * for them: a grant that the master answered but no replica has can vanish when a replica is promoted
 * after the master crashed, and let a second holder in.
 *
 * <p>With {@link HaspConfig.Builder#replicaAcks(ReplicaAcks)} set, every script the client sends (the
 * locks' and those sent through {@link HaspClient#commands()}) is followed, on the same connection, by
 * {@code WAIT replicas timeout}; one {@code WAIT} answers for all the scripts written before it. Then:
 * <ul>
 *   <li>an acquisition (also a re-entry and a fenced lock's token) that fewer replicas confirmed in time
 *       is not granted: it is rolled back and tried again within the caller's wait, and ends with a
 *       {@link ReplicaAcksException} when the wait runs out;</li>
 *   <li>an extension of a lease fails the same way;</li>
 *   <li>a watchdog renewal short of confirmations keeps its holds (the master renewed them) and is
 *       logged as a warning; an unlock short of them is done (an unlock lost in a failover leaves the
 *       lock held until its lease ends, never two holders).</li>
 * </ul>
 * {@link #NONE}, the default, sends no {@code WAIT} at all.
 *
 * <p>What it does not guarantee: a replica that confirmed and then dies with the master, or a failover
 * that promotes a replica which had not confirmed (Sentinel and Cluster prefer the most up-to-date one,
 * but can be configured otherwise). {@code WAIT} confirms that the replicas received the writes, not
 * that they wrote them to disk. Immutable and thread-safe.
 */
public final class ReplicaAcks {

    /** No confirmations asked: no {@code WAIT} is sent. */
    public static final ReplicaAcks NONE = new ReplicaAcks(0, Duration.ZERO, false);

    private final int replicas;
    private final Duration timeout;
    private final boolean fsync;

    private ReplicaAcks(int replicas, Duration timeout, boolean fsync) {
        this.replicas = replicas;
        this.timeout = timeout;
        this.fsync = fsync;
    }

    /**
     * Confirmations of {@code replicas} replicas, waited for at most {@code timeout} per {@code WAIT}.
     *
     * @param replicas how many replicas must confirm, 1 to 64
     * @param timeout how long the master waits for them, at least 1 ms; shorter than the client's
     *     command timeout (the configuration and {@code HaspClient.getLock(name, acks)} check it)
     * @return the setting
     * @throws IllegalArgumentException when {@code replicas} is out of range or {@code timeout} is null or
     *     shorter than 1 ms
     */
    public static ReplicaAcks of(int replicas, Duration timeout) {
        if (replicas < 1 || replicas > 64) {
            throw new IllegalArgumentException("replicas: " + replicas + " (expected: 1..64; ReplicaAcks.NONE for none)");
        }
        if (timeout == null || timeout.toMillis() < 1) {
            throw new IllegalArgumentException("timeout: " + timeout + " (expected: at least 1 ms)");
        }
        return new ReplicaAcks(replicas, timeout, false);
    }

    /**
     * The same confirmations, counted only once the replicas wrote the writes to their append-only file
     * ({@code WAITAOF 0 replicas timeout} instead of {@code WAIT}): then a replica that restarts keeps them
     * too. Needs Redis 7.2 or later, and replicas with {@code appendonly yes}; a client created with it
     * checks that its server has {@code WAITAOF} and refuses to start otherwise.
     *
     * @return the setting with fsync confirmations
     * @throws IllegalStateException on {@link #NONE}
     */
    public ReplicaAcks withFsync() {
        if (!enabled()) {
            throw new IllegalStateException("ReplicaAcks.NONE asks no confirmation to fsync");
        }
        return new ReplicaAcks(replicas, timeout, true);
    }

    /** @return how many replicas must confirm; 0 for {@link #NONE} */
    public int replicas() {
        return replicas;
    }

    /** @return how long the master waits for them; zero for {@link #NONE} */
    public Duration timeout() {
        return timeout;
    }

    /** @return whether a confirmation counts only once the replica wrote to its append-only file ({@code WAITAOF}) */
    public boolean fsync() {
        return fsync;
    }

    /** @return whether confirmations are asked (anything but {@link #NONE}) */
    public boolean enabled() {
        return replicas > 0;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ReplicaAcks that && replicas == that.replicas && timeout.equals(that.timeout)
                && fsync == that.fsync;
    }

    @Override
    public int hashCode() {
        return 31 * (31 * replicas + timeout.hashCode()) + (fsync ? 1 : 0);
    }

    @Override
    public String toString() {
        return enabled() ? "ReplicaAcks[" + replicas + (fsync ? " fsynced" : "") + " within " + timeout.toMillis() + " ms]"
                : "ReplicaAcks.NONE";
    }
}
