package io.hasp.internal.lock;

import java.util.List;

/**
 * The argument layout of a script call whose keys span several slots of one cluster node: a
 * script's declared keys must share one slot, so such a batch declares none and passes its keys
 * first among the arguments, {@code [k, key1..keyk, arg1..argn]}. Only scripts that say they
 * accept it (the renewal scripts) may be called this way. Stateless.
 */
public final class UndeclaredKeys {

    private UndeclaredKeys() {
    }

    /** {@code args} preceded by the number of {@code keys} and the keys themselves. */
    public static Object[] args(List<String> keys, Object[] args) {
        Object[] all = new Object[1 + keys.size() + args.length];
        all[0] = (long) keys.size();
        for (int i = 0; i < keys.size(); i++) {
            all[1 + i] = keys.get(i);
        }
        System.arraycopy(args, 0, all, 1 + keys.size(), args.length);
        return all;
    }
}
