package io.hasp.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The plain-text form of the plain views: aligned columns an operator reads at a glance. */
final class Tables {

    private Tables() {
    }

    /** @return a reading of {@code PlainViews.of(LockInfo)} as lines */
    @SuppressWarnings("unchecked")
    static List<String> lock(Map<String, Object> view) {
        List<String> lines = new ArrayList<>();
        lines.add("lock       " + view.get("name"));
        lines.add("kind       " + view.get("kind") + (Boolean.TRUE.equals(view.get("held")) ? ", held" : ", free"));
        lines.add("lease left " + millis(view.get("leaseLeftMillis")));
        if (view.get("fencingToken") != null) {
            lines.add("token      " + view.get("fencingToken"));
        }
        if (view.get("value") != null) {
            lines.add("value      " + view.get("value"));
        }
        List<Map<String, Object>> holders = (List<Map<String, Object>>) view.get("holders");
        if (!holders.isEmpty()) {
            lines.add("");
            List<List<String>> rows = new ArrayList<>();
            rows.add(List.of("HOLDER", "COUNT", "MODE", "LEASE LEFT", "PROCESS"));
            for (Map<String, Object> holder : holders) {
                rows.add(List.of(String.valueOf(holder.get("owner")), String.valueOf(holder.get("holdCount")),
                        String.valueOf(holder.get("mode")), millis(holder.get("leaseLeftMillis")), process(holder)));
            }
            lines.addAll(columns(rows));
        }
        List<Map<String, Object>> queue = (List<Map<String, Object>>) view.get("queue");
        if (!queue.isEmpty()) {
            lines.add("");
            List<List<String>> rows = new ArrayList<>();
            rows.add(List.of("QUEUED", "DEADLINE", "PLACE LEFT", "PROCESS"));
            for (Map<String, Object> waiter : queue) {
                rows.add(List.of(String.valueOf(waiter.get("owner")), String.valueOf(waiter.get("deadline")),
                        millis(waiter.get("placeLeftMillis")), process(waiter)));
            }
            lines.addAll(columns(rows));
        }
        List<Map<String, Object>> processes = (List<Map<String, Object>>) view.get("waitingProcesses");
        if (!processes.isEmpty()) {
            lines.add("");
            List<List<String>> rows = new ArrayList<>();
            rows.add(List.of("WAITING CLIENT", "PROCESS"));
            for (Map<String, Object> waiting : processes) {
                rows.add(List.of(String.valueOf(waiting.get("clientId")), process(waiting)));
            }
            lines.addAll(columns(rows));
        }
        lines.add("");
        lines.add("listeners  " + view.get("listeners") + (view.get("turn") == null ? "" : ", turn of " + view.get("turn")));
        return lines;
    }

    /** @return one line that says who holds the lock and who waits, for {@code watch} */
    @SuppressWarnings("unchecked")
    static String summary(Map<String, Object> view) {
        StringBuilder line = new StringBuilder(String.valueOf(view.get("name")));
        List<Map<String, Object>> holders = (List<Map<String, Object>>) view.get("holders");
        if (holders.isEmpty()) {
            line.append(" free");
        } else {
            line.append(" held by");
            for (int i = 0; i < holders.size(); i++) {
                Map<String, Object> holder = holders.get(i);
                line.append(i == 0 ? " " : ", ").append(holder.get("owner")).append(" x").append(holder.get("holdCount"));
                String process = process(holder);
                if (!process.equals("-")) {
                    line.append(" (").append(process).append(')');
                }
            }
        }
        line.append("; queued ").append(((List<?>) view.get("queue")).size())
                .append(", waiting processes ").append(((List<?>) view.get("waitingProcesses")).size())
                .append(", listeners ").append(view.get("listeners"));
        return line.toString();
    }

    private static String process(Map<String, Object> who) {
        if (who.get("application") == null) {
            return "-";
        }
        return who.get("application") + " on " + who.get("host") + ", pid " + who.get("pid");
    }

    private static String millis(Object millis) {
        return millis == null ? "-" : millis + " ms";
    }

    private static List<String> columns(List<List<String>> rows) {
        int[] widths = new int[rows.get(0).size()];
        for (List<String> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        List<String> lines = new ArrayList<>();
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                line.append(i == row.size() - 1 ? row.get(i) : String.format("%-" + widths[i] + "s  ", row.get(i)));
            }
            lines.add(line.toString().stripTrailing());
        }
        return lines;
    }
}
