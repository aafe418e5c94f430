package io.hasp.it.history;

/** What goes wrong while a history is recorded: each a run of its own. */
enum HistoryFault {

    /** Nothing: the baseline. */
    NONE,
    /** Every client connection cut every 300 ms by a proxy. */
    LINK_CUTS,
    /**
     * Every 200 ms the next reply the server sends is lost and its connection cut: the command ran, its caller never
     * heard. (The report counts how often the proxy was told to, not the replies it dropped.)
     */
    SWALLOWED_REPLIES,
    /**
     * A holder stopped with SIGSTOP for longer than its lease while others take the lock, then resumed: its late
     * write must be refused by the fenced resource, and it must learn that its hold ended.
     */
    PAUSED_HOLDER,
    /**
     * A client that takes the lock and closes while it holds it, made anew again and again (a process restarted
     * mid-hold): its hold must keep the others out until its lease runs out.
     */
    CLIENT_RESTARTS,
    /**
     * The master killed with SIGKILL after its replica stopped copying it for a while, and the replica promoted: grants
     * the replica never saw are lost, so without replica acknowledgements a second holder may get in (the hazard this
     * row shows, not a defect).
     */
    MASTER_KILLED,
    /** As {@link #MASTER_KILLED}, with every grant confirmed by the replica: no grant a holder counts on is lost. */
    MASTER_KILLED_WITH_ACKS,
    /**
     * Under Sentinel (a master, two replicas, three sentinels): the master killed with SIGKILL, a replica promoted by
     * the sentinels and followed by the clients. Replication lags only as much as it does by itself, so grants may
     * or may not be lost.
     */
    SENTINEL_MASTER_KILLED,
    /** As {@link #SENTINEL_MASTER_KILLED}, with every grant confirmed by a replica. */
    SENTINEL_MASTER_KILLED_WITH_ACKS,
    /**
     * In a Cluster (three masters with a replica each): the lock's master killed with SIGKILL, its replica taking
     * over, the killed node back as its replica. Grants may or may not be lost.
     */
    CLUSTER_MASTER_KILLED,
    /** As {@link #CLUSTER_MASTER_KILLED}, with every grant confirmed by a replica. */
    CLUSTER_MASTER_KILLED_WITH_ACKS;

    /**
     * Whether a history recorded under this fault must be free of violations: all but a failover without replica
     * acknowledgements, where Redis's asynchronous replication may lose a grant.
     */
    boolean mustHold() {
        return this != MASTER_KILLED && this != SENTINEL_MASTER_KILLED && this != CLUSTER_MASTER_KILLED;
    }

    /** The name in reports: {@code link-cuts}. */
    String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
