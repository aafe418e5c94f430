package io.hasp.lock.rw;

import io.hasp.HaspClient;
import io.hasp.inspect.LockInfo;
import io.hasp.internal.lock.LockArguments;

/**
 * Frees a lock whoever holds it, whatever its kind, for operators (the Spring Boot endpoint, the command line): the
 * kind comes from a reading of {@link io.hasp.inspect.LockInspector#inspect(String)}, and the lock is freed as that
 * kind's own {@code forceUnlock} does it (a fair lock keeps its queue, a fenced lock its token counter, so that the
 * next token is still greater than every one before). A holder whose lock is freed so does not know it until it
 * unlocks or renews; meanwhile two holders may work at once.
 */
public final class ForceUnlock {

    private ForceUnlock() {
    }

    /**
     * Frees the lock {@code reading} names, as the kind it read.
     *
     * @param client the client that frees it
     * @param reading a reading of the lock, taken just before
     * @return true when a lock was held and is now free; false when there was none (kind {@code NONE}, or freed meanwhile)
     * @throws IllegalArgumentException when an argument is null, or the reading is not of a lock (a semaphore, a latch,
     *     another key), which force-unlock leaves alone
     */
    public static boolean run(HaspClient client, LockInfo reading) {
        LockArguments.notNull("client", client);
        LockArguments.notNull("reading", reading);
        String name = reading.name();
        switch (reading.kind()) {
            case NONE:
                return false;
            case REENTRANT:
                return client.getLock(name).forceUnlock();
            case FENCED:
                return client.getFencedLock(name).forceUnlock();
            case FAIR:
                return client.getFairLock(name).forceUnlock();
            case READ_WRITE:
                HaspReadWriteLock lock = HaspReadWriteLocks.get(client, name);
                return lock.writeLock().forceUnlock() | lock.readLock().forceUnlock();
            default:
                throw new IllegalArgumentException("not a lock: " + name + " is a " + reading.kind()
                        + " (force-unlock frees reentrant, fenced, fair and read/write locks)");
        }
    }
}
