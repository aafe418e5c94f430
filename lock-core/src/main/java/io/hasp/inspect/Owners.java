package io.hasp.inspect;

/** Reading owner fields, {@code "<client id>:<holder id>"}. */
final class Owners {

    private Owners() {
    }

    /** Whether {@code clientId} is a UUID of version 8, as hasp's client ids are. */
    static boolean isHasp(String clientId) {
        return clientId.length() == 36 && clientId.charAt(8) == '-' && clientId.charAt(14) == '8';
    }
}
