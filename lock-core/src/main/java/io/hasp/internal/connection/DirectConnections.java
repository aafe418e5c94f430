package io.hasp.internal.connection;

import io.hasp.HaspConfig;
import io.hasp.RedisClosedException;
import io.hasp.RedisConnectionException;
import io.hasp.RedisProtocolException;
import io.hasp.resp.RespProtocolException;
import io.netty.util.Timer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The caller-runs path of a single-server client: up to {@link HaspConfig#directConnections()} plain
 * blocking sockets, lent one at a time to a thread that would otherwise hand its command to the event
 * loop and park until the loop hands the reply back. The thread writes the command and reads the reply
 * itself, which saves the two thread hand-offs of every round trip (see the blocking-path notes in
 * {@code lock-bench/results/blocking-path/}).
 *
 * <p>It only ever takes a command it can run at once: {@link #tryCall} answers {@code false}, having
 * sent nothing, on a client thread (which must never block), when more threads of the JVM are inside
 * blocking lock calls than there are direct connections (then the event loop, batching their commands,
 * costs less CPU per call, and CPU is what bounds the rate; threads parked behind another holder make no
 * round trips and do not count: the {@link CallerAdmission} says how many compete), when the multiplexed connections are down
 * (they wait for the reconnect, this path does not), when every direct connection is lent out, or for a
 * while after a direct connection could not be opened; the caller then dispatches the command on the
 * multiplexed pool as usual. Once a command is
 * written here, its failures are those of a multiplexed connection: {@link io.hasp.RedisTimeoutException}
 * when no reply came within the command timeout, {@link RedisConnectionException} when the link
 * failed with the command in flight (never re-sent: the lock engine decides what a lost reply means),
 * {@link RedisProtocolException} for a malformed reply, {@link RedisClosedException} once the client
 * closes. A connection that failed is closed, never reused. A missing script is loaded and the command
 * sent again on a multiplexed connection.
 *
 * <p>Connections open lazily, on the caller's thread, to the address the multiplexed connections
 * reached (no host name lookup here). When a multiplexed connection is lost, every idle direct
 * connection is closed and those lent out are closed when they come back: after a server restart no
 * stale socket is handed out. Thread-safe.
 */
public final class DirectConnections {

    private static final Logger log = LoggerFactory.getLogger(DirectConnections.class);
    /**
     * How long an idle direct connection is kept. Nothing reads a socket between calls, so it cannot notice
     * the server's idle timeout, a NAT's or load balancer's cut, or a restart the way a multiplexed
     * connection does; one unused for 5 s is closed rather than trusted (server and NAT idle limits are
     * longer), and a fresh one costs one round trip more, when calls are that sparse.
     */
    static final long MAX_IDLE_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final HaspConfig config;
    private final CallerAdmission admission;
    private final ConnectionPool pool;
    private final int max;
    private final Timer timer;
    private final long timeoutNanos;
    private final long sweepNanos;
    private final long openPauseNanos;
    private final ConcurrentLinkedDeque<DirectConnection> idle = new ConcurrentLinkedDeque<>();
    private final Set<DirectConnection> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger count = new AtomicInteger();
    private final AtomicInteger opened = new AtomicInteger();
    private final AtomicLong generation = new AtomicLong();
    private final LongAdder calls = new LongAdder();
    private volatile long noOpenUntilNanos = System.nanoTime();
    private final AtomicBoolean sweeping = new AtomicBoolean();
    private volatile boolean closed;

    /**
     * @param config the client's configuration ({@link HaspConfig#directConnections()} &gt; 0)
     * @param pool the multiplexed connections: their state gates this path, their address is used,
     *     and a command's recovery runs on them
     * @param timer the client's timer, which runs the sweep that ends calls past their deadline
     * @param admission which calling threads may take a direct connection, and how many compete for them
     */
    public DirectConnections(HaspConfig config, ConnectionPool pool, Timer timer, CallerAdmission admission) {
        this.config = config;
        this.admission = admission;
        this.pool = pool;
        this.timer = timer;
        this.max = config.directConnections();
        this.timeoutNanos = config.commandTimeout().toNanos();
        this.openPauseNanos = config.reconnectMaxDelay().toNanos();
        // A call past its deadline is closed within a timer tick of it, as a multiplexed command times out.
        this.sweepNanos = config.timerTick().toNanos();
        ConnectionListener onLoss = new ConnectionListener() {
            @Override
            public void connected(RedisConnection connection, boolean reconnect) {
            }

            @Override
            public void disconnected(RedisConnection connection) {
                retireAll();
            }
        };
        for (RedisConnection connection : pool.connections()) {
            connection.addListener(onLoss);
        }
    }

    /**
     * Runs {@code command} on a direct connection on the calling thread, if one is at hand.
     *
     * @param command the command, not dispatched anywhere yet
     * @return {@code true} when the command was taken (it is complete on return, or, recovering a
     *     missing script, completes from a multiplexed connection); {@code false} when nothing was sent
     *     and the caller must dispatch it
     */
    public boolean tryCall(Command<?> command) {
        Thread current = Thread.currentThread();
        if (closed || ClientThreads.isClientThread(current)) {
            return false;   // a client thread never blocks on a socket: its work waits behind it
        }
        if (current.isInterrupted()) {
            // A virtual thread's socket read ends at an interrupt by closing the socket, with the script
            // written: a lost reply. A parked wait on the event loop's reply keeps it.
            return false;
        }
        if (!admission.takeTurn()) {
            return false;   // not a blocking call's own script (e.g. another thread's acquire woken inline)
        }
        if (admission.competingCallers() > max) {
            // More blocking callers than direct connections: the event loop, batching their commands, costs
            // less CPU per call than a round trip of each thread's own, and CPU is then what bounds the rate.
            return false;
        }
        long now = System.nanoTime();
        long callerDeadline = admission.deadline();
        if (callerDeadline != 0 && callerDeadline - now <= 0) {
            return false;   // the call's wait is over: the command timeout applies, on the multiplexed path
        }
        RedisConnection fallback = pool.next();
        InetSocketAddress address = fallback.remoteAddress();
        if (!fallback.isReady() || address == null) {
            return false;   // down: the command waits for the reconnect there
        }
        long deadline = now + timeoutNanos;
        if (callerDeadline != 0 && callerDeadline - deadline < 0) {
            deadline = callerDeadline;   // a bounded tryLock: not read past its wait
        }
        DirectConnection connection = borrow(now);
        if (connection == null && (connection = openOne(address, deadline)) == null) {
            return false;
        }
        fallback.startDeadline(command);
        calls.increment();
        connection.startCall(deadline);
        try {
            connection.call(command, fallback);
        } catch (IOException e) {
            if (connection.timedOut()) {
                command.expire(Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - now)));
            } else {
                command.fail(closed ? new RedisClosedException(connection + ": client closed")
                        : new RedisConnectionException(connection + ": connection lost with " + command.name()
                                + " in flight: " + e.getMessage(), e));
            }
            retire(connection);
            return true;
        } catch (RespProtocolException e) {
            command.fail(new RedisProtocolException(connection + ": malformed reply to " + command.name()
                    + ", closing the connection: " + e.getMessage(), e));
            retire(connection);
            return true;
        } catch (RuntimeException e) {
            command.fail(e);
            retire(connection);
            return true;
        } catch (Error e) {
            retire(connection);
            throw e;
        }
        giveBack(connection);
        return true;
    }

    /**
     * The most recently used idle connection that can still be trusted; older ones and those of an earlier
     * generation are closed on the way.
     */
    private DirectConnection borrow(long now) {
        DirectConnection connection;
        while ((connection = idle.pollFirst()) != null) {
            if (connection.generation == generation.get() && now - connection.lastUsedNanos() < MAX_IDLE_NANOS) {
                return connection;
            }
            retire(connection);
        }
        return null;
    }

    /** Back to the idle ones, unless the call ran over its deadline, the client closed or a loss retired it. */
    private void giveBack(DirectConnection connection) {
        if (!connection.endCall() || closed || connection.generation != generation.get()) {
            retire(connection);
            return;
        }
        idle.offerFirst(connection);
        // close() or retireAll() may have run between the checks and the offer: they must not miss it.
        if ((closed || connection.generation != generation.get()) && idle.remove(connection)) {
            retire(connection);
        }
    }

    /**
     * Opens a connection if the limit allows, within {@code deadline} (connect and handshake).
     *
     * @return the connection, or {@code null} when none could be opened (nothing was sent)
     */
    private DirectConnection openOne(InetSocketAddress address, long deadline) {
        if (System.nanoTime() - noOpenUntilNanos < 0) {
            return null;
        }
        int n;
        do {
            n = count.get();
            if (n >= max) {
                return null;
            }
        } while (!count.compareAndSet(n, n + 1));
        long born = generation.get();
        DirectConnection connection = null;
        boolean ready = false;
        try {
            long connectMillis = Math.min(config.connectTimeout().toMillis(),
                    TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
            connection = DirectConnection.connect(address, connectMillis,
                    "direct-" + opened.incrementAndGet() + " " + address.getHostString() + ":" + address.getPort(), born);
            open.add(connection);
            if (closed) {
                return null;   // close() may have walked the set before the add
            }
            startSweep();
            connection.startCall(deadline);
            connection.handshake(config);
            if (!connection.endCall()) {
                return null;
            }
            ready = !closed;
            return ready ? connection : null;
        } catch (IOException | RuntimeException e) {
            if (!Thread.currentThread().isInterrupted()) {
                // A server that lets the multiplexed connections in but not this one: leave it alone a while.
                noOpenUntilNanos = System.nanoTime() + openPauseNanos;
            }
            log.debug("hasp: cannot open a direct connection to {}, using the multiplexed ones for now: {}",
                    address, e.toString());
            return null;
        } finally {
            if (!ready) {
                if (connection == null) {
                    count.decrementAndGet();
                } else {
                    retire(connection);
                }
            }
        }
    }

    /** Starts the deadline sweep once, with the first connection; it runs until the client closes. */
    private void startSweep() {
        if (sweeping.compareAndSet(false, true)) {
            scheduleSweep();
        }
    }

    private void scheduleSweep() {
        if (closed) {
            return;
        }
        try {
            timer.newTimeout(t -> sweep(), sweepNanos, TimeUnit.NANOSECONDS);
        } catch (IllegalStateException timerStopped) {
            // the client is closing: close() ends every call
        }
    }

    /**
     * Timer thread: closes the sockets of calls past their deadline (their callers fail with a timeout), and
     * the idle connections unused for {@link #MAX_IDLE_NANOS}.
     */
    private void sweep() {
        long now = System.nanoTime();
        for (DirectConnection connection : open) {
            if (connection.expire(now)) {
                log.debug("{}: no reply by the call's deadline, closing the connection", connection);
            }
        }
        for (DirectConnection connection : idle) {
            if (now - connection.lastUsedNanos() >= MAX_IDLE_NANOS && idle.remove(connection)) {
                retire(connection);
            }
        }
        scheduleSweep();
    }

    private void retire(DirectConnection connection) {
        if (open.remove(connection)) {
            count.decrementAndGet();
        }
        connection.close();
    }

    /** A multiplexed connection was lost: no idle direct connection is trusted any longer. */
    private void retireAll() {
        generation.incrementAndGet();
        DirectConnection connection;
        while ((connection = idle.pollFirst()) != null) {
            retire(connection);
        }
    }

    /** @return how many direct connections are open (idle or lent out); for tests and monitoring */
    public int openConnections() {
        return count.get();
    }

    /** @return how many commands run on direct connections now, each waiting for its reply; a snapshot */
    public int commandsInFlight() {
        int calls = 0;
        for (DirectConnection connection : open) {
            if (connection.inCall()) {
                calls++;
            }
        }
        return calls;
    }

    /** @return how many commands were run on direct connections since the client started */
    public long calls() {
        return calls.sum();
    }

    /**
     * Closes every direct connection; a caller blocked on one fails with {@link RedisClosedException}.
     * Idempotent.
     */
    public void close() {
        closed = true;
        idle.clear();
        for (DirectConnection connection : open) {
            retire(connection);
        }
    }
}
