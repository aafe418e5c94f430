/**
 * hasp's distributed read/write lock: {@code io.hasp.lock.rw}, entered through
 * {@code HaspReadWriteLocks.of(client)}.
 */
module io.hasp.lock.rw {
    requires transitive io.hasp;

    exports io.hasp.lock.rw;

    // The lock engine in io.hasp loads this package's .lua scripts as resources.
    opens io.hasp.lock.rw to io.hasp;
}
