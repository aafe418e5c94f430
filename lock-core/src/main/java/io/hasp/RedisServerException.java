package io.hasp;

import java.util.Set;

/**
 * The server answered a command with an error reply ({@code -ERR ...} or RESP3 {@code !}).
 *
 * <p>{@link #code()} is the error's first word as the server sent it, for example
 * {@code "ERR"}, {@code "WRONGTYPE"}, {@code "READONLY"}, {@code "LOADING"}, {@code "BUSY"},
 * {@code "NOAUTH"} or {@code "NOSCRIPT"}. The connection stays usable after a server error.
 */
public class RedisServerException extends RedisException {

    private static final long serialVersionUID = 1L;

    /** The codes that say "not now": loading, busy with a script, a replica, a cluster failing over. */
    private static final Set<String> TRANSIENT_CODES =
            Set.of("LOADING", "BUSY", "READONLY", "TRYAGAIN", "CLUSTERDOWN", "MASTERDOWN");

    /** The error code: the first word of the server's error message, e.g. {@code "WRONGTYPE"}. */
    private final String code;

    /**
     * Creates a server error from the full error text.
     *
     * @param serverMessage the error reply as sent by the server, e.g. {@code "WRONGTYPE Operation against a key..."}
     */
    public RedisServerException(String serverMessage) {
        super(serverMessage);
        this.code = codeOf(serverMessage);
    }

    /**
     * The error's code: the first word of the server's message ({@code "ERR"} when the message is empty).
     *
     * @return the code, never {@code null}
     */
    public String code() {
        return code;
    }

    /**
     * Extracts the code (first word) from a server error message.
     *
     * @param serverMessage the error text
     * @return the first word, or {@code "ERR"} for an empty message
     */
    public static String codeOf(String serverMessage) {
        if (serverMessage == null || serverMessage.isEmpty()) {
            return "ERR";
        }
        int space = serverMessage.indexOf(' ');
        return space < 0 ? serverMessage : serverMessage.substring(0, space);
    }

    /**
     * Whether the error is the server's "not now": {@code LOADING}, {@code BUSY}, {@code READONLY}
     * (a master turned replica in a failover), {@code TRYAGAIN}, {@code CLUSTERDOWN} or
     * {@code MASTERDOWN}.
     *
     * @return true for those codes
     */
    @Override
    public boolean retryable() {
        return TRANSIENT_CODES.contains(code);
    }
}
