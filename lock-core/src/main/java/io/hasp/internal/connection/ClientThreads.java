package io.hasp.internal.connection;

import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Creates and remembers the threads of one client ({@code hasp-io-<client>-<n>},
 * {@code hasp-timer-<client>}), so that {@code close()} can wait for all of them to end and
 * blocking calls can refuse to run on them. Thread-safe.
 */
public final class ClientThreads implements ThreadFactory {

    private static final AtomicInteger CLIENTS = new AtomicInteger();

    private final String prefix;
    private final AtomicInteger count = new AtomicInteger();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();

    /**
     * Creates a factory whose threads are named {@code <role>-<client number>-<n>}.
     *
     * @param role e.g. {@code "hasp-io"}
     * @param clientNumber the client's sequence number in this JVM
     */
    public ClientThreads(String role, int clientNumber) {
        this.prefix = role + "-" + clientNumber + "-";
    }

    /**
     * A new sequence number for a client in this JVM, used in its thread names.
     *
     * @return the number, starting at 1
     */
    public static int nextClientNumber() {
        return CLIENTS.incrementAndGet();
    }

    /**
     * Whether {@code thread} is an event-loop or timer thread of any hasp client; blocking
     * there would stall the replies or timeouts being waited for.
     *
     * @param thread the thread to test
     * @return {@code true} for a hasp client thread
     */
    public static boolean isClientThread(Thread thread) {
        return thread instanceof ClientThread;
    }

    @Override
    public Thread newThread(Runnable task) {
        Thread thread = new ClientThread(task, prefix + count.incrementAndGet());
        threads.add(thread);
        return thread;
    }

    /**
     * Waits until every thread this factory created has ended, up to a deadline.
     *
     * @param timeout how long to wait in total
     * @param unit the timeout's unit
     * @return {@code true} if all ended
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean join(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        for (Thread thread : threads) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return !thread.isAlive() && threads.stream().noneMatch(Thread::isAlive);
            }
            TimeUnit.NANOSECONDS.timedJoin(thread, left);
        }
        return threads.stream().noneMatch(Thread::isAlive);
    }

    private static final class ClientThread extends FastThreadLocalThread {
        ClientThread(Runnable task, String name) {
            super(task, name);
            setDaemon(true);
        }
    }
}
