/**
 * hasp's meters for Micrometer: lock waits, holds, lost holds, renewals, unlock errors and reconnects of a
 * {@code HaspClient}, through the client's {@code HaspListener}, and an {@code Observation} per acquisition.
 */
module io.hasp.micrometer {
    requires transitive io.hasp;
    requires transitive micrometer.core;
    requires transitive micrometer.observation;

    exports io.hasp.micrometer;
}
