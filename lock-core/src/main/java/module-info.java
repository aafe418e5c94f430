/**
 * The hasp client and its reentrant lock: {@code io.hasp} (the client, its configuration, plain
 * commands, scripts and the exceptions), {@code io.hasp.lock} (the lock API), {@code io.hasp.sync} (the
 * semaphore and latch) and {@code io.hasp.inspect} (what Redis holds for a lock, for operators).
 *
 * <p>Everything under {@code io.hasp.internal} (connections, pool, pub/sub, the lock engine) is not
 * API: it is exported only to hasp's own modules, and may change in any release. On the class path
 * the same rule holds by convention: nothing in an {@code internal} package is for users.
 *
 * <p>The native epoll transport is optional: on the module path add its two modules, for example
 * {@code --add-modules io.netty.transport.classes.epoll,io.netty.transport.epoll.linux.x86_64}
 * (the native jar of the platform present); without them the client uses NIO.
 */
module io.hasp {
    requires transitive io.hasp.resp;
    requires io.netty.common;
    requires io.netty.handler;
    requires io.netty.transport.unix.common;   // the Unix domain socket address (redis-socket://)
    requires static io.netty.transport.classes.epoll;
    requires org.slf4j;

    exports io.hasp;
    exports io.hasp.inspect;
    exports io.hasp.lock;
    exports io.hasp.sync;

    // The read/write lock is built on the lock engine; nothing else outside this module sees it.
    exports io.hasp.internal to io.hasp.lock.rw;
    exports io.hasp.internal.lock to io.hasp.lock.rw;
    exports io.hasp.internal.pubsub to io.hasp.lock.rw;
    exports io.hasp.internal.topology to io.hasp.lock.rw;
}
