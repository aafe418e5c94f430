package io.hasp.shedlock;

import io.hasp.HaspClient;
import io.hasp.lock.Blocking;
import io.hasp.lock.HaspLock;
import io.hasp.lock.LockOwner;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import net.javacrumbs.shedlock.core.AbstractSimpleLock;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ShedLock's lock provider on hasp: a job's lock is a hasp reentrant lock named {@code <prefix><job
 * name>} (a Redis hash in Redisson's layout, so a Redisson client sees it held), taken with a lease.
 *
 * <ul>
 *   <li>{@link #lock} never waits: one attempt, with the lease running to the configuration's
 *       {@code lockAtMostFor} (from when ShedLock created it); empty when another instance holds the
 *       job's lock.</li>
 *   <li>Unlocking before {@code lockAtLeastFor} has passed keeps the lock and sets its lease to the time
 *       left, so the job does not run again before then; afterwards it frees the lock.</li>
 *   <li>{@link SimpleLock#extend} resets the lease to the new {@code lockAtMostFor} from now, and is
 *       empty when the lock had already run out or been taken.</li>
 *   <li>Every lock taken is its own owner (not the calling thread): its unlock and extension only ever
 *       touch its own hold, never a lock another instance took after this one's ran out, whichever
 *       thread calls them.</li>
 * </ul>
 *
 * <p>Redis failures surface as hasp's {@link io.hasp.RedisException}s from {@link #lock}; an unlock
 * or extension that finds its hold gone is logged, as ShedLock expects of an expired lock. Thread-safe.
 *
 * <pre>{@code
 * @Bean LockProvider lockProvider(HaspClient client) { return new HaspLockProvider(client); }
 * }</pre>
 */
public final class HaspLockProvider implements ExtensibleLockProvider {

    /** The prefix of the jobs' lock names when none is given: {@code "shedlock:"}. */
    public static final String DEFAULT_PREFIX = "shedlock:";

    private static final Logger log = LoggerFactory.getLogger(HaspLockProvider.class);

    private final HaspClient client;
    private final String prefix;
    private final Duration minLease;
    /**
     * Owners of the providers' locks count down from -1, one count for every provider of the JVM (two
     * providers may share a client): the client's threads own positive ids.
     */
    private static final AtomicLong OWNERS = new AtomicLong();
    /** What the provider's calls are, in the message that refuses one on a hasp client thread. */
    private static final String OPERATION = "a ShedLock lock call";

    /**
     * A provider whose locks are named {@code shedlock:<job name>}.
     *
     * @param client the client the locks are taken with; the provider does not close it
     */
    public HaspLockProvider(HaspClient client) {
        this(client, DEFAULT_PREFIX);
    }

    /**
     * @param client the client the locks are taken with; the provider does not close it
     * @param prefix put before each job's name to make its lock's name (may be empty)
     * @throws IllegalArgumentException when {@code client} or {@code prefix} is null
     */
    public HaspLockProvider(HaspClient client, String prefix) {
        if (client == null) {
            throw new IllegalArgumentException("client: null (expected: a HaspClient)");
        }
        if (prefix == null) {
            throw new IllegalArgumentException("prefix: null (expected: a lock name prefix, possibly empty)");
        }
        this.client = client;
        this.prefix = prefix;
        this.minLease = client.config().timerTick();
    }

    @Override
    public Optional<SimpleLock> lock(LockConfiguration configuration) {
        Blocking.checkAllowed(OPERATION);
        HaspLock lock = client.getLock(prefix + configuration.getName());
        LockOwner owner = lock.owner(-OWNERS.incrementAndGet());
        boolean acquired = join(lock.tryLockAsync(Duration.ZERO, leaseUntil(configuration.getLockAtMostUntil()), owner));
        return acquired ? Optional.of(new HaspSimpleLock(configuration, lock, owner)) : Optional.empty();
    }

    /** From now to {@code until}, at least the client's timer tick (its shortest lease). */
    private Duration leaseUntil(Instant until) {
        Duration left = Duration.between(ClockProvider.now(), until);
        return left.compareTo(minLease) < 0 ? minLease : left;
    }

    private static <T> T join(CompletableFuture<T> future) {
        return Blocking.join(future, OPERATION);
    }

    /** One job's lock as ShedLock holds it: the hold of its own owner. */
    private final class HaspSimpleLock extends AbstractSimpleLock {
        private final HaspLock lock;
        private final LockOwner owner;

        HaspSimpleLock(LockConfiguration configuration, HaspLock lock, LockOwner owner) {
            super(configuration);
            this.lock = lock;
            this.owner = owner;
        }

        @Override
        protected void doUnlock() {
            Duration atLeast = Duration.between(ClockProvider.now(), lockConfiguration.getLockAtLeastUntil());
            try {
                if (atLeast.compareTo(minLease) >= 0) {
                    // Kept until lockAtLeastFor has passed: the lease runs out then.
                    if (!join(lock.extendAsync(atLeast, owner))) {
                        log.info("ShedLock lock {} had ended before its unlock", lock.getName());
                    }
                } else {
                    join(lock.unlockAsync(owner));
                }
            } catch (IllegalMonitorStateException ended) {   // HoldLostException too: its lease ran out, or it was lost
                log.info("ShedLock lock {} had ended before its unlock: {}", lock.getName(), ended.getMessage());
            }
        }

        @Override
        protected Optional<SimpleLock> doExtend(LockConfiguration extended) {
            boolean held = join(lock.extendAsync(leaseUntil(extended.getLockAtMostUntil()), owner));
            return held ? Optional.of(new HaspSimpleLock(extended, lock, owner)) : Optional.empty();
        }

        @Override
        public String toString() {
            return "HaspSimpleLock[" + lock.getName() + ", " + owner + ", " + lockConfiguration + "]";
        }
    }
}
