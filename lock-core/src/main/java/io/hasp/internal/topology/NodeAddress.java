package io.hasp.internal.topology;

/**
 * A server's client address: a cluster node's as the cluster announces it, a master's as the sentinels name it.
 *
 * @param host its host name or IP address
 * @param port its client port
 */
public record NodeAddress(String host, int port) {

    public NodeAddress {
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("host: " + (host == null ? "null" : "empty") + " (expected: a host)");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port: " + port + " (expected: 1..65535)");
        }
    }

    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
