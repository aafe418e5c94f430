package io.hasp;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Where a client finds a master that Redis Sentinel watches: the name the sentinels monitor it
 * under, some of the sentinels (any one that answers is enough), and the sentinels' own credentials.
 * Set it with {@link HaspConfig.Builder#sentinel(SentinelConfig)}, or write it as a
 * {@code redis-sentinel://} URI.
 *
 * <p>The client asks the sentinels for the master, checks that the node they name says it is the
 * master, and follows every switch: it listens to the sentinels' {@code +switch-master} messages and
 * asks them again every {@link #checkEvery()} for a switch those messages missed.
 *
 * <p>Credentials: the sentinels and the data nodes are separate servers, each with its own users.
 * {@link HaspConfig}'s user and password are the data nodes'; the sentinels get none unless
 * {@link #withCredentials} gives them some (as Spring Boot's {@code spring.data.redis.sentinel.username}
 * and {@code .password} do). A URI carries only the data nodes' credentials: query parameters would
 * show a password in logs.
 *
 * <p>Immutable and thread-safe; the password never appears in {@link #toString()}.
 */
public final class SentinelConfig {

    /** The port a sentinel listens on when a URI or address names none: 26379. */
    public static final int DEFAULT_PORT = 26379;

    private final String masterName;
    private final List<InetSocketAddress> sentinels;
    private final String username;
    private final char[] password;
    private final Duration checkEvery;

    private SentinelConfig(String masterName, List<InetSocketAddress> sentinels, String username, char[] password,
            Duration checkEvery) {
        this.masterName = masterName;
        this.sentinels = sentinels;
        this.username = username;
        this.password = password;
        this.checkEvery = checkEvery;
    }

    /**
     * The master monitored as {@code masterName} by {@code sentinels}, with no sentinel credentials and
     * a check every 5 s.
     *
     * @param masterName the name in the sentinels' {@code sentinel monitor} line, e.g. {@code mymaster}
     * @param sentinels some of the sentinels, asked in this order; unresolved addresses are fine
     * @return the configuration
     * @throws IllegalArgumentException for an empty or blank name, or no sentinel
     */
    public static SentinelConfig of(String masterName, List<InetSocketAddress> sentinels) {
        if (masterName == null || masterName.isEmpty() || masterName.chars().anyMatch(c -> c <= ' ')) {
            throw new IllegalArgumentException("masterName: " + (masterName == null ? "null" : "'" + masterName + "'")
                    + " (expected: the name the sentinels monitor the master under, without spaces)");
        }
        if (sentinels == null || sentinels.isEmpty() || sentinels.stream().anyMatch(Objects::isNull)) {
            throw new IllegalArgumentException("sentinels: " + sentinels + " (expected: at least one host:port)");
        }
        return new SentinelConfig(masterName, List.copyOf(sentinels), null, null, Duration.ofSeconds(5));
    }

    /**
     * The same, with credentials for the sentinels ({@code AUTH} on each sentinel connection).
     *
     * @param username the sentinels' ACL user, or {@code null} for their default user
     * @param password the sentinels' password (copied), or {@code null} for none
     * @return a new configuration
     */
    public SentinelConfig withCredentials(String username, char[] password) {
        if (username != null && password == null) {
            throw new IllegalArgumentException("sentinel username '" + username + "' without a password"
                    + " (expected: a password with the user, or neither)");
        }
        return new SentinelConfig(masterName, sentinels, username, password == null ? null : password.clone(),
                checkEvery);
    }

    /**
     * The same, asking the sentinels for the master every {@code period} (default 5 s) besides listening
     * to their switch messages: the longest a switch goes unnoticed when every message about it is lost.
     *
     * @param period the period, at least 100 ms
     * @return a new configuration
     */
    public SentinelConfig withCheckEvery(Duration period) {
        if (period == null || period.toMillis() < 100) {
            throw new IllegalArgumentException("checkEvery: " + period + " (expected: at least 100 ms)");
        }
        return new SentinelConfig(masterName, sentinels, username, password, period);
    }

    /** @return the name the sentinels monitor the master under */
    public String masterName() {
        return masterName;
    }

    /** @return the sentinels, in the order they are asked, unresolved as given */
    public List<InetSocketAddress> sentinels() {
        return sentinels;
    }

    /** @return the sentinels' ACL user, or {@code null} */
    public String username() {
        return username;
    }

    /** @return a copy of the sentinels' password, or {@code null} */
    public char[] password() {
        return password == null ? null : password.clone();
    }

    /** @return whether the sentinels get a password */
    public boolean hasPassword() {
        return password != null;
    }

    /** @return how often the sentinels are asked for the master besides their switch messages */
    public Duration checkEvery() {
        return checkEvery;
    }

    @Override
    public String toString() {
        return "SentinelConfig{" + masterName + " at " + sentinels
                + (username != null ? ", user " + username : "") + (password != null ? ", password ***" : "")
                + ", checkEvery=" + checkEvery + '}';
    }
}
