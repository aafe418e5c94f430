package io.hasp.inspect;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What an operator asks about locks, answered from Redis and from the client's own records: who holds a lock and who
 * waits ({@link #inspect}), which locks exist ({@link #locks}), and what this client holds ({@link #holds}). Nothing
 * here changes a lock. Obtained from {@link io.hasp.HaspClient#inspector()}; thread-safe. The blocking methods throw
 * what a command throws ({@link io.hasp.RedisException} and its kinds), and refuse to run on the client's own
 * threads, as every blocking call does.
 */
public interface LockInspector {

    /**
     * Reads what Redis holds for {@code name}, in one round trip that changes nothing: which kind of lock or
     * synchronizer it is, each holder with its hold count and lease, the latest fencing token, the fair queue in
     * order, the processes waiting in line and the connections listening for its release; then, for each hasp
     * client it names, the record in which that client names its process ({@link LockInfo#process(String)}).
     * Holders that Redisson clients took read the same way as hasp's, without a process.
     *
     * @param name the name of the lock or synchronizer, not empty
     * @return the reading
     * @throws IllegalArgumentException when {@code name} is null or empty
     */
    LockInfo inspect(String name);

    /**
     * Like {@link #inspect(String)}, without waiting.
     *
     * @param name the name of the lock or synchronizer, not empty
     * @return a future of the reading, failed as a command's is when the server could not be read
     * @throws IllegalArgumentException when {@code name} is null or empty
     */
    CompletableFuture<LockInfo> inspectAsync(String name);

    /**
     * Lists the names of locks matching {@code pattern} (Redis's glob: {@code orders:*}), with {@code SCAN ... TYPE
     * hash} on every master of a cluster, in steps that each look at 1,000 keys, never {@code KEYS}: the server stays
     * responsive whatever the size of its keyspace. A lock is a hash, so any other hash matching the pattern is listed
     * too. A SCAN promises every key that exists from the start to the end of the listing, and may give a key that
     * came or went meanwhile.
     *
     * @param pattern the glob the names match, not empty
     * @param limit the most names to give, 1 to 100,000; the listing stops there
     * @return the names, each once, in the order the masters gave them
     * @throws IllegalArgumentException for an empty pattern or a limit out of range
     */
    List<String> locks(String pattern, int limit);

    /**
     * Like {@link #locks(String, int)}, without waiting.
     *
     * @param pattern the glob the names match, not empty
     * @param limit the most names to give, 1 to 100,000
     * @return a future of the names
     * @throws IllegalArgumentException for an empty pattern or a limit out of range
     */
    CompletableFuture<List<String>> locksAsync(String pattern, int limit);

    /**
     * This client's holds, as it records them: no round trip, so what the client believes (a hold whose loss it
     * has not yet learned of is still there).
     *
     * @return a snapshot, in no particular order
     */
    List<HeldLock> holds();
}
