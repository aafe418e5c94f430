package io.hasp.it.sync;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.sync.HaspPermitExpirableSemaphore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * The main class of a child JVM that takes permits and holds them until it is killed: {@code permits} permits of
 * the permit-expirable semaphore {@code semaphore} without a lease (kept by hasp's watchdog, whose lease is
 * {@code watchdog} ms), and one permit of Redisson's plain semaphore {@code plain}. Prints
 * {@code HELD <ids>} once it has them all.
 */
public final class PermitHolder {

    private PermitHolder() {
    }

    public static void main(String[] argv) throws Exception {
        Map<String, String> args = new HashMap<>();
        for (String a : argv) {
            int eq = a.indexOf('=');
            args.put(a.substring(0, eq), a.substring(eq + 1));
        }
        HaspClient client = HaspClient.create(HaspConfig.builder().uri(args.get("uri"))
                .watchdogLease(Duration.ofMillis(Long.parseLong(args.get("watchdog")))).build());
        Config config = new Config();
        config.useSingleServer().setAddress(args.get("uri"));
        RedissonClient redisson = Redisson.create(config);
        HaspPermitExpirableSemaphore semaphore = client.getPermitExpirableSemaphore(args.get("semaphore"));
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < Integer.parseInt(args.get("permits")); i++) {
            ids.add(semaphore.acquire());
        }
        redisson.getSemaphore(args.get("plain")).acquire();
        System.out.println("HELD " + String.join(",", ids));
        System.out.flush();
        while (true) {
            LockSupport.park();   // until killed
        }
    }
}
