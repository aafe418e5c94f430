package io.hasp.lock.rw;

import io.hasp.client.RedisCommands;
import io.hasp.client.Replies;
import io.hasp.client.script.Script;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code renew.lua}: extend a batch of read and write holds (hash and timeout keys) in one call. */
final class RwRenewScript {

    static final Script SCRIPT = Script.fromResource(RwRenewScript.class, "renew.lua");

    private RwRenewScript() {
    }

    /**
     * Renews, for each i, the hold of {@code ownerFields[i]} in {@code modes[i]} on lock {@code names[i]}
     * to at least {@code leaseMillis}.
     *
     * @return a future of a string with one character per hold: {@code '1'} renewed, {@code '0'} no longer held
     */
    static CompletableFuture<String> run(RedisCommands redis, List<String> names, List<String> ownerFields,
            List<LockMode> modes, long leaseMillis) {
        List<String> keys = new ArrayList<>(2 * names.size());
        Object[] args = new Object[names.size() + 1];
        args[0] = leaseMillis;
        for (int i = 0; i < names.size(); i++) {
            String owner = ownerFields.get(i);
            keys.add(names.get(i));
            keys.add(RwKeys.timeoutPrefix(names.get(i), owner));
            args[i + 1] = modes.get(i) == LockMode.WRITE ? RwKeys.writeField(owner) : owner;
        }
        return redis.evalsha(SCRIPT, Replies.STRING, keys, args);
    }
}
