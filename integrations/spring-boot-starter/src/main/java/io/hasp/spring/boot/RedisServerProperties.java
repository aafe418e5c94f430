package io.hasp.spring.boot;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The server settings Spring Boot applications already keep under {@code spring.data.redis.*},
 * read by hasp as well (Spring Data Redis, when present, reads them too): {@code url}, or
 * {@code host}, {@code port}, {@code username}, {@code password}, {@code database} and
 * {@code ssl.enabled}; {@code timeout}, {@code connect-timeout}; {@code client-name}; {@code cluster.nodes}.
 * {@code sentinel.master}, {@code sentinel.nodes}, {@code sentinel.username}, {@code sentinel.password}.
 */
@ConfigurationProperties("spring.data.redis")
public class RedisServerProperties {

    private String url;
    private String clientName;
    private String host = "localhost";
    private int port = 6379;
    private String username;
    private String password;
    private int database;
    private Duration timeout;
    private Duration connectTimeout;
    private final Ssl ssl = new Ssl();
    private final Cluster cluster = new Cluster();
    private final Sentinel sentinel = new Sentinel();

    /** @return a {@code redis://} or {@code rediss://} URI that replaces host, port, credentials and database */
    public String getUrl() {
        return url;
    }

    /** @param url a {@code redis://} or {@code rediss://} URI */
    public void setUrl(String url) {
        this.url = url;
    }

    /** @return the connections' name ({@code CLIENT SETNAME}), or null */
    public String getClientName() {
        return clientName;
    }

    /** @param clientName the connections' name: printable ASCII without spaces ({@code CLIENT SETNAME} takes no other) */
    public void setClientName(String clientName) {
        this.clientName = HaspProperties.connectionName("spring.data.redis.client-name", clientName);
    }

    /** @return the server's host (default {@code localhost}) */
    public String getHost() {
        return host;
    }

    /** @param host the server's host */
    public void setHost(String host) {
        this.host = host;
    }

    /** @return the server's port (default 6379) */
    public int getPort() {
        return port;
    }

    /** @param port the server's port, 1 to 65535 */
    public void setPort(int port) {
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("port: " + port + " (expected: 1..65535)");
        }
        this.port = port;
    }

    /** @return the ACL user, or null */
    public String getUsername() {
        return username;
    }

    /** @param username the ACL user */
    public void setUsername(String username) {
        this.username = username;
    }

    /** @return the password, or null */
    public String getPassword() {
        return password;
    }

    /** @param password the password */
    public void setPassword(String password) {
        this.password = password;
    }

    /** @return the database index (default 0) */
    public int getDatabase() {
        return database;
    }

    /** @param database the database index, >= 0 */
    public void setDatabase(int database) {
        if (database < 0) {
            throw new IllegalArgumentException("database: " + database + " (expected: >= 0)");
        }
        this.database = database;
    }

    /** @return the command timeout, or null */
    public Duration getTimeout() {
        return timeout;
    }

    /** @param timeout the command timeout */
    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }

    /** @return the connect timeout, or null */
    public Duration getConnectTimeout() {
        return connectTimeout;
    }

    /** @param connectTimeout the connect timeout */
    public void setConnectTimeout(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
    }

    /** @return the TLS settings */
    public Ssl getSsl() {
        return ssl;
    }

    /** @return the cluster settings */
    public Cluster getCluster() {
        return cluster;
    }

    /** @return the sentinel settings */
    public Sentinel getSentinel() {
        return sentinel;
    }

    /** {@code spring.data.redis.ssl.*}. */
    public static class Ssl {
        private boolean enabled;

        /** @return whether to connect with TLS */
        public boolean isEnabled() {
            return enabled;
        }

        /** @param enabled whether to connect with TLS */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }

    /** {@code spring.data.redis.cluster.*}. */
    public static class Cluster {
        private List<String> nodes = new ArrayList<>();

        /** @return the seed nodes, {@code host:port} each; empty: not a cluster */
        public List<String> getNodes() {
            return nodes;
        }

        /** @param nodes the seed nodes, {@code host:port} each */
        public void setNodes(List<String> nodes) {
            this.nodes = nodes;
        }
    }

    /** {@code spring.data.redis.sentinel.*}: a master that Redis Sentinel watches. */
    public static class Sentinel {
        private String master;
        private List<String> nodes = new ArrayList<>();
        private String username;
        private String password;

        /** @return the sentinels' ACL user, or null */
        public String getUsername() {
            return username;
        }

        /** @param username the sentinels' ACL user */
        public void setUsername(String username) {
            this.username = username;
        }

        /** @return the sentinels' password (not the data nodes'), or null */
        public String getPassword() {
            return password;
        }

        /** @param password the sentinels' password */
        public void setPassword(String password) {
            this.password = password;
        }

        /** @return the master's name, or null */
        public String getMaster() {
            return master;
        }

        /** @param master the master's name */
        public void setMaster(String master) {
            this.master = master;
        }

        /** @return the sentinels, {@code host:port} each */
        public List<String> getNodes() {
            return nodes;
        }

        /** @param nodes the sentinels */
        public void setNodes(List<String> nodes) {
            this.nodes = nodes;
        }
    }
}
