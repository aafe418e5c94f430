package io.hasp.lock.rw;

import io.hasp.HaspClient;
import io.hasp.inspect.LockHolder;
import io.hasp.inspect.LockInfo;
import io.hasp.internal.lock.LockArguments;

/**
 * Frees a lock whoever holds it, whatever its kind, for operators (the Spring Boot endpoint, the command line): the
 * kind comes from a reading of {@link io.hasp.inspect.LockInspector#inspect(String)}, and the lock is freed as that
 * kind's own {@code forceUnlock} does it (a fair lock keeps its queue, a fenced lock its token counter, so that the
 * next token is still greater than every one before), a read/write lock only in the mode it was read in. A hash is
 * freed only when every field has the form of a lock owner ({@code <client id>:<holder id>}), so a hash of the
 * application's own that merely holds numbers is left alone. A holder whose lock is freed so does not know it until
 * it unlocks or renews; meanwhile two holders may work at once.
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
     *     another key, a hash whose fields are not lock owners), which force-unlock leaves alone
     */
    public static boolean run(HaspClient client, LockInfo reading) {
        LockArguments.notNull("client", client);
        LockArguments.notNull("reading", reading);
        String name = reading.name();
        LockInfo.Kind kind = reading.kind();
        boolean lock = kind == LockInfo.Kind.REENTRANT || kind == LockInfo.Kind.FENCED || kind == LockInfo.Kind.FAIR
                || kind == LockInfo.Kind.READ_WRITE;
        if (kind == LockInfo.Kind.NONE || lock && reading.holders().isEmpty()) {
            return false;   // nobody holds it (a fenced lock's counter or a fair lock's queue alone)
        }
        if (!lock) {
            throw new IllegalArgumentException("not a lock: " + name + " is a " + kind
                    + " (force-unlock frees reentrant, fenced, fair and read/write locks)");
        }
        for (LockHolder holder : reading.holders()) {
            if (!isOwner(holder)) {   // a hash of the application's own, whose numbers only look like hold counts
                throw new IllegalArgumentException("not a lock: " + name + " is a hash whose field " + holder.owner()
                        + " is no lock owner (<client id>:<holder id>); force-unlock leaves it alone");
            }
        }
        switch (kind) {
            case REENTRANT:
                return client.getLock(name).forceUnlock();
            case FENCED:
                return client.getFencedLock(name).forceUnlock();
            case FAIR:
                return client.getFairLock(name).forceUnlock();
            default:
                // Only the mode read: freeing the other too could free a holder that came in between.
                HaspReadWriteLock rw = HaspReadWriteLocks.get(client, name);
                boolean writing = reading.holders().stream().anyMatch(holder -> holder.mode() == LockHolder.Mode.WRITE);
                return writing ? rw.writeLock().forceUnlock() : rw.readLock().forceUnlock();
        }
    }

    /** Whether {@code holder} has the form of a lock owner: a client's UUID and a holder id. */
    private static boolean isOwner(LockHolder holder) {
        String id = holder.clientId();
        return holder.holderId() != null && id.length() == 36 && id.charAt(8) == '-' && id.charAt(13) == '-'
                && id.charAt(18) == '-' && id.charAt(23) == '-';
    }
}
