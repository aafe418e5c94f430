package io.hasp.it.history;

import io.hasp.testing.history.HistoryChecker;

/** What the worker JVMs of a history run do, and how many holders at once their lock allows. */
enum HistoryWorkload {

    /** The reentrant lock: each hold re-entered once (which sets the lease anew) and released twice. */
    REENTRANT(1),
    /** The fenced lock: each holder writes its token to a {@link FencedResource}; tokens must grow. */
    FENCED(1),
    /** The read/write lock: reads three rounds in four, else a write; no writer beside any other holder. */
    READ_WRITE(HistoryChecker.UNBOUNDED),
    /** The fair lock: holds kept a while, so that waiters queue; grants must also follow the queue. */
    FAIR(1),
    /**
     * The semaphore with 3 permits for its 4 to 6 threads, taken and given back one at a time: never more holders.
     * It has a permit more than the permit-expirable one because an acquire whose answer a cut link lost keeps its
     * permit for good, and the run must not run out of permits.
     */
    SEMAPHORE(3),
    /** The permit-expirable semaphore with 2 permits for its 4 to 6 threads, each with a lease: never more holders. */
    EXPIRABLE_SEMAPHORE(2);

    private final int capacity;

    HistoryWorkload(int capacity) {
        this.capacity = capacity;
    }

    /** How many holders the lock allows at once: its permits for the semaphores. */
    int capacity() {
        return capacity;
    }

    /** The checker for this workload's lock. */
    HistoryChecker checker() {
        return HistoryChecker.withCapacity(capacity);
    }

    /** The name on the command line and in reports: {@code read-write}. */
    String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    static HistoryWorkload of(String label) {
        return valueOf(label.toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
    }
}
