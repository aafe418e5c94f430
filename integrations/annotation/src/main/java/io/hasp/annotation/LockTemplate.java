package io.hasp.annotation;

import io.hasp.HaspClient;
import io.hasp.lock.HaspLock;
import io.hasp.lock.LockOwner;
import io.hasp.lock.rw.HaspReadWriteLocks;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs blocks of code under hasp locks with {@link LockOptions}: the attempts, the jittered pause
 * between them, the release, and what happens when the lock cannot be had. What
 * {@link LockedProxies} and framework integrations call for each {@link Locked} method; usable
 * directly:
 *
 * <pre>{@code
 * LockTemplate locks = new LockTemplate(client);
 * Receipt receipt = locks.executeLocked("stock:deduct:" + sku, LockOptions.defaults(), () -> deduct(sku, 1));
 * }</pre>
 *
 * <p>The lock is held by the calling thread. The block's value comes back and its exceptions go
 * out unchanged. The lock is given back when the block ends, or later where the
 * {@link DeferredRelease} takes it (after a transaction). A release that fails because the hold
 * had already ended (its lease ran out during the block: the block's work was not protected to
 * its end) throws {@link io.hasp.lock.HoldLostException} after a block that returned, and is
 * added as suppressed to the exception of a block that threw. Thread-safe.
 */
public final class LockTemplate {

    private static final Logger log = LoggerFactory.getLogger(LockTemplate.class);

    /** How a call pauses between attempts; replaced in tests to observe the pauses. */
    @FunctionalInterface
    interface Pause {
        void sleep(long nanos) throws InterruptedException;
    }

    private final HaspClient client;
    private final DeferredRelease deferral;
    private final Pause pause;

    /** Locks of {@code client}, given back as each block ends. */
    public LockTemplate(HaspClient client) {
        this(client, DeferredRelease.NEVER);
    }

    /** Locks of {@code client}, given back as each block ends unless {@code deferral} takes the release. */
    public LockTemplate(HaspClient client, DeferredRelease deferral) {
        this(client, deferral, TimeUnit.NANOSECONDS::sleep);
    }

    LockTemplate(HaspClient client, DeferredRelease deferral, Pause pause) {
        this.client = Objects.requireNonNull(client, "client");
        this.deferral = Objects.requireNonNull(deferral, "deferral");
        this.pause = pause;
    }

    /** @return the client whose locks this template takes */
    public HaspClient client() {
        return client;
    }

    /**
     * Runs {@code block} under lock {@code name}.
     *
     * @param name the lock's name, not empty
     * @param options which lock, and how it is taken
     * @param block the work
     * @return what {@code block} returned; {@code null} when the lock could not be had and
     *     {@code options} say {@link WhenUnavailable#SKIP} (the block did not run)
     * @throws LockUnavailableException when the lock could not be had within the attempts
     *     ({@link WhenUnavailable#THROW}) or the waiting was interrupted
     * @throws Exception whatever {@code block} threw, unchanged
     */
    public <T> T executeLocked(String name, LockOptions options, Callable<T> block) throws Exception {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("name: " + (name == null ? "null" : "\"\"") + " (expected: a lock name)");
        }
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(block, "block");
        HaspLock lock = lock(name, options.type());
        if (!acquire(lock, name, options)) {
            return null;
        }
        LockOwner owner = lock.currentOwner();
        T result;
        try {
            result = block.call();
        } catch (Exception | Error failure) {
            release(lock, owner, failure);
            throw failure;
        }
        release(lock, owner, null);
        return result;
    }

    private HaspLock lock(String name, LockType type) {
        return switch (type) {
            case REENTRANT -> client.getLock(name);
            case READ -> HaspReadWriteLocks.get(client, name).readLock();
            case WRITE -> HaspReadWriteLocks.get(client, name).writeLock();
            case FAIR -> client.getFairLock(name);
        };
    }

    /** Attempts until the lock is had or the attempts run out; false when skipping. */
    private boolean acquire(HaspLock lock, String name, LockOptions options) {
        long start = System.nanoTime();
        int attempts = 0;
        try {
            for (;;) {
                attempts++;
                boolean acquired = options.leaseTime() == null
                        ? lock.tryLock(options.waitTime())
                        : lock.tryLock(options.waitTime(), options.leaseTime());
                if (acquired) {
                    return true;
                }
                if (options.retryCount() != 0 && attempts > options.retryCount()) {
                    break;
                }
                pause.sleep(jitter(options.retryInterval()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockUnavailableException(name, attempts, since(start), options, e);
        }
        if (options.whenUnavailable() == WhenUnavailable.SKIP) {
            log.debug("lock {} not acquired after {} attempts: call skipped", name, attempts);
            return false;
        }
        throw new LockUnavailableException(name, attempts, since(start), options, null);
    }

    /** Whether the {@link DeferredRelease} took the release to run later. */
    private boolean deferred(HaspLock lock, LockOwner owner) {
        try {
            return deferral.defer(() -> lock.unlockAsync(owner).whenComplete((ok, e) -> {
                if (e != null) {
                    log.error("lock {}: the release after the transaction failed", lock.getName(), e);
                }
            }));
        } catch (RuntimeException e) {
            log.warn("lock {}: deferring the release failed, releasing now", lock.getName(), e);
            return false;
        }
    }

    /** A pause between {@code interval} and twice it, uniformly. */
    static long jitter(Duration interval) {
        long nanos = interval.toNanos();
        return nanos + ThreadLocalRandom.current().nextLong(nanos + 1);
    }

    private static Duration since(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    private void release(HaspLock lock, LockOwner owner, Throwable failure) {
        if (deferral != DeferredRelease.NEVER && deferred(lock, owner)) {
            return;
        }
        try {
            lock.unlock();
        } catch (RuntimeException e) {
            if (failure == null) {
                throw e;
            }
            failure.addSuppressed(e);
        }
    }
}
