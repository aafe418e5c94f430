package io.hasp.it.history;

import io.hasp.HaspClient;
import io.hasp.Replies;
import io.hasp.internal.cluster.ClusterSlot;
import io.hasp.it.lock.ChildJvm;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisCluster;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisSentinel;
import io.hasp.testing.RedisServer;
import io.hasp.testing.TcpProxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The failover cells: the fenced-lock workers run while the master that holds their lock is killed with SIGKILL and
 * a replica promoted, on one of three deployments.
 *
 * <ul>
 *   <li>One master and a replica that copies it through a proxy, the clients reaching the master through a second
 *       proxy (an address that moves to the promoted replica, as a virtual IP or a DNS name does). The replica first
 *       stops copying (its link held) while the master goes on granting, so grants it never saw are lost with the
 *       master: without replica acknowledgements a holder still inside its lease may find a second holder beside it.
 *       The promoted replica then gets a replica of its own.</li>
 *   <li>Sentinel: a master, two replicas and three sentinels; the sentinels promote a replica and the clients
 *       follow them. Replication lags only as much as it does by itself.</li>
 *   <li>Cluster: three masters with a replica each; the replica of the lock's master takes over, and the killed node
 *       comes back as its replica.</li>
 * </ul>
 *
 * With acknowledgements ({@code ReplicaAcks.of(1, 500 ms)}) no grant a holder counts on may be lost, on any of them.
 */
final class FailoverRun {

    /** How long a grant waits for a replica's confirmation in the cells with acknowledgements. */
    private static final long ACKS_MILLIS = 500;
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private final HistoryCells cells;
    private final String name;
    private final boolean acks;
    private final FencedResource resource;

    FailoverRun(HistoryCells cells, String name, boolean acks) {
        this.cells = cells;
        this.name = name;
        this.acks = acks;
        this.resource = new FencedResource(name + ":resource");
    }

    HistoryCellResult run(HistoryCell cell) throws Exception {
        return switch (cell.fault()) {
            case MASTER_KILLED, MASTER_KILLED_WITH_ACKS -> single(cell);
            case SENTINEL_MASTER_KILLED, SENTINEL_MASTER_KILLED_WITH_ACKS -> sentinel(cell);
            default -> cluster(cell);
        };
    }

    private HistoryCellResult single(HistoryCell cell) throws Exception {
        try (RedisServer master = RedisServer.builder().name("history-master").start();
                TcpProxy link = TcpProxy.start(master.host(), master.port());
                RedisServer replica = RedisServer.builder().name("history-replica")
                        .option("replicaof", link.host(), Integer.toString(link.port())).start();
                TcpProxy address = TcpProxy.start(master.host(), master.port())) {
            require(Conditions.await(DEADLINE, () -> info(master, "replication").contains("state=online")
                    && call(master, "WAIT", "1", "1000") instanceof Long copies && copies == 1),
                    "the replica did not come to copy the master");
            RedisServer[] successor = new RedisServer[1];
            try {
                return observed(cell, address.uri(), () -> {
                    link.blackhole(true);
                    long before = scriptCalls(master);
                    require(Conditions.await(DEADLINE, () -> scriptCalls(master) >= before + 50),
                            "the workers did not go on while the replica lagged");
                    master.kill();
                    call(replica, "REPLICAOF", "NO", "ONE");
                    require(Conditions.await(DEADLINE, () -> info(replica, "replication").contains("role:master")),
                            "the replica was not promoted");
                    address.retarget(replica.host(), replica.port());
                    // The promoted master gets a replica of its own, without which no grant could be confirmed.
                    successor[0] = RedisServer.builder().name("history-replica-2")
                            .option("replicaof", replica.host(), Integer.toString(replica.port())).start();
                });
            } finally {
                if (successor[0] != null) {
                    successor[0].close();
                }
            }
        }
    }

    private HistoryCellResult sentinel(HistoryCell cell) throws Exception {
        try (RedisSentinel sentinel = RedisSentinel.start(2, 3)) {
            return observed(cell, sentinel.uri(), sentinel::killMaster);
        }
    }

    private HistoryCellResult cluster(HistoryCell cell) throws Exception {
        try (RedisCluster cluster = RedisCluster.start(3, 1)) {
            return observed(cell, cluster.uri(), () -> {
                RedisServer master = cluster.masterOf(ClusterSlot.of(name));
                master.kill();
                require(Conditions.await(DEADLINE, () -> {
                    RedisServer now = servingNow(cluster);
                    return now != null && now != master;
                }), "no replica took over from " + master);
                // Back in its pair, so that grants can be confirmed again: as the replica of the node that took over,
                // or (as Redis 6.2 sometimes settles it) as the master again with that node following it.
                master.restart();
                require(Conditions.await(DEADLINE, () -> {
                    RedisServer now = servingNow(cluster);
                    return now != null && info(now, "replication").contains("state=online");
                }), "the lock's slot has no master with a replica after " + master + " came back");
            });
        }
    }

    /** The running master that serves the lock's slot now, or null. */
    private RedisServer servingNow(RedisCluster cluster) {
        for (RedisServer node : cluster.nodes()) {
            try (RedisProbe probe = node.isRunning() ? node.probe() : null) {
                if (probe != null && RedisSentinel.isMaster(node) && ownsSlot(probe)) {
                    return node;
                }
            } catch (RuntimeException unreachable) {
                // not serving
            }
        }
        return null;
    }

    private boolean ownsSlot(RedisProbe probe) {
        int slot = ClusterSlot.of(name);
        String nodes = String.valueOf(probe.call("CLUSTER", "NODES"));
        for (String line : nodes.split("\r?\n")) {
            if (!line.contains("myself")) {
                continue;
            }
            String[] fields = line.split(" ");
            for (int i = 8; i < fields.length; i++) {
                String[] range = fields[i].split("-");
                if (range[0].startsWith("[")) {
                    continue;
                }
                int from = Integer.parseInt(range[0]);
                int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
                if (slot >= from && slot <= to) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Starts the workers on {@code uri}, makes the fault once they are under way, waits for grants after it, then
     * lets the workers stop and checks their history.
     */
    private HistoryCellResult observed(HistoryCell cell, String uri, Fault fault) throws Exception {
        Path stop = cells.historyFile("stop-" + cell.fault().label());
        Files.deleteIfExists(stop);
        List<String> problems = new ArrayList<>();
        List<ChildJvm> jvms = new ArrayList<>();
        try (HaspClient observer = HaspClient.create(uri)) {
            cells.workers(jvms, cell, uri, name, -1, acks ? ACKS_MILLIS : 0, stop);
            require(Conditions.await(DEADLINE, () -> accepted(observer) >= 20), "the workers did not start");
            fault.make();
            long afterFault = answeredAccepted(observer);
            if (!Conditions.await(DEADLINE, () -> accepted(observer) >= afterFault + 5)) {
                problems.add("fewer than 5 fenced writes after the failover");
            }
            long writes = answeredAccepted(observer) - afterFault;
            Files.writeString(stop, "stop");
            return cells.checked(cell, cells.histories(jvms), problems)
                    .withNote("fenced writes after the failover: at least " + writes);
        } finally {
            Files.writeString(stop, "stop");
            jvms.forEach(ChildJvm::close);
        }
    }

    /** The fenced writes accepted so far, as the current master of the resource's keys tells; -1 without an answer. */
    private long accepted(HaspClient observer) {
        try {
            Long count = observer.commands().execute(Replies.LONG, "LLEN", resource.acceptedKey())
                    .get(10, TimeUnit.SECONDS);
            return count == null ? 0 : count;
        } catch (Exception unanswered) {
            return -1;   // the failover is under way
        }
    }

    /** The fenced writes accepted so far, asked until an answer comes. */
    private long answeredAccepted(HaspClient observer) {
        long[] count = {-1};
        require(Conditions.await(DEADLINE, () -> (count[0] = accepted(observer)) >= 0),
                "no answer from the master of " + resource.acceptedKey());
        return count[0];
    }

    /** How many EVALSHA calls the server ran: the workers' scripts, which the test's own INFO calls do not count in. */
    private static long scriptCalls(RedisServer server) {
        for (String line : info(server, "commandstats").split("\r?\n")) {
            if (line.startsWith("cmdstat_evalsha:calls=")) {
                return Long.parseLong(line.substring("cmdstat_evalsha:calls=".length(), line.indexOf(',')));
            }
        }
        return 0;
    }

    private static String info(RedisServer server, String section) {
        return String.valueOf(call(server, "INFO", section));
    }

    private static Object call(RedisServer server, String... command) {
        try (RedisProbe probe = server.probe()) {
            return probe.call(command);
        }
    }

    private static void require(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException(what);
        }
    }

    /** The failure a cell makes once its workers are under way. */
    @FunctionalInterface
    private interface Fault {
        void make() throws Exception;
    }
}
