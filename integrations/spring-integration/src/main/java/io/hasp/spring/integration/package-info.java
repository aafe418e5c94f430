/**
 * Spring Integration's {@code LockRegistry} on hasp: {@link io.hasp.spring.integration.HaspLockRegistry}
 * gives each key a reentrant, thread-held {@code DistributedLock}, kept by hasp's watchdog or given a
 * time to live, renewable, with the unlock errors Spring Integration's Redis registry throws.
 */
package io.hasp.spring.integration;
