/**
 * The distributed read/write lock: {@link io.hasp.lock.rw.HaspReadWriteLocks#of} gives a client's
 * read/write locks; each {@link io.hasp.lock.rw.HaspReadWriteLock} has a read and a write
 * {@link io.hasp.lock.rw.ModeLock}. Any number of readers together, or one writer; the writer may
 * take the read lock (downgrade), a reader may not take the write lock
 * ({@link io.hasp.lock.rw.LockUpgradeException}). Wire-compatible with Redisson's
 * {@code RReadWriteLock}.
 */
package io.hasp.lock.rw;
