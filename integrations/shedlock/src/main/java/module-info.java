/**
 * hasp as ShedLock's lock provider: {@code @SchedulerLock} jobs that run once across instances, on
 * hasp's reentrant lock in Redisson's layout.
 */
module io.hasp.shedlock {
    requires transitive io.hasp;
    requires transitive net.javacrumbs.shedlock.core;
    requires org.slf4j;

    exports io.hasp.shedlock;
}
