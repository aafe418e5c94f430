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
     * @return a future of a string with one character per key: {@code '1'} renewed, {@code '0'} no longer held
     */
    static CompletableFuture<String> run(RedisCommands redis, List<String> keys, List<LockOwner> owners,
            long leaseMillis) {
        return redis.evalsha(SCRIPT, Replies.STRING, keys, args(owners, leaseMillis));
    }

    /** Like {@link #run}, on one cluster node, with keys of several slots passed {@link UndeclaredKeys undeclared}. */
    static CompletableFuture<String> runOnNode(RedisCommands node, List<String> keys, List<LockOwner> owners,
            long leaseMillis) {
        return node.evalsha(SCRIPT, Replies.STRING, List.of(), UndeclaredKeys.args(keys, args(owners, leaseMillis)));
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
