/**
 * hasp as Spring Integration's lock registry: {@code HaspLockRegistry} for aggregators, leader election
 * ({@code LockRegistryLeaderInitiator}), idempotent receivers and {@code executeLocked}, on hasp's
 * reentrant lock in Redisson's layout.
 */
module io.hasp.spring.integration {
    requires transitive io.hasp;
    requires transitive spring.integration.core;
    requires transitive spring.context;
    requires transitive spring.beans;
    requires spring.tx;

    exports io.hasp.spring.integration;
}
