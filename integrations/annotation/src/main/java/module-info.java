/**
 * hasp's annotation-driven locking without a framework: {@code @Locked} methods behind
 * {@code LockedProxies}, and {@code LockTemplate.executeLocked} for code that locks a block.
 */
module io.hasp.annotation {
    requires transitive io.hasp;
    requires io.hasp.lock.rw;
    requires org.slf4j;
    // Only for @Locked methods that return Mono or Flux, when the application has Reactor.
    requires static io.hasp.reactor;
    requires static reactor.core;
    requires static org.reactivestreams;
    // Only for @Locked Kotlin suspend functions, when the application has hasp-kotlin.
    requires static io.hasp.kotlin;
    requires static kotlin.stdlib;

    exports io.hasp.annotation;
}
