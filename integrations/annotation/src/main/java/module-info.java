/**
 * hasp's annotation-driven locking without a framework: {@code @Locked} methods behind
 * {@code LockedProxies}, and {@code LockTemplate.executeLocked} for code that locks a block.
 */
module io.hasp.annotation {
    requires transitive io.hasp;
    requires io.hasp.lock.rw;
    requires org.slf4j;

    exports io.hasp.annotation;
}
