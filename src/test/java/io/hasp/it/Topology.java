package io.hasp.it;

/**
 * Where a lock behaviour suite runs: the suites that hold for any Redis deployment are
 * parametrised over it ({@code @ParameterizedClass @EnumSource(Topology.class)}), so each of their
 * tests runs on one redis-server and again on a local Redis Cluster.
 */
public enum Topology {

    /** One redis-server, reached with {@code redis://}. */
    SINGLE,

    /** A local cluster of 3 masters and 3 replicas, reached with {@code redis-cluster://}. */
    CLUSTER
}
