package io.hasp.spring.boot;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * hasp's own settings, {@code hasp.*}; the server comes from {@code spring.data.redis.*}
 * ({@link RedisServerProperties}). Each setter checks its value, so that a bad one stops the
 * application's startup with a message naming the property.
 */
@ConfigurationProperties("hasp")
public class HaspProperties {

    private Duration watchdogLease = Duration.ofSeconds(30);
    private String clientName;
    private Duration commandTimeout;
    private Duration connectTimeout;
    private Integer poolSize;
    private Integer directConnections;
    private Duration topologyRefresh;
    private final LockRegistry lockRegistry = new LockRegistry();
    private final ReplicaAcks replicaAcks = new ReplicaAcks();
    private final Endpoint endpoint = new Endpoint();

    /** @return the lease the watchdog keeps renewing for locks taken without one (default 30 s) */
    public Duration getWatchdogLease() {
        return watchdogLease;
    }

    /** @param watchdogLease the watchdog's lease, at least 1 s */
    public void setWatchdogLease(Duration watchdogLease) {
        this.watchdogLease = atLeast("watchdog lease", watchdogLease, Duration.ofSeconds(1));
    }

    /**
     * @return the name of the client's connections ({@code CLIENT SETNAME}) and of its process in lock inspections;
     *     null (the default): {@code spring.data.redis.client-name}, else none (inspections then name the main class)
     */
    public String getClientName() {
        return clientName;
    }

    /**
     * @param clientName the client's name, printable ASCII without spaces, as {@code hasp.client-name=${spring.application.name}};
     *     the Redis user needs the {@code client|setname} permission where ACLs restrict it
     */
    public void setClientName(String clientName) {
        this.clientName = connectionName("hasp.client-name", clientName);
    }

    /** {@code name} when Redis takes it as a connection name (printable ASCII, no space), or null; else throws. */
    static String connectionName(String property, String name) {
        if (name != null && (name.isEmpty() || !name.chars().allMatch(c -> c > ' ' && c <= '~'))) {
            throw new IllegalArgumentException(property + ": \"" + name
                    + "\" (expected: printable ASCII without spaces, as CLIENT SETNAME takes)");
        }
        return name;
    }

    /** @return how long a command waits for its reply; null: {@code spring.data.redis.timeout}, else hasp's default */
    public Duration getCommandTimeout() {
        return commandTimeout;
    }

    /** @param commandTimeout how long a command waits for its reply, at least 1 ms */
    public void setCommandTimeout(Duration commandTimeout) {
        this.commandTimeout = atLeast("command timeout", commandTimeout, Duration.ofMillis(1));
    }

    /** @return how long connecting may take; null: {@code spring.data.redis.connect-timeout}, else hasp's default */
    public Duration getConnectTimeout() {
        return connectTimeout;
    }

    /** @param connectTimeout how long connecting may take, at least 1 ms */
    public void setConnectTimeout(Duration connectTimeout) {
        this.connectTimeout = atLeast("connect timeout", connectTimeout, Duration.ofMillis(1));
    }

    /** @return the number of multiplexed command connections to one server; null: hasp's default */
    public Integer getPoolSize() {
        return poolSize;
    }

    /** @param poolSize the number of command connections, at least 1 */
    public void setPoolSize(Integer poolSize) {
        if (poolSize != null && poolSize < 1) {
            throw new IllegalArgumentException("pool size: " + poolSize + " (expected: >= 1)");
        }
        this.poolSize = poolSize;
    }

    /**
     * @return the most direct connections of blocking lock calls (see
     *     {@code HaspConfig.Builder.directConnections}); null: hasp's default (8)
     */
    public Integer getDirectConnections() {
        return directConnections;
    }

    /** @param directConnections the most direct connections, 0 (none) to 1024 */
    public void setDirectConnections(Integer directConnections) {
        if (directConnections != null && (directConnections < 0 || directConnections > 1024)) {
            throw new IllegalArgumentException("direct connections: " + directConnections + " (expected: 0..1024)");
        }
        this.directConnections = directConnections;
    }

    /** @return how often a cluster's topology is read again; null: hasp's default (30 s) */
    public Duration getTopologyRefresh() {
        return topologyRefresh;
    }

    /** @param topologyRefresh how often a cluster's topology is read again, at least 1 s */
    public void setTopologyRefresh(Duration topologyRefresh) {
        this.topologyRefresh = atLeast("topology refresh", topologyRefresh, Duration.ofSeconds(1));
    }

    /** @return the settings of the Spring Integration lock registry bean, {@code hasp.lock-registry.*} */
    public LockRegistry getLockRegistry() {
        return lockRegistry;
    }

    /** @return how many replicas confirm each of the client's scripts, {@code hasp.replica-acks.*} */
    public ReplicaAcks getReplicaAcks() {
        return replicaAcks;
    }

    /** @return the settings of the Actuator endpoint {@code hasp}, {@code hasp.endpoint.*} */
    public Endpoint getEndpoint() {
        return endpoint;
    }

    /** {@code hasp.endpoint.*}: the Actuator endpoint {@code hasp}, made when the application has Actuator. */
    public static class Endpoint {

        private boolean forceUnlockEnabled;

        /** @return whether the endpoint's force-unlock operation runs (default false: it answers 403) */
        public boolean isForceUnlockEnabled() {
            return forceUnlockEnabled;
        }

        /**
         * @param forceUnlockEnabled whether {@code DELETE /actuator/hasp/{name}} frees a lock whoever holds it; a
         *     holder whose lock is freed so does not know it until it unlocks or renews
         */
        public void setForceUnlockEnabled(boolean forceUnlockEnabled) {
            this.forceUnlockEnabled = forceUnlockEnabled;
        }
    }

    /**
     * {@code hasp.replica-acks.*}: {@code io.hasp.ReplicaAcks}, grants that survive a failover. Off unless
     * {@code replicas} is set.
     */
    public static class ReplicaAcks {

        private int replicas;
        private Duration timeout = Duration.ofMillis(100);
        private boolean fsync;

        /** @return how many replicas must confirm each script; 0 (the default): none, no {@code WAIT} */
        public int getReplicas() {
            return replicas;
        }

        /** @param replicas how many replicas must confirm each script, 0 to 64 */
        public void setReplicas(int replicas) {
            if (replicas < 0 || replicas > 64) {
                throw new IllegalArgumentException("replica acks replicas: " + replicas + " (expected: 0..64)");
            }
            this.replicas = replicas;
        }

        /** @return how long the master waits for them (default 100 ms) */
        public Duration getTimeout() {
            return timeout;
        }

        /** @param timeout how long the master waits for them, at least 1 ms, shorter than the command timeout */
        public void setTimeout(Duration timeout) {
            this.timeout = atLeast("replica acks timeout", timeout, Duration.ofMillis(1));
        }

        /** @return whether a confirmation counts only once the replica wrote its append-only file ({@code WAITAOF}, Redis 7.2+) */
        public boolean isFsync() {
            return fsync;
        }

        /** @param fsync whether to confirm with {@code WAITAOF} (Redis 7.2+) */
        public void setFsync(boolean fsync) {
            this.fsync = fsync;
        }
    }

    /**
     * {@code hasp.lock-registry.*}: the {@code HaspLockRegistry} bean the starter makes when the
     * application has Spring Integration.
     */
    public static class LockRegistry {

        private String key = "lock-registry";
        private Duration expireAfter;

        /** @return the prefix of the registry's lock names, {@code <key>:<lock key>} (default {@code lock-registry}) */
        public String getKey() {
            return key;
        }

        /** @param key the prefix of the registry's lock names, not blank */
        public void setKey(String key) {
            if (key == null || key.isBlank()) {
                throw new IllegalArgumentException("lock registry key: \"" + key + "\" (expected: a non-blank prefix)");
            }
            this.key = key;
        }

        /**
         * @return the time to live of a lock taken without one; null (the default): hasp's watchdog keeps
         *     such a lock while it is held
         */
        public Duration getExpireAfter() {
            return expireAfter;
        }

        /** @param expireAfter the time to live of a lock taken without one, at least 10 ms; unset for the watchdog */
        public void setExpireAfter(Duration expireAfter) {
            this.expireAfter = atLeast("lock registry expire-after", expireAfter, Duration.ofMillis(10));
        }
    }

    private static Duration atLeast(String what, Duration value, Duration min) {
        if (value != null && value.compareTo(min) < 0) {
            throw new IllegalArgumentException(what + ": " + value + " (expected: >= " + min + ")");
        }
        return value;
    }
}
