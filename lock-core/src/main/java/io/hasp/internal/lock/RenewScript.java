package io.hasp.internal.lock;

import io.hasp.RedisCommands;
import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.lock.LockOwner;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code renew.lua}: extend the leases of a batch of held locks in one call. */
final class RenewScript {

    static final Script SCRIPT = Script.fromResource(RenewScript.class, "renew.lua");

    private RenewScript() {
    }

    /**
     * Resets the lease of {@code keys[i]} to {@code leaseMillis} where {@code owners[i]} still holds it.
     *
     * With {@code keysDeclared} false the keys travel {@link UndeclaredKeys undeclared}, for keys of
     * several slots on one cluster node.
     *
     * @return a future of a string with one character per key: {@code '1'} renewed, {@code '0'} no longer held
     */
    static CompletableFuture<String> run(RedisCommands redis, List<String> keys, List<LockOwner> owners,
            long leaseMillis, boolean keysDeclared) {
        Object[] args = args(owners, leaseMillis);
        return keysDeclared ? redis.evalsha(SCRIPT, Replies.STRING, keys, args)
                : redis.evalsha(SCRIPT, Replies.STRING, List.of(), UndeclaredKeys.args(keys, args));
    }

    private static Object[] args(List<LockOwner> owners, long leaseMillis) {
        Object[] args = new Object[owners.size() + 1];
        args[0] = leaseMillis;
        for (int i = 0; i < owners.size(); i++) {
            args[i + 1] = owners.get(i).field();
        }
        return args;
    }
}
