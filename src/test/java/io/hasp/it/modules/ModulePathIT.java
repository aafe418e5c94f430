package io.hasp.it.modules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.lock.rw.HaspReadWriteLocks;
import io.hasp.resp.RespReader;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.unix.Socket;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslHandler;
import io.netty.resolver.AddressResolver;
import io.netty.util.Timer;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;

/**
 * hasp as a user of the module system runs it: the hasp and Netty jars on the module path, the
 * application on the class path, in a child JVM. The module descriptors must resolve, the lock
 * engine must load its scripts (lock-rw's from its own module), and only the API packages may be
 * exported to the application.
 */
@ExtendWith(RedisServerExtension.class)
class ModulePathIT {

    /** One class of each jar the modules need; their jars (or class directories) form the module path. */
    private static final List<Class<?>> MODULES = List.of(RespReader.class, HaspClient.class, HaspReadWriteLocks.class,
            ByteBuf.class, Timer.class, Channel.class, ByteToMessageDecoder.class, SslHandler.class,
            AddressResolver.class, Socket.class, Logger.class);

    @Test
    void locksWorkWithHaspOnTheModulePath(RedisServer server) throws Exception {
        Set<String> modulePath = new LinkedHashSet<>();
        for (Class<?> type : MODULES) {
            modulePath.add(Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        }
        String application = Path.of(ModulePathMain.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--module-path", String.join(File.pathSeparator, modulePath),
                "--add-modules", "io.hasp.lock.rw",
                "-cp", application, ModulePathMain.class.getName(), server.uri()));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output;
        try {
            output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child JVM did not end within 60 s:\n" + output);
        } finally {
            child.destroyForcibly();
        }
        assertEquals(0, child.exitValue(), String.join(" ", command) + "\n" + output);
        for (String line : List.of("modules io.hasp io.hasp.lock.rw io.hasp",
                "exported io.hasp.lock: true",
                "exported io.hasp.internal.lock: false",
                "exported io.hasp.internal.lock to io.hasp.lock.rw: true",
                "exported to the application: [io.hasp, io.hasp.inspect, io.hasp.lock, io.hasp.lock.rw, io.hasp.resp, io.hasp.sync]",
                "reentrant held: true", "read held: true", "write held: true",
                "locked after unlocks: false", "done")) {
            assertTrue(output.contains(line + System.lineSeparator()), "missing \"" + line + "\" in:\n" + output);
        }
    }
}
