package io.hasp.lock.rw;

import io.hasp.internal.lock.Turns;
import java.util.ArrayList;
import java.util.List;

/**
 * The process on whose behalf a read/write release runs, and what it asks for its place in the writers' line: the
 * arguments {@code turns.lua}'s {@code announce_free} reads when the release frees the lock.
 *
 * @param process the releasing process (its hasp client id), or "" for none
 * @param staysInLine 2 when other waiters of the process go on waiting, 1 when its acquisitions are expected back,
 *     0 when it keeps no place
 * @param listensShared whether the process itself listens on the lock's channel
 */
record ReleasingProcess(String process, int staysInLine, boolean listensShared) {

    /** A release on behalf of no process (a rollback): it keeps nobody a place. */
    static final ReleasingProcess NONE = new ReleasingProcess("", 0, false);

    private static final Long PLACE_MILLIS = Turns.PLACE_MILLIS;
    private static final Long TURN_MILLIS = Turns.TURN_MILLIS;

    /** {@code keys} followed by lock {@code name}'s line, places and turn keys. */
    static List<String> withLine(List<String> keys, String name) {
        List<String> all = new ArrayList<>(keys.size() + 3);
        all.addAll(keys);
        all.addAll(RwKeys.inLine(name).subList(1, 4));
        return all;
    }

    /** {@code args} followed by this process's arguments (ARGV[6] to ARGV[11] of the unlock scripts). */
    Object[] withArgs(String name, Object... args) {
        Object[] all = new Object[args.length + 6];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = process;
        all[args.length + 1] = Integer.toString(staysInLine);
        all[args.length + 2] = PLACE_MILLIS;
        all[args.length + 3] = TURN_MILLIS;
        all[args.length + 4] = RwKeys.turnChannelPrefix(name);
        all[args.length + 5] = listensShared ? "1" : "0";
        return all;
    }
}
