package io.hasp;

import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one URI grammar of hasp's configuration, parsed strictly:
 *
 * <pre>
 * uri        = scheme "://" [userinfo "@"] location ["?" parameter *("&amp;" parameter)] ["#" master]
 * scheme     = "redis" | "rediss" | "redis-socket" | "redis-cluster" | "rediss-cluster"
 *            | "redis-sentinel" | "rediss-sentinel"
 * userinfo   = [user] [":" password]          (percent-encoded; a lone value is the password)
 * location   = host [":" port] ["/" database]  for redis and rediss
 *            | "/" absolute-path                for redis-socket (a Unix domain socket)
 *            | host [":" port] *("," host [":" port])
 *                                               for the cluster's seeds (database 0 only), and for
 *                                               the sentinels, then ["/" database] (port 26379 by default)
 * master     = the name the sentinels monitor; sentinel schemes only, and there required (here or
 *              as the parameter sentinelMasterId)
 * host       = name | IPv4 | "[" IPv6 "]"
 * parameter  = name "=" value, each name at most once:
 *              timeout, connectTimeout  a duration: milliseconds, or a number with ms, s or m
 *              clientName               CLIENT SETNAME's value
 *              database                 0..  (also the path of redis and rediss; not both)
 *              protocol                 2 or 3
 *              sentinelMasterId         the master's name, for the sentinel schemes
 * </pre>
 *
 * Anything else (an unknown scheme or parameter, a bad value, a repeated parameter) is an
 * {@link IllegalArgumentException} naming the offending part and what is accepted. Schemes name
 * their location form and their parameters in {@link Scheme}, so that schemes with several
 * endpoints (a cluster's seeds, a sentinel set) add a row there and a location form, not a second
 * parser. The user-info of a sentinel URI is the data nodes' credentials; the sentinels' own are set
 * on {@link SentinelConfig}, never in a URI.
 */
final class RedisUri {

    /** The schemes, with the form of their location. */
    enum Scheme {
        REDIS("redis", false, false, false, false),
        REDISS("rediss", true, false, false, false),
        REDIS_SOCKET("redis-socket", false, true, false, false),
        REDIS_CLUSTER("redis-cluster", false, false, true, false),
        REDISS_CLUSTER("rediss-cluster", true, false, true, false),
        REDIS_SENTINEL("redis-sentinel", false, false, false, true),
        REDISS_SENTINEL("rediss-sentinel", true, false, false, true);

        final String text;
        final boolean tls;
        final boolean socket;
        /** A seed list of {@code host[:port]}, comma-separated; database 0 only. */
        final boolean cluster;
        /** A list of sentinels, {@code host[:port]} (26379 by default), and a master name. */
        final boolean sentinel;

        Scheme(String text, boolean tls, boolean socket, boolean cluster, boolean sentinel) {
            this.text = text;
            this.tls = tls;
            this.socket = socket;
            this.cluster = cluster;
            this.sentinel = sentinel;
        }

        /** Whether the location is a list of servers. */
        boolean listsServers() {
            return cluster || sentinel;
        }

        static Scheme of(String text) {
            for (Scheme scheme : values()) {
                if (scheme.text.equalsIgnoreCase(text)) {
                    return scheme;
                }
            }
            throw new IllegalArgumentException("uri: scheme '" + text + "' (accepted: " + ACCEPTED_SCHEMES + ")");
        }
    }

    static final String ACCEPTED_SCHEMES = "redis, rediss, redis-socket, redis-cluster, rediss-cluster, "
            + "redis-sentinel, rediss-sentinel";
    static final String FORM = "redis://[[user]:password@]host[:port][/database][?parameters], rediss://..., "
            + "redis-socket://[[user]:password@]/path[?parameters], "
            + "redis-cluster://[[user]:password@]host[:port],host[:port]...[?parameters], "
            + "or redis-sentinel://[[user]:password@]host[:port],host[:port]...[/database][?parameters]#masterName";
    static final List<String> PARAMETERS = List.of("timeout", "connectTimeout", "clientName", "database", "protocol",
            "sentinelMasterId");

    final Scheme scheme;
    final String host;
    final int port;
    /** For the cluster and sentinel schemes: every seed or sentinel, {@code host}/{@code port} being the first. */
    final List<String[]> seeds;
    /** For the sentinel schemes: the master's name. */
    final String masterName;
    final String socketPath;
    final String username;
    final char[] password;
    final Integer database;
    final Duration timeout;
    final Duration connectTimeout;
    final String clientName;
    final HaspConfig.Protocol protocol;

    private RedisUri(Scheme scheme, String host, int port, List<String[]> seeds, String masterName, String socketPath,
            String username, char[] password, Integer database, Duration timeout, Duration connectTimeout,
            String clientName, HaspConfig.Protocol protocol) {
        this.scheme = scheme;
        this.host = host;
        this.port = port;
        this.seeds = seeds;
        this.masterName = masterName;
        this.socketPath = socketPath;
        this.username = username;
        this.password = password;
        this.database = database;
        this.timeout = timeout;
        this.connectTimeout = connectTimeout;
        this.clientName = clientName;
        this.protocol = protocol;
    }

    /**
     * Parses {@code uri}.
     *
     * @throws IllegalArgumentException naming the part that is wrong and what is accepted
     */
    static RedisUri parse(String uri) {
        if (uri == null) {
            throw new IllegalArgumentException("uri: null (expected: " + FORM + ")");
        }
        int schemeEnd = uri.indexOf("://");
        if (schemeEnd <= 0) {
            throw new IllegalArgumentException("uri: no scheme (expected: " + FORM + ")");
        }
        Scheme scheme = Scheme.of(uri.substring(0, schemeEnd));
        String rest = uri.substring(schemeEnd + 3);
        String fragment = null;
        int hash = rest.indexOf('#');
        if (hash >= 0) {
            if (!scheme.sentinel) {
                throw new IllegalArgumentException("uri: a fragment (#...) (expected: " + FORM + ")");
            }
            fragment = decode(rest.substring(hash + 1), "master name");
            rest = rest.substring(0, hash);
        }
        String query = null;
        int question = rest.indexOf('?');
        if (question >= 0) {
            query = rest.substring(question + 1);
            rest = rest.substring(0, question);
        }
        String username = null;
        char[] password = null;
        int at = rest.lastIndexOf('@');
        if (at >= 0) {
            String userInfo = rest.substring(0, at);
            rest = rest.substring(at + 1);
            int colon = userInfo.indexOf(':');
            if (colon < 0) {
                password = decode(userInfo, "password").toCharArray();
            } else {
                String user = decode(userInfo.substring(0, colon), "user");
                username = user.isEmpty() ? null : user;
                password = decode(userInfo.substring(colon + 1), "password").toCharArray();
            }
        }
        String host = null;
        int port = 6379;
        List<String[]> seeds = new ArrayList<>();
        String socketPath = null;
        Integer database = null;
        if (scheme.socket) {
            if (!rest.startsWith("/") || rest.length() < 2) {
                throw new IllegalArgumentException("uri: socket path '" + rest + "' (expected: an absolute path, as in "
                        + "redis-socket:///run/redis/redis.sock)");
            }
            socketPath = decode(rest, "socket path");
        } else {
            int slash = rest.indexOf('/');
            String authority = slash < 0 ? rest : rest.substring(0, slash);
            if (slash >= 0 && slash < rest.length() - 1) {
                database = parseDatabase(rest.substring(slash + 1), "database in the path");
            }
            if (scheme.listsServers()) {
                for (String seed : authority.split(",", -1)) {
                    seeds.add(hostAndPort(seed, scheme));
                }
            } else {
                seeds.add(hostAndPort(authority, scheme));
            }
            host = seeds.get(0)[0];
            port = Integer.parseInt(seeds.get(0)[1]);
        }
        Map<String, String> parameters = parameters(query);
        Integer databaseParameter = parameters.containsKey("database")
                ? parseDatabase(parameters.get("database"), "parameter database") : null;
        if (database != null && databaseParameter != null) {
            throw new IllegalArgumentException("uri: database given twice, in the path (" + database
                    + ") and as a parameter (" + databaseParameter + ") (expected: one of them)");
        }
        if (scheme.cluster && (database != null && database != 0
                || databaseParameter != null && databaseParameter != 0)) {
            throw new IllegalArgumentException("uri: database " + (database != null ? database : databaseParameter)
                    + " (expected: 0, the only database of a Redis Cluster)");
        }
        return new RedisUri(scheme, host, port, List.copyOf(seeds), masterName(scheme, fragment, parameters),
                socketPath, username, password,
                database != null ? database : databaseParameter,
                parameters.containsKey("timeout") ? parseDuration("timeout", parameters.get("timeout")) : null,
                parameters.containsKey("connectTimeout")
                        ? parseDuration("connectTimeout", parameters.get("connectTimeout")) : null,
                parameters.containsKey("clientName") ? parseClientName(parameters.get("clientName")) : null,
                parameters.containsKey("protocol") ? parseProtocol(parameters.get("protocol")) : null);
    }

    /** The master name of a sentinel URI, from its fragment or its {@code sentinelMasterId}; null for other schemes. */
    private static String masterName(Scheme scheme, String fragment, Map<String, String> parameters) {
        String parameter = parameters.get("sentinelMasterId");
        if (!scheme.sentinel) {
            if (parameter != null) {
                throw new IllegalArgumentException("uri: parameter sentinelMasterId for " + scheme.text
                        + ":// (expected: only with redis-sentinel:// or rediss-sentinel://)");
            }
            return null;
        }
        if (fragment != null && parameter != null && !fragment.equals(parameter)) {
            throw new IllegalArgumentException("uri: master name given twice, as #" + fragment
                    + " and as sentinelMasterId=" + parameter + " (expected: one of them)");
        }
        String name = fragment != null ? fragment : parameter;
        if (name == null || name.isEmpty() || name.chars().anyMatch(c -> c <= ' ')) {
            throw new IllegalArgumentException("uri: master name '" + (name == null ? "" : name) + "' (expected: "
                    + "#masterName or sentinelMasterId=masterName, the name the sentinels monitor, without spaces)");
        }
        return name;
    }

    /** {@code host[:port]} with an IPv6 host in brackets: {host, port}. */
    private static String[] hostAndPort(String authority, Scheme scheme) {
        String host;
        int portStart;
        if (authority.startsWith("[")) {
            int close = authority.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("uri: host '" + authority + "' (expected: an IPv6 address in [brackets])");
            }
            host = authority.substring(1, close);
            portStart = close + 1;
        } else {
            int colon = authority.indexOf(':');
            host = colon < 0 ? authority : authority.substring(0, colon);
            portStart = colon < 0 ? authority.length() : colon;
        }
        if (host.isEmpty()) {
            throw new IllegalArgumentException("uri: no host (expected: " + FORM + ")");
        }
        if (host.indexOf(',') >= 0) {
            throw new IllegalArgumentException("uri: several hosts '" + host + "' (expected: one host for "
                    + scheme.text + "://; a seed list needs redis-cluster://, a sentinel list redis-sentinel://)");
        }
        int port = scheme.sentinel ? SentinelConfig.DEFAULT_PORT : 6379;
        if (portStart < authority.length()) {
            if (authority.charAt(portStart) != ':') {
                throw new IllegalArgumentException("uri: '" + authority.substring(portStart)
                        + "' after the host (expected: :port)");
            }
            port = parsePort(authority.substring(portStart + 1));
        }
        return new String[] {host, Integer.toString(port)};
    }

    private static Map<String, String> parameters(String query) {
        Map<String, String> parameters = new LinkedHashMap<>();
        if (query == null || query.isEmpty()) {
            return parameters;
        }
        for (String pair : query.split("&", -1)) {
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("uri: parameter '" + pair + "' (expected: name=value, names: "
                        + String.join(", ", PARAMETERS) + ")");
            }
            String name = pair.substring(0, equals);
            if (!PARAMETERS.contains(name)) {
                throw new IllegalArgumentException("uri: unknown parameter '" + name + "' (accepted: "
                        + String.join(", ", PARAMETERS) + ")");
            }
            if (parameters.put(name, decode(pair.substring(equals + 1), "parameter " + name)) != null) {
                throw new IllegalArgumentException("uri: parameter '" + name + "' given twice (expected: once)");
            }
        }
        return parameters;
    }

    private static int parsePort(String text) {
        try {
            int port = Integer.parseInt(text);
            if (port >= 1 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("uri: port '" + text + "' (expected: 1..65535)");
    }

    private static int parseDatabase(String text, String where) {
        try {
            int database = Integer.parseInt(text);
            if (database >= 0) {
                return database;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("uri: " + where + " '" + text + "' (expected: a number >= 0)");
    }

    /** Milliseconds, or a number followed by ms, s or m; more than zero. */
    static Duration parseDuration(String name, String text) {
        String lower = text.toLowerCase(Locale.ROOT);
        long factor;
        String digits;
        if (lower.endsWith("ms")) {
            factor = 1;
            digits = lower.substring(0, lower.length() - 2);
        } else if (lower.endsWith("s")) {
            factor = 1_000;
            digits = lower.substring(0, lower.length() - 1);
        } else if (lower.endsWith("m")) {
            factor = 60_000;
            digits = lower.substring(0, lower.length() - 1);
        } else {
            factor = 1;
            digits = lower;
        }
        try {
            long value = Long.parseLong(digits);
            if (value > 0 && value <= Long.MAX_VALUE / factor) {
                return Duration.ofMillis(value * factor);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("uri: parameter " + name + " '" + text
                + "' (expected: a positive duration: milliseconds, or a number with ms, s or m, as in 500ms or 3s)");
    }

    private static String parseClientName(String text) {
        if (text.isEmpty() || text.chars().anyMatch(c -> c <= ' ')) {
            throw new IllegalArgumentException("uri: parameter clientName '" + text
                    + "' (expected: a non-empty name without spaces)");
        }
        return text;
    }

    private static HaspConfig.Protocol parseProtocol(String text) {
        switch (text) {
            case "2":
                return HaspConfig.Protocol.RESP2;
            case "3":
                return HaspConfig.Protocol.RESP3;
            default:
                throw new IllegalArgumentException("uri: parameter protocol '" + text + "' (expected: 2 or 3)");
        }
    }

    private static String decode(String text, String what) {
        try {
            return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            // The message must not echo a password.
            throw new IllegalArgumentException("uri: " + what + " is not percent-encoded correctly");
        }
    }

    /**
     * Sets on {@code builder} what this URI says: the address, TLS, credentials and database, and the
     * parameters it names; settings it does not name keep their values.
     */
    void applyTo(HaspConfig.Builder builder) {
        List<InetSocketAddress> seeds = new ArrayList<>();
        if (scheme.cluster) {
            for (String[] seed : this.seeds) {
                seeds.add(InetSocketAddress.createUnresolved(seed[0], Integer.parseInt(seed[1])));
            }
        }
        builder.tls(scheme.tls).unixSocket(socketPath != null ? Path.of(socketPath) : null).cluster(seeds);
        SentinelConfig sentinel = null;
        if (scheme.sentinel) {
            List<InetSocketAddress> sentinels = new ArrayList<>();
            for (String[] address : this.seeds) {
                sentinels.add(InetSocketAddress.createUnresolved(address[0], Integer.parseInt(address[1])));
            }
            // The sentinels' credentials and check period are not in the URI: those set before stay.
            SentinelConfig before = builder.sentinelSoFar();
            sentinel = SentinelConfig.of(masterName, sentinels);
            if (before != null) {
                sentinel = sentinel.withCredentials(before.username(), before.password())
                        .withCheckEvery(before.checkEvery());
            }
        }
        builder.sentinel(sentinel);
        if (host != null && !scheme.sentinel) {
            builder.host(host).port(port);
        }
        builder.username(username).password(password).database(database != null ? database : 0);
        if (timeout != null) {
            builder.commandTimeout(timeout);
        }
        if (connectTimeout != null) {
            builder.connectTimeout(connectTimeout);
        }
        if (clientName != null) {
            builder.clientName(clientName);
        }
        if (protocol != null) {
            builder.protocol(protocol);
        }
    }

    /** The address {@code config} connects to, as a URI of this grammar, with the password masked. */
    static String redacted(HaspConfig config) {
        boolean tls = config.tls();
        Path socket = config.socketPath();
        StringBuilder s = new StringBuilder(socket != null ? "redis-socket://"
                : config.isCluster() ? (tls ? "rediss-cluster://" : "redis-cluster://")
                : config.isSentinel() ? (tls ? "rediss-sentinel://" : "redis-sentinel://")
                : tls ? "rediss://" : "redis://");
        if (config.username() != null || config.hasPassword()) {
            s.append(config.username() == null ? "" : config.username()).append(config.hasPassword() ? ":***" : "")
                    .append('@');
        }
        if (socket != null) {
            s.append(socket);
            if (config.database() != 0) {
                s.append("?database=").append(config.database());
            }
            return s.toString();
        }
        if (config.isCluster() || config.isSentinel()) {
            List<InetSocketAddress> servers = config.isCluster() ? config.clusterSeeds() : config.sentinel().sentinels();
            for (int i = 0; i < servers.size(); i++) {
                s.append(i == 0 ? "" : ",").append(bracketed(servers.get(i).getHostString())).append(':')
                        .append(servers.get(i).getPort());
            }
            if (config.isSentinel()) {
                s.append(config.database() != 0 ? "/" + config.database() : "").append('#')
                        .append(config.sentinel().masterName());
            }
            return s.toString();
        }
        s.append(bracketed(config.host())).append(':').append(config.port());
        if (config.database() != 0) {
            s.append('/').append(config.database());
        }
        return s.toString();
    }

    /** An IPv6 address in brackets, as a URI writes it; any other host as it is. */
    private static String bracketed(String host) {
        return host.indexOf(':') >= 0 ? "[" + host + "]" : host;
    }
}
