/**
 * hasp for Reactor: {@code Mono} and {@code Flux} twins of hasp's locks, owned by the subscription
 * rather than by a thread.
 */
module io.hasp.reactor {
    requires transitive io.hasp;
    requires transitive io.hasp.lock.rw;
    requires transitive reactor.core;
    requires transitive org.reactivestreams;

    exports io.hasp.reactor;
}
