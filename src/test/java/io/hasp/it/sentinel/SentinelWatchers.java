package io.hasp.it.sentinel;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * What the fleet tests watch from outside the clients, each on a plain socket of its own: when a
 * sentinel announced each step of a failover ({@link SentinelEvents}), and which writes an old master still took
 * after it ({@link WriteLog}, from {@code MONITOR}). Both read on a daemon thread until closed.
 */
final class SentinelWatchers {

    private SentinelWatchers() {
    }

    private static Socket connect(String host, int port, String... command) {
        try {
            Socket socket = new Socket(host, port);
            StringBuilder resp = new StringBuilder("*" + command.length + "\r\n");
            for (String part : command) {
                resp.append('$').append(part.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(part)
                        .append("\r\n");
            }
            OutputStream out = socket.getOutputStream();
            out.write(resp.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            return socket;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Thread reader(Socket socket, String name, LineHandler handler) {
        Thread thread = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    handler.line(line);
                }
            } catch (IOException closed) {
                // closed by the test, or the server died
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private interface LineHandler {
        void line(String line);
    }

    /** When a sentinel first published each event ({@code +switch-master}, {@code +promoted-slave}, ...). */
    static final class SentinelEvents implements AutoCloseable {
        private final Socket socket;
        private final Map<String, Long> firstMillis = new ConcurrentHashMap<>();
        private int linesIntoMessage = -1;
        private String channel;

        SentinelEvents(String host, int port) {
            socket = connect(host, port, "PSUBSCRIBE", "*");
            reader(socket, "sentinel-events", this::line);
        }

        private void line(String line) {
            // RESP2 push: *4, $8, pmessage, $1, *, $n, <channel>, $m, <payload>
            if (line.equals("pmessage")) {
                linesIntoMessage = 0;
                return;
            }
            if (linesIntoMessage >= 0 && ++linesIntoMessage == 4) {
                channel = line;
            } else if (linesIntoMessage == 6) {
                firstMillis.putIfAbsent(channel, System.currentTimeMillis());
                linesIntoMessage = -1;
            }
        }

        /** When {@code event} was first published, ms since the epoch; 0 while it was not. */
        long millis(String event) {
            return firstMillis.getOrDefault(event, 0L);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** The writes ({@code SET}, {@code EVALSHA}) clients sent a server, with the server's timestamps. */
    static final class WriteLog implements AutoCloseable {
        private final Socket socket;
        private final Queue<Long> writeMicros = new ConcurrentLinkedQueue<>();

        WriteLog(String host, int port) {
            socket = connect(host, port, "MONITOR");
            reader(socket, "write-log", this::line);
        }

        private void line(String line) {
            // +1732630000.123456 [0 127.0.0.1:5555] "SET" "counter" "5"; a script's own calls say [0 lua]
            int open = line.indexOf(" [");
            int close = line.indexOf("] \"");
            if (!line.startsWith("+") || open < 0 || close < 0 || line.substring(open, close).contains("lua")) {
                return;
            }
            String command = line.substring(close + 3, line.indexOf('"', close + 3)).toUpperCase();
            if (command.equals("SET") || command.equals("EVALSHA") || command.equals("EVAL")) {
                writeMicros.add(Math.round(Double.parseDouble(line.substring(1, open)) * 1_000_000));
            }
        }

        /** The writes seen after {@code millis} (ms since the epoch). */
        long writesAfter(long millis) {
            return writeMicros.stream().filter(micros -> micros > millis * 1_000).count();
        }

        /** The time of the last write seen, ms since the epoch; 0 for none. */
        long lastWriteMillis() {
            return writeMicros.stream().mapToLong(Long::longValue).max().orElse(0) / 1_000;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
