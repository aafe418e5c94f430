package io.hasp.it.history;

import java.util.List;

/**
 * One run of the history matrix: a workload under a fault.
 *
 * @param workload what the worker JVMs do
 * @param fault what goes wrong meanwhile
 */
record HistoryCell(HistoryWorkload workload, HistoryFault fault) {

    /** Every cell the matrix runs, in report order. */
    static List<HistoryCell> matrix() {
        return List.of(
                new HistoryCell(HistoryWorkload.REENTRANT, HistoryFault.NONE),
                new HistoryCell(HistoryWorkload.REENTRANT, HistoryFault.LINK_CUTS),
                new HistoryCell(HistoryWorkload.REENTRANT, HistoryFault.SWALLOWED_REPLIES),
                new HistoryCell(HistoryWorkload.REENTRANT, HistoryFault.CLIENT_RESTARTS),
                new HistoryCell(HistoryWorkload.FENCED, HistoryFault.NONE),
                new HistoryCell(HistoryWorkload.FENCED, HistoryFault.LINK_CUTS),
                new HistoryCell(HistoryWorkload.FENCED, HistoryFault.SWALLOWED_REPLIES),
                new HistoryCell(HistoryWorkload.FENCED, HistoryFault.PAUSED_HOLDER),
                new HistoryCell(HistoryWorkload.FENCED, HistoryFault.MASTER_KILLED),
                new HistoryCell(HistoryWorkload.FENCED, HistoryFault.MASTER_KILLED_WITH_ACKS),
                new HistoryCell(HistoryWorkload.FENCED, HistoryFault.SENTINEL_MASTER_KILLED),
                new HistoryCell(HistoryWorkload.FENCED, HistoryFault.SENTINEL_MASTER_KILLED_WITH_ACKS),
                new HistoryCell(HistoryWorkload.FENCED, HistoryFault.CLUSTER_MASTER_KILLED),
                new HistoryCell(HistoryWorkload.FENCED, HistoryFault.CLUSTER_MASTER_KILLED_WITH_ACKS),
                new HistoryCell(HistoryWorkload.READ_WRITE, HistoryFault.NONE),
                new HistoryCell(HistoryWorkload.READ_WRITE, HistoryFault.LINK_CUTS),
                new HistoryCell(HistoryWorkload.READ_WRITE, HistoryFault.SWALLOWED_REPLIES),
                new HistoryCell(HistoryWorkload.FAIR, HistoryFault.NONE),
                new HistoryCell(HistoryWorkload.FAIR, HistoryFault.LINK_CUTS),
                new HistoryCell(HistoryWorkload.SEMAPHORE, HistoryFault.NONE),
                // Not with swallowed replies: an acquire whose answer is lost keeps its permit (a permit belongs to
                // nobody, so nobody can give it back), and the run soon has no permit left to judge.
                new HistoryCell(HistoryWorkload.SEMAPHORE, HistoryFault.LINK_CUTS),
                new HistoryCell(HistoryWorkload.EXPIRABLE_SEMAPHORE, HistoryFault.NONE),
                new HistoryCell(HistoryWorkload.EXPIRABLE_SEMAPHORE, HistoryFault.LINK_CUTS),
                new HistoryCell(HistoryWorkload.EXPIRABLE_SEMAPHORE, HistoryFault.SWALLOWED_REPLIES));
    }

    @Override
    public String toString() {
        return workload.label() + " / " + fault.label();
    }
}
