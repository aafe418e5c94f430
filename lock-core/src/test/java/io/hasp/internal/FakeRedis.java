package io.hasp.internal;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback server that reads RESP commands and answers each with what {@link Script} says for
 * its connection number and command: for servers that misbehave in ways a real redis-server
 * cannot be made to. Closing it closes its sockets and joins its threads.
 */
final class FakeRedis implements AutoCloseable {

    /** The raw reply to a command (e.g. {@code ":1\r\n"}), or {@code null} to close the connection. */
    interface Script {
        String reply(int connection, List<String> command);
    }

    private final ServerSocket server;
    private final Script script;
    private final AtomicInteger connections = new AtomicInteger();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();

    FakeRedis(Script script) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.script = script;
        Thread acceptor = new Thread(this::accept, "fake-redis");
        threads.add(acceptor);
        acceptor.start();
    }

    int port() {
        return server.getLocalPort();
    }

    /** Connections accepted so far. */
    int connections() {
        return connections.get();
    }

    /** Closes every accepted connection (the server keeps accepting). */
    void dropConnections() throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                sockets.add(socket);
                int number = connections.incrementAndGet();
                Thread handler = new Thread(() -> serve(socket, number), "fake-redis-" + number);
                threads.add(handler);
                handler.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket socket, int number) {
        try (socket; InputStream in = new BufferedInputStream(socket.getInputStream());
                OutputStream out = socket.getOutputStream()) {
            for (;;) {
                List<String> command = readCommand(in);
                if (command == null) {
                    return;
                }
                String reply = script.reply(number, command);
                if (reply == null) {
                    return;
                }
                out.write(reply.getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (IOException closed) {
            // the client or close() closed the connection
        }
    }

    /** One command as upper-cased name followed by its arguments, or {@code null} at end of stream. */
    private static List<String> readCommand(InputStream in) throws IOException {
        String header = readLine(in);
        if (header == null) {
            return null;
        }
        if (!header.startsWith("*")) {
            throw new IOException("not a command array: " + header);
        }
        int count = Integer.parseInt(header.substring(1));
        List<String> parts = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String length = readLine(in);
            if (length == null) {
                return null;
            }
            byte[] bytes = in.readNBytes(Integer.parseInt(length.substring(1)) + 2);
            String part = new String(bytes, 0, bytes.length - 2, StandardCharsets.UTF_8);
            parts.add(i == 0 ? part.toUpperCase(Locale.ROOT) : part);
        }
        return parts;
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b; (b = in.read()) != -1; ) {
            if (b == '\n') {
                return line.toString();
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        server.close();
        dropConnections();
        try {
            for (Thread thread : threads) {
                thread.join(TimeUnit.SECONDS.toMillis(10));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
