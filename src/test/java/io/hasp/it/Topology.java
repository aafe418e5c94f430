package io.hasp.it;

/**
 * Where a lock behaviour suite runs: the suites that hold for any Redis deployment are
 * parametrised over it ({@code @ParameterizedClass @EnumSource(Topology.class)}), so each of their
 * tests runs on one redis-server, again on a local Redis Cluster and again behind Redis Sentinel.
 */
public enum Topology {

    /** One redis-server, reached with {@code redis://}. */
    SINGLE,

    /** A local cluster of 3 masters and 3 replicas, reached with {@code redis-cluster://}. */
    CLUSTER,

    /** A master with 2 replicas watched by 3 sentinels, reached with {@code redis-sentinel://}. */
    SENTINEL
}
