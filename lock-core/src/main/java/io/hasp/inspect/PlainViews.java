package io.hasp.inspect;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Readings as plain values, for whatever shows them to an operator as JSON or a table (the Spring Boot endpoint,
 * the command line): maps with a fixed order of keys, lists, strings, numbers, booleans and nulls, nothing else.
 * Instants are ISO-8601 strings; durations are whole milliseconds under keys that end in {@code Millis}. A holder
 * or waiter of a hasp client carries its process ({@code application}, {@code host}, {@code pid},
 * {@code clientStartedAt}) when its record was read. Stable: an operator's scripts may rely on these keys.
 */
public final class PlainViews {

    private PlainViews() {
    }

    /**
     * @param info a reading of {@link LockInspector#inspect(String)}
     * @return its plain view: {@code name}, {@code kind}, {@code held}, {@code readAt}, {@code leaseLeftMillis},
     *     {@code holders}, {@code fencingToken}, {@code queue}, {@code waitingProcesses}, {@code turn},
     *     {@code listeners}, {@code value}, {@code leasedPermits}
     */
    public static Map<String, Object> of(LockInfo info) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("name", info.name());
        view.put("kind", info.kind().name());
        view.put("held", info.isHeld());
        view.put("readAt", instant(info.readAt()));
        view.put("leaseLeftMillis", millis(info.leaseLeft()));
        List<Object> holders = new ArrayList<>();
        for (LockHolder holder : info.holders()) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("owner", holder.owner());
            one.put("clientId", holder.clientId());
            one.put("holderId", holder.holderId());
            one.put("holdCount", holder.holdCount());
            one.put("mode", holder.mode().name());
            one.put("leaseLeftMillis", millis(holder.leaseLeft()));
            one.put("hasp", holder.isHasp());
            process(one, info, holder.clientId());
            holders.add(one);
        }
        view.put("holders", holders);
        view.put("fencingToken", info.fencingToken());
        List<Object> queue = new ArrayList<>();
        for (QueuedWaiter waiter : info.queue()) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("owner", waiter.owner());
            one.put("clientId", waiter.clientId());
            one.put("holderId", waiter.holderId());
            one.put("deadline", instant(waiter.deadline()));
            one.put("placeLeftMillis", millis(waiter.placeLeft()));
            process(one, info, waiter.clientId());
            queue.add(one);
        }
        view.put("queue", queue);
        List<Object> processes = new ArrayList<>();
        for (String clientId : info.waitingProcesses()) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("clientId", clientId);
            process(one, info, clientId);
            processes.add(one);
        }
        view.put("waitingProcesses", processes);
        view.put("turn", info.turn());
        view.put("listeners", info.listeners());
        view.put("value", info.value());
        view.put("leasedPermits", info.leasedPermits());
        return view;
    }

    /**
     * @param hold one of this client's holds ({@link LockInspector#holds()})
     * @return its plain view: {@code name}, {@code kind}, {@code owner}, {@code clientId}, {@code holderId},
     *     {@code holdCount}, {@code heldSince}, {@code leaseLeftMillis}, {@code watchdog}, {@code fencingToken}
     */
    public static Map<String, Object> of(HeldLock hold) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("name", hold.name());
        view.put("kind", hold.kind());
        view.put("owner", hold.owner().field());
        view.put("clientId", hold.owner().clientId());
        view.put("holderId", hold.owner().holderId());
        view.put("holdCount", hold.holdCount());
        view.put("heldSince", instant(hold.heldSince()));
        view.put("leaseLeftMillis", millis(hold.leaseLeft()));
        view.put("watchdog", hold.watchdog());
        view.put("fencingToken", hold.fencingToken());
        return view;
    }

    private static void process(Map<String, Object> view, LockInfo info, String clientId) {
        info.process(clientId).ifPresent(process -> {
            view.put("application", process.application());
            view.put("host", process.host());
            view.put("pid", process.pid());
            view.put("clientStartedAt", instant(process.startedAt()));
        });
    }

    private static String instant(Instant instant) {
        return instant == null ? null : instant.toString();
    }

    private static Long millis(Duration duration) {
        return duration == null ? null : duration.toMillis();
    }
}
