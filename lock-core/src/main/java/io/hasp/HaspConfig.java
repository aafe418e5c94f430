package io.hasp;

import io.netty.buffer.ByteBufAllocator;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Immutable configuration of a {@link HaspClient}, built with {@link #builder()} or parsed from
 * a URI with {@link #fromUri(String)}: {@code redis://[[user]:password@]host[:port][/database][?parameters]},
 * {@code rediss://} for TLS, {@code redis-socket://} for a Unix domain socket, {@code redis-cluster://}
 * for a Redis Cluster and {@code redis-sentinel://...#masterName} for a master that Sentinel watches
 * (docs/connecting.md has the whole grammar). Anything else is rejected with an
 * {@link IllegalArgumentException} that names the part and what is accepted. Passwords never appear
 * in {@link #toString()}, logs or exception messages. Instances are thread-safe.
 */
public final class HaspConfig {

    /** The RESP protocol version spoken after the handshake. */
    public enum Protocol {
        /** RESP2: works with every Redis; pub/sub uses a connection in subscribed mode. */
        RESP2,
        /** RESP3 ({@code HELLO 3}, Redis 6+): typed replies, pub/sub messages as push frames. */
        RESP3
    }

    /** The values, copied from the builder: this class reads them, nothing changes them. */
    private final Builder values;

    private HaspConfig(Builder b) {
        this.values = b.copy();
    }

    /** @return a builder with the defaults (127.0.0.1:6379, RESP2, pool of 2, 3 s command timeout) */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @param uri e.g. {@code redis://:secret@127.0.0.1:6380/2}
     * @return the configuration the URI names, with default settings otherwise
     * @throws IllegalArgumentException for a malformed URI
     */
    public static HaspConfig fromUri(String uri) {
        return builder().uri(uri).build();
    }

    /** @return a builder holding this configuration's values */
    public Builder toBuilder() {
        return values.copy();
    }

    /** @return the server's host name or address */
    public String host() { return values.host; }
    /** @return the server's port */
    public int port() { return values.port; }
    /** @return whether connections use TLS ({@code rediss://}) */
    public boolean tls() { return values.tls; }
    /** @return the Unix domain socket to connect to ({@code redis-socket://}), or {@code null} for TCP */
    public Path socketPath() { return values.socketPath; }
    /** @return the seed nodes of a Redis Cluster ({@code redis-cluster://}), unresolved, in order; empty for one server */
    public List<InetSocketAddress> clusterSeeds() { return values.clusterSeeds; }
    /** @return whether this is a Redis Cluster configuration */
    public boolean isCluster() { return !values.clusterSeeds.isEmpty(); }
    /** @return the master name and sentinels of a {@code redis-sentinel://} master, or {@code null} */
    public SentinelConfig sentinel() { return values.sentinel; }
    /** @return whether the master is found through Redis Sentinel */
    public boolean isSentinel() { return values.sentinel != null; }
    /** @return how often a cluster client reads the topology again (besides after MOVED and a lost node) */
    public Duration topologyRefresh() { return values.topologyRefresh; }
    /** @return the ACL user name, or {@code null} for the default user */
    public String username() { return values.username; }
    /** @return a copy of the password, or {@code null} when none is configured */
    public char[] password() { return values.password == null ? null : values.password.clone(); }
    /** @return whether a password is configured */
    public boolean hasPassword() { return values.password != null; }
    /** @return the database selected on every connection */
    public int database() { return values.database; }
    /** @return the TCP connect timeout */
    public Duration connectTimeout() { return values.connectTimeout; }
    /** @return how long a command waits for its reply (including a wait for a reconnect) */
    public Duration commandTimeout() { return values.commandTimeout; }
    /** @return the number of multiplexed command connections */
    public int poolSize() { return values.poolSize; }
    /** @return the most direct connections of blocking lock calls (0: none); see {@link Builder#directConnections(int)} */
    public int directConnections() { return values.directConnections; }
    /** @return the first reconnect delay */
    public Duration reconnectMinDelay() { return values.reconnectMinDelay; }
    /** @return the largest reconnect delay */
    public Duration reconnectMaxDelay() { return values.reconnectMaxDelay; }
    /** @return the random spread of each reconnect delay, 0 to 1 (0.2 = plus or minus 20%) */
    public double reconnectJitter() { return values.reconnectJitter; }
    /** @return the name set with {@code CLIENT SETNAME}, or {@code null} */
    public String clientName() { return values.clientName; }
    /** @return the number of event-loop threads */
    public int eventLoopThreads() { return values.eventLoopThreads; }
    /** @return the protocol version */
    public Protocol protocol() { return values.protocol; }
    /** @return the lease a lock gets and renews when no lease time is given */
    public Duration watchdogLease() { return values.watchdogLease; }
    /** @return the tick of the client's timer (timeouts are this precise) */
    public Duration timerTick() { return values.timerTick; }
    /** @return whether the native epoll transport is used when it loads */
    public boolean nativeTransport() { return values.nativeTransport; }
    /** @return a PEM file of trusted CA certificates for TLS, or {@code null} */
    public Path caFile() { return values.caFile; }
    /** @return a trust store (PKCS12 or JKS) for TLS, or {@code null} */
    public Path trustStore() { return values.trustStore; }
    /** @return a copy of the trust store's password, or {@code null} */
    public char[] trustStorePassword() { return values.trustStorePassword == null ? null : values.trustStorePassword.clone(); }
    /** @return whether TLS checks that the certificate names the host (endpoint identification HTTPS) */
    public boolean verifyHostname() { return values.verifyHostname; }
    /** @return how many replicas must confirm each script, and within how long; {@link ReplicaAcks#NONE} by default */
    public ReplicaAcks replicaAcks() { return values.replicaAcks; }
    /** @return the listener told of lock and connection events, or {@code null} for none (the default) */
    public HaspListener listener() { return values.listener; }
    /** @return the buffer allocator of the client's channels, or {@code null} for Netty's default */
    public ByteBufAllocator allocator() { return values.allocator; }

    /** @return the server address as a URI, with the password masked */
    public String redactedUri() {
        return RedisUri.redacted(this);
    }

    @Override
    public String toString() {
        return "HaspConfig{" + redactedUri() + ", protocol=" + values.protocol + ", poolSize=" + values.poolSize
                + ", directConnections=" + values.directConnections + ", connectTimeout=" + values.connectTimeout
                + ", commandTimeout=" + values.commandTimeout + ", reconnect=" + values.reconnectMinDelay + ".."
                + values.reconnectMaxDelay + " jitter " + values.reconnectJitter + ", clientName=" + values.clientName
                + ", eventLoopThreads=" + values.eventLoopThreads + ", watchdogLease=" + values.watchdogLease
                + (values.tls ? ", verifyHostname=" + values.verifyHostname : "") + '}';
    }

    /** Builds a {@link HaspConfig}; not thread-safe. Every setter validates its argument. */
    public static final class Builder implements Cloneable {
        private String host = "127.0.0.1";
        private int port = 6379;
        private boolean tls;
        private Path socketPath;
        private List<InetSocketAddress> clusterSeeds = List.of();
        private Duration topologyRefresh = Duration.ofSeconds(30);
        private SentinelConfig sentinel;
        private String username;
        private char[] password;
        private int database;
        private Duration connectTimeout = Duration.ofSeconds(10);
        private Duration commandTimeout = Duration.ofSeconds(3);
        private int poolSize = 2;
        private int directConnections = 8;
        private Duration reconnectMinDelay = Duration.ofMillis(20);
        private Duration reconnectMaxDelay = Duration.ofSeconds(2);
        private double reconnectJitter = 0.2;
        private String clientName;
        private int eventLoopThreads = 1;
        private Protocol protocol = Protocol.RESP2;
        private Duration watchdogLease = Duration.ofSeconds(30);
        private Duration timerTick = Duration.ofMillis(10);
        private boolean nativeTransport = true;
        private Path caFile;
        private Path trustStore;
        private char[] trustStorePassword;
        private boolean verifyHostname = true;
        private ByteBufAllocator allocator;
        private ReplicaAcks replicaAcks = ReplicaAcks.NONE;
        private HaspListener listener;

        private Builder() {
        }

        /** A builder with this one's values (the arrays copied). */
        private Builder copy() {
            try {
                Builder b = (Builder) clone();
                b.password = password == null ? null : password.clone();
                b.trustStorePassword = trustStorePassword == null ? null : trustStorePassword.clone();
                return b;
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        }

        /**
         * Sets address, TLS, credentials, database and the URI's parameters from a URI in the
         * grammar of the class comment; settings the URI does not name keep their values.
         *
         * @param uri e.g. {@code redis://:secret@127.0.0.1:6380/2?timeout=500ms&clientName=orders}
         * @return this builder
         * @throws IllegalArgumentException naming the part of the URI that is wrong and what is accepted
         */
        public Builder uri(String uri) {
            RedisUri.parse(uri).applyTo(this);
            return this;
        }

        /**
         * Talks to a Redis Cluster whose topology is read from the first of {@code seeds} that
         * answers, as {@code redis-cluster://} does; host and port become the first seed's. An empty
         * list goes back to a single server.
         *
         * @param seeds some of the cluster's nodes, {@code host:port} each
         * @return this builder
         */
        public Builder cluster(List<InetSocketAddress> seeds) {
            if (seeds == null) {
                throw new IllegalArgumentException("seeds: null (expected: a list of host:port, empty for one server)");
            }
            clusterSeeds = List.copyOf(seeds);
            if (!clusterSeeds.isEmpty()) {
                host = clusterSeeds.get(0).getHostString();
                port = clusterSeeds.get(0).getPort();
            }
            return this;
        }

        /**
         * Talks to the master that Redis Sentinel watches under a name, as {@code redis-sentinel://} does:
         * found through the sentinels and followed across failovers. The user, password, database and TLS
         * settings are the data nodes'; the sentinels' credentials are in {@code sentinel}. {@code null}
         * goes back to the configured server.
         *
         * @param sentinel the master name, the sentinels and their credentials
         * @return this builder
         */
        public Builder sentinel(SentinelConfig sentinel) {
            this.sentinel = sentinel;
            return this;
        }

        /** What {@link #sentinel} last set, for a URI that keeps the sentinels' credentials. */
        SentinelConfig sentinelSoFar() {
            return sentinel;
        }

        /**
         * How often a cluster client reads the topology again (default 30 s), besides after a {@code MOVED},
         * a slot found without a master and a lost node (docs/connecting.md, "Redis Cluster").
         *
         * @param period the period, &gt; 0
         * @return this builder
         */
        public Builder topologyRefresh(Duration period) {
            this.topologyRefresh = ConfigArguments.positive("topologyRefresh", period);
            return this;
        }

        /**
         * Connects through the Unix domain socket {@code path} instead of TCP, as
         * {@code redis-socket://} does; needs Netty's native epoll transport (Linux).
         *
         * @param path the server's socket, e.g. {@code /run/redis/redis.sock}; {@code null} for TCP
         * @return this builder
         */
        public Builder unixSocket(Path path) {
            this.socketPath = path;
            return this;
        }

        /** @param host the server's host name or address @return this builder */
        public Builder host(String host) {
            if (host == null || host.isEmpty()) {
                throw new IllegalArgumentException("host: " + (host == null ? "null" : "empty") + " (expected: a host name or address)");
            }
            this.host = host;
            return this;
        }

        /** @param port the server's port, 1..65535 @return this builder */
        public Builder port(int port) {
            this.port = ConfigArguments.within("port", port, 1, 65535);
            return this;
        }

        /** @param tls whether to connect with TLS @return this builder */
        public Builder tls(boolean tls) {
            this.tls = tls;
            return this;
        }

        /** @param username an ACL user name, or {@code null} for the default user @return this builder */
        public Builder username(String username) {
            this.username = username;
            return this;
        }

        /** @param password the password (copied), or {@code null} for none @return this builder */
        public Builder password(char[] password) {
            this.password = password == null ? null : password.clone();
            return this;
        }

        /** @param password the password, or {@code null} for none @return this builder */
        public Builder password(String password) {
            this.password = password == null ? null : password.toCharArray();
            return this;
        }

        /** @param database the database to SELECT, &gt;= 0 @return this builder */
        public Builder database(int database) {
            if (database < 0) {
                throw new IllegalArgumentException("database: " + database + " (expected: >= 0)");
            }
            this.database = database;
            return this;
        }

        /** @param timeout the TCP connect timeout, &gt; 0 @return this builder */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = ConfigArguments.positive("connectTimeout", timeout);
            return this;
        }

        /** @param timeout how long a command waits for its reply, &gt; 0 @return this builder */
        public Builder commandTimeout(Duration timeout) {
            this.commandTimeout = ConfigArguments.positive("commandTimeout", timeout);
            return this;
        }

        /** @param size the number of command connections, 1..64 @return this builder */
        public Builder poolSize(int size) {
            this.poolSize = ConfigArguments.within("poolSize", size, 1, 64);
            return this;
        }

        /**
         * Sets how many direct connections a single-server client may open (default 8, opened on first
         * use): a blocking lock call borrows one while it waits for a script's reply and reads the reply
         * on its own thread, which spares two thread wake-ups per round trip (docs/connecting.md, "The
         * client", says when the path is taken and what it saves). Each is one more client connection on
         * the server. 0 turns the path off.
         *
         * @param connections the most direct connections, 0..1024
         * @return this builder
         */
        public Builder directConnections(int connections) {
            this.directConnections = ConfigArguments.within("directConnections", connections, 0, 1024);
            return this;
        }

        /**
         * Sets the reconnect backoff: the delay doubles from {@code min} up to {@code max}, each
         * spread randomly by {@code jitter}.
         *
         * @param min the first delay, &gt;= 0
         * @param max the largest delay, &gt;= min
         * @param jitter 0 to 1
         * @return this builder
         */
        public Builder reconnectBackoff(Duration min, Duration max, double jitter) {
            if (min == null || min.isNegative()) {
                throw new IllegalArgumentException("reconnect min: " + min + " (expected: >= 0)");
            }
            if (max == null || max.compareTo(min) < 0 || max.isZero()) {
                throw new IllegalArgumentException("reconnect max: " + max + " (expected: > 0 and >= min " + min + ")");
            }
            if (!(jitter >= 0 && jitter <= 1)) {
                throw new IllegalArgumentException("reconnect jitter: " + jitter + " (expected: 0..1)");
            }
            this.reconnectMinDelay = min;
            this.reconnectMaxDelay = max;
            this.reconnectJitter = jitter;
            return this;
        }

        /** @param name the connection name ({@code CLIENT SETNAME}), no spaces, or {@code null} @return this builder */
        public Builder clientName(String name) {
            if (name != null && (name.isEmpty() || name.chars().anyMatch(c -> c <= ' '))) {
                throw new IllegalArgumentException("clientName: '" + name + "' (expected: non-empty, no spaces)");
            }
            this.clientName = name;
            return this;
        }

        /**
         * Sets the number of event-loop threads that serve the client's connections (default 1: one loop
         * batches many callers' commands); raise it when one client's I/O keeps a core busy
         * (docs/connecting.md, "The client").
         *
         * @param threads the number of event-loop threads, 1..64
         * @return this builder
         */
        public Builder eventLoopThreads(int threads) {
            this.eventLoopThreads = ConfigArguments.within("eventLoopThreads", threads, 1, 64);
            return this;
        }

        /** @param protocol RESP2 or RESP3 @return this builder */
        public Builder protocol(Protocol protocol) {
            if (protocol == null) {
                throw new IllegalArgumentException("protocol: null (expected: RESP2 or RESP3)");
            }
            this.protocol = protocol;
            return this;
        }

        /** @param lease the lease of locks taken without a lease time, &gt; 0 @return this builder */
        public Builder watchdogLease(Duration lease) {
            this.watchdogLease = ConfigArguments.positive("watchdogLease", lease);
            return this;
        }

        /** @param tick the timer's tick, 1 ms..1 s @return this builder */
        public Builder timerTick(Duration tick) {
            ConfigArguments.positive("timerTick", tick);
            if (tick.toMillis() < 1 || tick.toMillis() > 1000) {
                throw new IllegalArgumentException("timerTick: " + tick + " (expected: 1 ms..1 s)");
            }
            this.timerTick = tick;
            return this;
        }

        /** @param enabled whether to use native epoll when it loads (default true) @return this builder */
        public Builder nativeTransport(boolean enabled) {
            this.nativeTransport = enabled;
            return this;
        }

        /** @param pemFile trusted CA certificates (PEM) for TLS, or {@code null} for the JDK's @return this builder */
        public Builder caFile(Path pemFile) {
            this.caFile = pemFile;
            return this;
        }

        /**
         * @param store a PKCS12/JKS trust store for TLS, or {@code null}
         * @param storePassword its password, or {@code null}
         * @return this builder
         */
        public Builder trustStore(Path store, char[] storePassword) {
            this.trustStore = store;
            this.trustStorePassword = storePassword == null ? null : storePassword.clone();
            return this;
        }

        /** @param verify whether TLS checks the certificate's host name (default true) @return this builder */
        public Builder verifyHostname(boolean verify) {
            this.verifyHostname = verify;
            return this;
        }

        /**
         * @param allocator the buffer allocator for the client's channels, or {@code null} for
         *     Netty's default (pooled)
         * @return this builder
         */
        public Builder allocator(ByteBufAllocator allocator) {
            this.allocator = allocator;
            return this;
        }

        /**
         * @param acks how many replicas must confirm each script the client sends, within how long
         *     ({@link ReplicaAcks}: a grant that survives a failover); {@link ReplicaAcks#NONE} (the
         *     default) sends no {@code WAIT}
         * @return this builder
         */
        public Builder replicaAcks(ReplicaAcks acks) {
            if (acks == null) {
                throw new IllegalArgumentException("replicaAcks: null (expected: ReplicaAcks.of(n, timeout) or ReplicaAcks.NONE)");
            }
            this.replicaAcks = acks;
            return this;
        }

        /**
         * @param listener told of the client's lock and connection events ({@link HaspListener}, e.g. the meters of
         *     {@code hasp-micrometer}), or {@code null} for none (the default: no event costs anything)
         * @return this builder
         */
        public Builder listener(HaspListener listener) {
            this.listener = listener;
            return this;
        }

        /** @return the configuration */
        public HaspConfig build() {
            if (caFile != null && trustStore != null) {
                throw new IllegalArgumentException("caFile and trustStore: both set (expected: at most one)");
            }
            if (!clusterSeeds.isEmpty() && socketPath != null) {
                throw new IllegalArgumentException("cluster and unixSocket: both set (expected: at most one)");
            }
            if (sentinel != null && (!clusterSeeds.isEmpty() || socketPath != null)) {
                throw new IllegalArgumentException("sentinel and " + (socketPath != null ? "unixSocket" : "cluster")
                        + ": both set (expected: at most one)");
            }
            if (replicaAcks.enabled() && replicaAcks.timeout().compareTo(commandTimeout) >= 0) {
                throw new IllegalArgumentException("replicaAcks: " + replicaAcks + " (expected: a timeout shorter than the"
                        + " commandTimeout " + commandTimeout.toMillis() + " ms, which every WAIT must answer within)");
            }
            if (!clusterSeeds.isEmpty() && database != 0) {
                throw new IllegalArgumentException("database: " + database + " (expected: 0 on a Redis Cluster)");
            }
            return new HaspConfig(this);
        }
    }
}
