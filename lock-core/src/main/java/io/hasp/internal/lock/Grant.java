package io.hasp.internal.lock;

/**
 * A lock granted in a release to the heir of a waiting process ({@code turns.lua}), as that process hears it on its
 * turn channel: {@code "g" + heir}, the heir being {@code "<stamp>:<lease ms>:<owner field>"} as its process named it
 * (the stamp, unique in that client, tells one naming of the same owner from another).
 *
 * @param stamp the naming's stamp
 * @param leaseMillis the lease the lock was granted with
 * @param owner the owner field the lock was granted to
 */
record Grant(long stamp, long leaseMillis, String owner) {

    /** What a grant's message starts with (a turn's is {@code "0"}). */
    static final String MESSAGE_PREFIX = "g";

    /** The heir as named, {@code "<stamp>:<lease ms>:<owner field>"}: what a decline of this grant sends. */
    String heir() {
        return heir(stamp, leaseMillis, owner);
    }

    /** An heir's text, for owner field {@code owner} with lease {@code leaseMillis}, stamped {@code stamp}. */
    static String heir(long stamp, long leaseMillis, String owner) {
        return stamp + ":" + leaseMillis + ":" + owner;
    }

    /** The grant {@code message} tells, or null when it tells none (a turn, or a message hasp does not send). */
    static Grant parse(String message) {
        if (!message.startsWith(MESSAGE_PREFIX)) {
            return null;
        }
        int first = message.indexOf(':');
        int second = first < 0 ? -1 : message.indexOf(':', first + 1);
        if (second < 0 || second == message.length() - 1) {
            return null;
        }
        try {
            return new Grant(Long.parseLong(message, 1, first, 10), Long.parseLong(message, first + 1, second, 10),
                    message.substring(second + 1));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
