package io.hasp.bench.peer;

import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;

/**
 * Curator's {@code InterProcessMutex}: each acquisition creates an ephemeral sequential node under the
 * lock's path and waits, with a watch, for the node just before its own to go; the lowest node holds the
 * lock (first come, first served). A holder that dies loses its nodes when its ZooKeeper session expires.
 * Reentrant for the thread that holds it. Every lock object of a JVM shares that JVM's one client.
 */
final class ZooKeeperLock implements PeerLock {

    private final InterProcessMutex mutex;

    ZooKeeperLock(CuratorFramework client, String name) {
        mutex = new InterProcessMutex(client, "/hasp-bench/" + name);
    }

    @Override
    public void lock() throws Exception {
        mutex.acquire();
    }

    @Override
    public boolean tryLock() throws Exception {
        return mutex.acquire(0, TimeUnit.MILLISECONDS);
    }

    @Override
    public void unlock() throws Exception {
        mutex.release();
    }

    @Override
    public void close() {
        // the client is shared; closing it (PeerEnvironment) removes whatever nodes are left
    }
}
