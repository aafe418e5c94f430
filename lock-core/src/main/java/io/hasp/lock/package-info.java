/**
 * The lock API: {@link io.hasp.lock.HaspLock}, a distributed {@link java.util.concurrent.locks.Lock}
 * with async twins, wire-compatible with Redisson's {@code RLock}; {@link io.hasp.lock.LockOwner},
 * the owner of a hold (client id and holder id); and {@link io.hasp.lock.HoldEnd}, how a hold
 * ended (released, or lost when the lease could not be kept).
 */
package io.hasp.lock;
