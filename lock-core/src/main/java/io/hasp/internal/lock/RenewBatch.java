package io.hasp.internal.lock;

import io.hasp.RedisCommands;
import io.hasp.internal.topology.KeyBatch;
import io.hasp.lock.LockOwner;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One watchdog renewal of holds of one {@link LockKind}, as a {@link KeyBatch} the client's topology
 * sends: {@code owners.get(i)}'s hold on lock {@code names.get(i)} gets lease {@code leaseMillis}. A
 * renewal the master applied but too few replicas confirmed stands ({@link Unconfirmed#renewal}); {@code
 * unconfirmed} is null when the client asks no confirmations.
 */
record RenewBatch(LockKind kind, List<String> names, List<LockOwner> owners, long leaseMillis, Unconfirmed unconfirmed)
        implements KeyBatch {

    @Override
    public List<String> keys() {
        return names;
    }

    @Override
    public KeyBatch only(List<Integer> positions) {
        List<String> someNames = new ArrayList<>(positions.size());
        List<LockOwner> someOwners = new ArrayList<>(positions.size());
        for (int i : positions) {
            someNames.add(names.get(i));
            someOwners.add(owners.get(i));
        }
        return new RenewBatch(kind, someNames, someOwners, leaseMillis, unconfirmed);
    }

    @Override
    public CompletableFuture<String> send(RedisCommands redis, boolean keysDeclared) {
        CompletableFuture<String> renewed = kind.renew(redis, names, owners, leaseMillis, keysDeclared);
        return unconfirmed == null ? renewed : unconfirmed.renewal(renewed, names.size());
    }
}
