package io.hasp.lock.rw;

import io.hasp.RedisCommands;
import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.internal.lock.UndeclaredKeys;
import io.hasp.lock.LockOwner;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code renew.lua}: extend a batch of read or write holds (hash and timeout keys) in one call. */
final class RwRenewScript {

    static final Script SCRIPT = Script.fromResource(RwRenewScript.class, "renew.lua");

    private RwRenewScript() {
    }

    /**
     * Renews, for each i, the {@code mode} hold of {@code owners[i]} on lock {@code names[i]} to at
     * least {@code leaseMillis}: a read hold's own timeout keys and the hash, or a write hold's hash.
     * With {@code keysDeclared} false the keys travel {@link UndeclaredKeys undeclared}, for locks of several
     * slots on one cluster node.
     *
     * @return a future of a string with one character per hold: {@code '1'} renewed, {@code '0'} no longer held
     */
    static CompletableFuture<String> run(RedisCommands redis, List<String> names, List<LockOwner> owners,
            LockMode mode, long leaseMillis, boolean keysDeclared) {
        List<String> keys = new ArrayList<>(2 * names.size());
        Object[] args = new Object[names.size() + 1];
        args[0] = leaseMillis;
        for (int i = 0; i < names.size(); i++) {
            String owner = owners.get(i).field();
            keys.add(names.get(i));
            keys.add(RwKeys.timeoutPrefix(names.get(i), owner));
            args[i + 1] = mode == LockMode.WRITE ? RwKeys.writeField(owner) : owner;
        }
        return keysDeclared ? redis.evalsha(SCRIPT, Replies.STRING, keys, args)
                : redis.evalsha(SCRIPT, Replies.STRING, List.of(), UndeclaredKeys.args(keys, args));
    }
}
