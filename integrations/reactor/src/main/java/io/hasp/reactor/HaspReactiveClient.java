package io.hasp.reactor;

import io.hasp.HaspClient;
import io.hasp.lock.HaspLock;
import io.hasp.lock.MultiLock;
import io.hasp.lock.rw.HaspReadWriteLocks;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A {@link HaspClient}'s locks and synchronizers for Reactor. It owns nothing: closing the client ends it.
 *
 * <pre>{@code
 * HaspReactiveClient locks = HaspReactiveClient.of(client);
 * Mono<Receipt> receipt = locks.getLock("stock:" + sku).withLock(deductOne(sku));
 * }</pre>
 *
 * Thread-safe.
 */
public final class HaspReactiveClient {

    private final HaspClient client;
    private final HaspReadWriteLocks readWriteLocks;

    private HaspReactiveClient(HaspClient client) {
        this.client = client;
        this.readWriteLocks = HaspReadWriteLocks.of(client);
    }

    /** {@code client}'s locks for Reactor. */
    public static HaspReactiveClient of(HaspClient client) {
        Objects.requireNonNull(client, "client");
        return new HaspReactiveClient(client);
    }

    /** The client. */
    public HaspClient client() {
        return client;
    }

    /** The reentrant lock {@code name}: {@code client.getLock(name)}. */
    public ReactiveLock getLock(String name) {
        return ReactiveLock.of(client.getLock(name));
    }

    /** The fair lock {@code name}: {@code client.getFairLock(name)}. */
    public ReactiveLock getFairLock(String name) {
        return ReactiveLock.of(client.getFairLock(name));
    }

    /** The fenced lock {@code name}: {@code client.getFencedLock(name)}. */
    public ReactiveFencedLock getFencedLock(String name) {
        return ReactiveFencedLock.of(client.getFencedLock(name));
    }

    /** The read/write lock {@code name}. */
    public ReactiveReadWriteLock getReadWriteLock(String name) {
        return ReactiveReadWriteLock.of(readWriteLocks.get(name));
    }

    /** The semaphore {@code name}: {@code client.getSemaphore(name)}. */
    public ReactiveSemaphore getSemaphore(String name) {
        return ReactiveSemaphore.of(client.getSemaphore(name));
    }

    /** The permit-expirable semaphore {@code name}: {@code client.getPermitExpirableSemaphore(name)}. */
    public ReactivePermitExpirableSemaphore getPermitExpirableSemaphore(String name) {
        return ReactivePermitExpirableSemaphore.of(client.getPermitExpirableSemaphore(name));
    }

    /** The count-down latch {@code name}: {@code client.getCountDownLatch(name)}. */
    public ReactiveCountDownLatch getCountDownLatch(String name) {
        return ReactiveCountDownLatch.of(client.getCountDownLatch(name));
    }

    /** The locks {@code locks} held together (each may come from any client). */
    public ReactiveMultiLock getMultiLock(ReactiveLock... locks) {
        Objects.requireNonNull(locks, "locks");
        List<HaspLock> members = new ArrayList<>(locks.length);
        for (ReactiveLock lock : locks) {
            members.add(Objects.requireNonNull(lock, "a member lock").haspLock());
        }
        return ReactiveMultiLock.of(MultiLock.of(members));
    }

    @Override
    public String toString() {
        return "HaspReactiveClient[" + client + "]";
    }
}
