package io.hasp;

import io.hasp.internal.ClientInternals;
import io.hasp.internal.Futures;
import io.hasp.internal.cluster.ClusterTopology;
import io.hasp.internal.connection.ClientThreads;
import io.hasp.internal.connection.Transport;
import io.hasp.internal.inspect.ClientInspector;
import io.hasp.internal.inspect.ClientRecord;
import io.hasp.internal.lock.CallerWaits;
import io.hasp.internal.lock.LockService;
import io.hasp.internal.lock.Locks;
import io.hasp.internal.sentinel.SentinelTopology;
import io.hasp.internal.sync.PermitWaiters;
import io.hasp.internal.sync.RedisCountDownLatch;
import io.hasp.internal.sync.RedisPermitExpirableSemaphore;
import io.hasp.internal.sync.RedisSemaphore;
import io.hasp.internal.sync.WatchdogPermits;
import io.hasp.internal.topology.SingleServer;
import io.hasp.internal.topology.Topology;
import io.hasp.inspect.LockInspector;
import io.hasp.lock.FencedLock;
import io.hasp.lock.HaspLock;
import io.hasp.sync.HaspCountDownLatch;
import io.hasp.sync.HaspPermitExpirableSemaphore;
import io.hasp.sync.HaspSemaphore;
import io.netty.util.HashedWheelTimer;
import io.netty.util.Timer;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entry point: one client per application and server, created once and closed at
 * shutdown. It owns an event-loop group (native epoll when it loads, NIO otherwise), one
 * {@link HashedWheelTimer}, a small pool of multiplexed command connections and a dedicated
 * pub/sub connection. On a Redis Cluster ({@code redis-cluster://}) it keeps one command
 * connection per master instead, and a pub/sub connection on each master where waiters listen. Behind
 * Redis Sentinel ({@code redis-sentinel://}) it finds the master through the sentinels and moves its
 * connections to each new master the sentinels announce.
 *
 * <p>Thread-safe. Every future the client returns completes on one of its event-loop threads
 * ({@code hasp-io-<n>-<m>}), or on an application thread inside one of the client's blocking lock calls
 * when that call's reply completed it (a blocking call reads its replies on its own thread, see
 * {@link HaspConfig.Builder#directConnections(int)}); never block in a callback. hasp's own blocking calls (a lock's
 * {@code lock()}, {@code create}) fail fast with {@link IllegalStateException} on those threads
 * instead of waiting for themselves.
 */
public final class HaspClient implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(HaspClient.class);

    static {
        ClientInternals.install(new ClientInternals.Access() {
            @Override
            public LockService lockService(HaspClient client) {
                return client.locks;
            }

            @Override
            public Topology topology(HaspClient client) {
                return client.topology;
            }

            @Override
            public Timer timer(HaspClient client) {
                return client.timer;
            }
        });
    }

    /** How long close() waits for the deletion of the client's record at most. */
    private static final long RECORD_DELETE_WAIT_MILLIS = 1_000;

    private final String id = newId();
    private final HaspConfig config;
    private final ClientThreads ioThreads;
    private final ClientThreads timerThreads;
    private final Transport transport;
    private final HashedWheelTimer timer;
    /** Where the locks live: one server, a cluster or a Sentinel-watched master, chosen by the configuration's URI. */
    private final Topology topology;
    private final LockService locks;
    private final PermitWaiters permitWaiters;
    private final WatchdogPermits watchdogPermits;
    private volatile boolean closed;
    private final LockInspector inspector;
    /** The record naming this client's process to inspect, written once connected. */
    private volatile ClientRecord record;

    private HaspClient(HaspConfig config) {
        this.config = config;
        int number = ClientThreads.nextClientNumber();
        this.ioThreads = new ClientThreads("hasp-io", number);
        this.timerThreads = new ClientThreads("hasp-timer", number);
        this.timer = new HashedWheelTimer(timerThreads, config.timerTick().toMillis(), TimeUnit.MILLISECONDS, 512);
        this.transport = Transport.create(config.eventLoopThreads(), config.nativeTransport(), ioThreads);
        this.topology = config.isCluster() ? new ClusterTopology(config, transport, timer)
                : config.isSentinel() ? new SentinelTopology(config, transport, timer)
                : new SingleServer(config, transport, timer, CallerWaits.admission());
        this.permitWaiters = new PermitWaiters(topology, id, config.listener());
        this.locks = new LockService(id, topology, timer, config.watchdogLease(), config.timerTick(),
                config.commandTimeout(), config.listener());
        this.watchdogPermits = new WatchdogPermits(topology, locks.watchdogLeaseMillis(), locks::startRenewing,
                config.listener());
        locks.renewAlongside(watchdogPermits::renewNow);
        this.inspector = new ClientInspector(topology, locks);
    }

    /**
     * Creates a client and connects it: returns once every connection is ready.
     *
     * @param config the configuration
     * @return the connected client
     * @throws io.hasp.RedisAuthException when the server refuses the credentials
     * @throws RedisConnectionException when the server cannot be reached within the connect timeout
     * @throws IllegalStateException when {@link HaspConfig#replicaAcks()} asks fsync confirmations of a server
     *     without {@code WAITAOF} (before Redis 7.2)
     * @throws IllegalStateException when called on a hasp client thread
     */
    public static HaspClient create(HaspConfig config) {
        if (config == null) {
            throw new IllegalArgumentException("config: null (expected: a HaspConfig)");
        }
        Futures.checkBlockingAllowed("HaspClient.create");
        if (config.socketPath() != null && !(config.nativeTransport() && Transport.nativeAvailable())) {
            throw new IllegalArgumentException("socket " + config.socketPath() + ": Unix domain sockets (redis-socket://)"
                    + " need Netty's native epoll transport, which " + (config.nativeTransport()
                    ? "did not load here (it needs Linux and netty-transport-native-epoll on the class path)"
                    : "this configuration turns off (nativeTransport(false))"));
        }
        HaspClient client = new HaspClient(config);
        try {
            client.start();
            return client;
        } catch (RuntimeException | Error e) {
            client.close();
            throw e;
        }
    }

    /**
     * Creates a client from a URI with default settings otherwise.
     *
     * @param uri {@code redis://[[user]:password@]host[:port][/database][?parameters]},
     *     {@code rediss://...} or {@code redis-socket:///path}; see {@link HaspConfig} for the grammar
     * @return the connected client
     */
    public static HaspClient create(String uri) {
        return create(HaspConfig.fromUri(uri));
    }

    private void start() {
        long waitMillis = config.connectTimeout().toMillis() + 2 * config.commandTimeout().toMillis();
        CompletableFuture<Void> ready = topology.start();
        try {
            ready.get(waitMillis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = Futures.unwrap(e);
            if (cause instanceof RedisException) {
                throw (RedisException) cause;
            }
            throw new RedisConnectionException("cannot connect to " + config.redactedUri() + ": " + cause, cause);
        } catch (TimeoutException e) {
            throw new RedisConnectionException("cannot connect to " + config.redactedUri() + " within " + waitMillis + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisConnectionException("interrupted while connecting to " + config.redactedUri());
        }
        log.debug("hasp client {} connected to {} ({} transport)", id, config.redactedUri(),
                transport.isNative() ? "epoll" : "nio");
        record = ClientRecord.start(commands(), timer, id,
                config.clientName() != null ? config.clientName() : ClientRecord.defaultApplication(),
                config.watchdogLease().toMillis());
        if (config.replicaAcks().fsync()) {
            checkWaitAof();
        }
    }

    /** Refuses to start on a server without {@code WAITAOF} (before Redis 7.2), which fsync confirmations need. */
    private void checkWaitAof() {
        try {
            // Asks nothing (0 local, 0 replicas): answers at once where WAITAOF exists.
            Futures.await(commands().execute(Replies.STRING_LIST, "WAITAOF", "0", "0", "0"),
                    config.commandTimeout().multipliedBy(2));
        } catch (RedisServerException unknownCommand) {
            throw new IllegalStateException("replicaAcks " + config.replicaAcks() + " confirms with WAITAOF, which Redis"
                    + " 7.2 and later have; " + config.redactedUri() + " has no WAITAOF (use ReplicaAcks.of(n, timeout)"
                    + " without withFsync() there): " + unknownCommand.getMessage(), unknownCommand);
        }
    }

    /**
     * Returns this client instance's id, the prefix of its lock owner names: a random UUID of version 8, which tells
     * other hasp clients that the holder of a lock is a hasp client whose release gives the next turn to the
     * processes waiting in line (Redisson's ids are version 4; see docs/locks.md).
     *
     * @return the id, {@code "xxxxxxxx-xxxx-8xxx-yxxx-xxxxxxxxxxxx"}
     */
    public String id() {
        return id;
    }

    /** A random UUID of version 8 (RFC 9562's form for ids whose bits the maker chooses): 122 random bits. */
    static String newId() {
        UUID random = UUID.randomUUID();
        long high = (random.getMostSignificantBits() & ~0xF000L) | 0x8000L;
        return new UUID(high, random.getLeastSignificantBits()).toString();
    }

    /** @return the configuration */
    public HaspConfig config() {
        return config;
    }

    /** @return the asynchronous command API */
    public RedisCommands commands() {
        return topology.commands();
    }

    /**
     * The reentrant lock named {@code name}, wire-compatible with Redisson's {@code getLock(name)}:
     * same hash, owner field, lease and unlock channel, so hasp and Redisson clients exclude and
     * wake each other. Locks are cheap views; all of one client's locks share its watchdog and
     * its wait subscriptions.
     *
     * @param name the lock's Redis key
     * @return the lock
     * @throws IllegalArgumentException when {@code name} is null or empty
     */
    public HaspLock getLock(String name) {
        return Locks.reentrant(locks, name);
    }

    /**
     * The fenced lock named {@code name}: the reentrant lock (same hash, so it excludes a plain lock
     * of the same name), and every acquisition returns a fencing token, strictly greater than every
     * token issued before for this name, from the counter Redisson's {@code RFencedLock} uses. The
     * resource the lock protects checks the token and refuses a stale holder.
     *
     * @param name the lock's Redis key
     * @return the lock
     * @throws IllegalArgumentException when {@code name} is null or empty
     */
    public FencedLock getFencedLock(String name) {
        return Locks.fenced(locks, name);
    }

    /**
     * The fair lock named {@code name}: the reentrant lock (same hash, owner field, lease and watchdog), granted
     * first come first served. Waiters stand in one line in Redis, Redisson's {@code getFairLock(name)} queue, so
     * hasp and Redisson waiters keep one order; only the head of the line is woken, on a channel of its own. A
     * waiter that gives up (its wait time passes, it is interrupted, its future cancelled) leaves the line at
     * once. A waiter that stopped without a word (its process killed, its link cut) keeps its place for at most
     * this client's {@link HaspConfig#watchdogLease() watchdog lease}, as a holder keeps the lock: hasp waiters
     * renew their place at least every third of it, measured on the server's clock. A fair lock is never
     * handed from one thread of this client to another past the line.
     *
     * @param name the lock's Redis key
     * @return the lock
     * @throws IllegalArgumentException when {@code name} is null or empty
     */
    public HaspLock getFairLock(String name) {
        return Locks.fair(locks, name);
    }

    /**
     * The semaphore named {@code name}, wire-compatible with Redisson's {@code getSemaphore(name)}: the free permits
     * at {@code name}, releases announced on {@code redisson_sc:{<name>}}, so that hasp and Redisson clients share
     * it. Semaphores are cheap views; all of one client's waiters of one semaphore share one subscription.
     *
     * @param name the semaphore's Redis key
     * @return the semaphore
     * @throws IllegalArgumentException when {@code name} is null or empty
     */
    public HaspSemaphore getSemaphore(String name) {
        return new RedisSemaphore(topology, permitWaiters, timer, name);
    }

    /**
     * The permit-expirable semaphore named {@code name}, wire-compatible with Redisson's
     * {@code getPermitExpirableSemaphore(name)}: the free permits at {@code name}, the leased permits in the sorted set
     * {@code {<name>}:timeout} scored by the end of their leases, permits that come back announced on
     * {@code redisson_sc:{<name>}}, so that hasp and Redisson clients share it. Each acquisition leases one permit and
     * returns its id; a permit taken without a lease time is kept by this client's watchdog. Cheap views; all of one
     * client's waiters of one semaphore share one subscription.
     *
     * @param name the semaphore's Redis key
     * @return the semaphore
     * @throws IllegalArgumentException when {@code name} is null or empty
     */
    public HaspPermitExpirableSemaphore getPermitExpirableSemaphore(String name) {
        return new RedisPermitExpirableSemaphore(topology, permitWaiters, timer, watchdogPermits, name);
    }

    /**
     * The count-down latch named {@code name}, wire-compatible with Redisson's {@code getCountDownLatch(name)}: the
     * count at {@code name}, its waiters told on {@code redisson_countdownlatch__channel__{<name>}}, so that hasp and
     * Redisson clients share it. Latches are cheap views.
     *
     * @param name the latch's Redis key
     * @return the latch
     * @throws IllegalArgumentException when {@code name} is null or empty
     */
    public HaspCountDownLatch getCountDownLatch(String name) {
        return new RedisCountDownLatch(topology, permitWaiters, timer, name);
    }

    /**
     * The reentrant lock named {@code name} ({@link #getLock(String)}), its grants, re-entries, extensions
     * and unlocks confirmed by replicas as {@code acks} asks, whatever this client's
     * {@link HaspConfig#replicaAcks()}: {@link ReplicaAcks#NONE} for a lock that needs none on a client that
     * asks them. Its watchdog renewals are confirmed as the client's are. Use one setting per name: a
     * thread holding a lock through one setting does not re-enter it through another.
     *
     * @throws IllegalArgumentException when {@code name} is null or empty, or {@code acks} null
     */
    public HaspLock getLock(String name, ReplicaAcks acks) {
        return Locks.reentrant(locks, name, acks);
    }

    /**
     * The fenced lock named {@code name} ({@link #getFencedLock(String)}), its grants and tokens confirmed by
     * replicas as {@code acks} asks; as {@link #getLock(String, ReplicaAcks)}.
     *
     * @throws IllegalArgumentException when {@code name} is null or empty, or {@code acks} null
     */
    public FencedLock getFencedLock(String name, ReplicaAcks acks) {
        return Locks.fenced(locks, name, acks);
    }

    /**
     * The client's inspector, for operators' questions: who holds a lock and who waits ({@code inspect(name)}),
     * which locks exist ({@code locks(pattern, limit)}), what this client holds ({@code holds()}). Each hasp client
     * names its process for it in a record of its own at {@code hasp_client:{<id>}} while it runs (docs/operations.md).
     *
     * @return the inspector, one per client
     */
    public LockInspector inspector() {
        return inspector;
    }

    /**
     * Number of holds this client currently tracks, of every kind of lock (reentrant, read,
     * write), with the watchdog or a lease time; for monitoring.
     */
    public int heldLocks() {
        return locks.heldLocks();
    }

    /**
     * How many holds of this client ended before their unlock since it started: {@link io.hasp.lock.HoldEnd#LOST}
     * (the key was gone: deleted, flushed, lost in a failover, or unreachable past its lease) or
     * {@link io.hasp.lock.HoldEnd#EXPIRED} (a lease time ran out). Each is work that ran without the lock's
     * protection for a while; for monitoring and health checks.
     */
    public long lostHolds() {
        return locks.lostHolds();
    }

    /**
     * How many renewal script calls the client's watchdog has sent so far, for every kind of lock
     * (each renews a batch of holds); for monitoring.
     */
    public long renewalCalls() {
        return locks.renewalCalls();
    }

    /**
     * How many of the watchdog's renewal calls the master applied but fewer replicas than
     * {@link HaspConfig#replicaAcks()} asks confirmed in time (each is also logged as a warning): a
     * failover then could give those holds their previous, shorter lease back. 0 without replica acks.
     */
    public long unconfirmedRenewals() {
        return locks.unconfirmedRenewals();
    }

    /**
     * How many commands the client has sent or queued and not had answered yet, on every server it
     * talks to (lock scripts, renewals, and the application's own {@link #commands()}; subscriptions are
     * not counted). A queue that grows means the server or the network cannot keep up. A snapshot that
     * counts nothing per command; for monitoring.
     */
    public int commandsInFlight() {
        return topology.commandsInFlight();
    }

    /** @return whether {@link #close()} was called */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Closes the client: pending and later commands fail with
     * {@link io.hasp.RedisClosedException}, connections close, the event loops and the
     * timer stop, and (unless called on a client thread) waits until every client thread has
     * ended. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        // First, while the connections are up: no lock is granted to this process any more (one granted as it
        // closes goes on at once). Waited for with the record's deletion below.
        CompletableFuture<Void> leftLines = locks.leaveLines();
        locks.close();
        watchdogPermits.close();   // its permits are renewed no more: their leases run out in Redis
        permitWaiters.close();   // semaphore and latch waits end now: their timers and subscriptions go with the client
        boolean onClientThread = ClientThreads.isClientThread(Thread.currentThread());
        ClientRecord written = record;
        if (written != null || !leftLines.isDone()) {
            CompletableFuture<?> leftAndDeleted = CompletableFuture.allOf(leftLines,
                    written != null ? written.close() : CompletableFuture.completedFuture(null));
            if (!onClientThread) {
                try {
                    // Bounded: a slow or unreachable server must not hold up close(); the record then expires, and
                    // so does a grant to this process.
                    leftAndDeleted.get(Math.min(config.commandTimeout().toMillis(), RECORD_DELETE_WAIT_MILLIS),
                            TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (ExecutionException | TimeoutException e) {
                    log.debug("hasp client {}: its record was not deleted or a line not left; they expire within a"
                            + " lease", id, e);
                }
            }
        }
        CompletableFuture<Void> connectionsClosed = topology.close();
        if (!onClientThread) {
            try {
                connectionsClosed.get(config.connectTimeout().toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                log.debug("hasp client {}: connections did not close cleanly", id, e);
            }
        }
        transport.group().shutdownGracefully(0, 2, TimeUnit.SECONDS);
        transport.stopLookups();
        if (onClientThread) {
            transport.group().terminationFuture().addListener(f -> {
                timer.stop();
                locks.endStranded();
            });
            return;
        }
        timer.stop();
        // The timer dropped what it had scheduled (parks, retries, deadlines): end what waited on it.
        locks.endStranded();
        try {
            transport.group().terminationFuture().await(5, TimeUnit.SECONDS);
            if (!ioThreads.join(5, TimeUnit.SECONDS) || !timerThreads.join(5, TimeUnit.SECONDS)) {
                log.warn("hasp client {}: some client threads did not end within 5 s", id);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "HaspClient[" + id + " " + config.redactedUri() + "]";
    }
}
