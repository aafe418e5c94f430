package io.hasp.it.modules;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.lock.HaspLock;
import io.hasp.lock.rw.HaspReadWriteLock;
import io.hasp.lock.rw.HaspReadWriteLocks;
import java.time.Duration;

/**
 * Run by {@link ModulePathIT} in a child JVM whose hasp and Netty jars are on the module path
 * (this class sits on the class path): takes a reentrant lock, a read lock and a write lock, and
 * prints what the module layer says about hasp's packages. Exits with status 1 on any failure.
 */
public final class ModulePathMain {

    private ModulePathMain() {
    }

    public static void main(String[] args) throws Exception {
        Module core = HaspClient.class.getModule();
        Module rw = HaspReadWriteLocks.class.getModule();
        System.out.println("modules " + core.getName() + " " + rw.getName() + " " + HaspLock.class.getModule().getName());
        System.out.println("exported io.hasp.lock: " + core.isExported("io.hasp.lock"));
        System.out.println("exported io.hasp.internal.lock: " + core.isExported("io.hasp.internal.lock"));
        System.out.println("exported io.hasp.internal.lock to io.hasp.lock.rw: " + core.isExported("io.hasp.internal.lock", rw));
        java.util.Set<String> open = new java.util.TreeSet<>();
        for (Module module : java.util.List.of(core, rw, io.hasp.resp.RespReader.class.getModule())) {
            for (String pkg : module.getPackages()) {
                if (module.isExported(pkg, ModulePathMain.class.getModule())) {
                    open.add(pkg);
                }
            }
        }
        System.out.println("exported to the application: " + open);
        try (HaspClient client = HaspClient.create(HaspConfig.fromUri(args[0]))) {
            HaspLock lock = client.getLock("module-path:lock");
            if (!lock.tryLock(Duration.ofSeconds(5), Duration.ofSeconds(10))) {
                throw new AssertionError("reentrant lock not acquired");
            }
            System.out.println("reentrant held: " + lock.isHeldByCurrentThread());
            lock.unlock();
            HaspReadWriteLock readWrite = HaspReadWriteLocks.get(client, "module-path:rw");
            readWrite.readLock().lock();
            System.out.println("read held: " + readWrite.readLock().isHeldByCurrentThread());
            readWrite.readLock().unlock();
            readWrite.writeLock().lock();
            System.out.println("write held: " + readWrite.writeLock().isHeldByCurrentThread());
            readWrite.writeLock().unlock();
            System.out.println("locked after unlocks: " + (lock.isLocked() || readWrite.isLocked()));
        }
        System.out.println("done");
    }
}
