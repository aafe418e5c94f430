package io.hasp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.RedisConnectionException;
import io.hasp.testing.RedisBinary;
import io.hasp.testing.RedisServer;
import io.hasp.testing.TlsFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** TLS against a TLS-enabled redis-server; skipped, with the reason, when the binary has no TLS. */
class TlsIT {

    private static TlsFiles files;
    private static RedisServer redis;

    @BeforeAll
    static void start() throws Exception {
        RedisBinary binary = RedisBinary.resolve();
        assumeTrue(binary.supportsTls(), () -> "skipped: " + binary.describe() + " was built without TLS (BUILD_TLS)");
        Path dir = Files.createDirectories(Path.of("target", "tls-it").toAbsolutePath());
        files = TlsFiles.generate(dir);
        redis = RedisServer.builder().name("tls-it").tls(files).start();
    }

    @AfterAll
    static void stop() {
        if (redis != null) {
            redis.stop();
        }
    }

    private static HaspConfig.Builder config(String host) {
        return HaspConfig.builder().uri(redis.tlsUri()).host(host).connectTimeout(Duration.ofSeconds(5));
    }

    @Test
    void commandsAndPubSubOverTlsWithTheCaFileAndHostnameVerification() throws Exception {
        for (HaspConfig.Protocol protocol : HaspConfig.Protocol.values()) {
            try (HaspClient client = HaspClient.create(config("127.0.0.1").caFile(files.caCertificate())
                    .protocol(protocol).build())) {
                assertEquals("OK", client.commands().set("tls", "yes").get(10, TimeUnit.SECONDS));
                assertEquals("yes", client.commands().get("tls").get(10, TimeUnit.SECONDS));
                BlockingQueue<String> messages = new LinkedBlockingQueue<>();
                ClientInternals.pubSub(client).subscribe("tls-channel", (c, m) -> messages.add(m)).get(10, TimeUnit.SECONDS);
                client.commands().publish("tls-channel", "secret").get(10, TimeUnit.SECONDS);
                assertEquals("secret", messages.poll(10, TimeUnit.SECONDS));
            }
        }
    }

    @Test
    void aPkcs12TrustStoreWorksLikeTheCaFile() throws Exception {
        java.security.KeyStore store = java.security.KeyStore.getInstance("PKCS12");
        store.load(null, null);
        try (java.io.InputStream pem = Files.newInputStream(files.caCertificate())) {
            store.setCertificateEntry("redis-ca",
                    java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(pem));
        }
        Path storeFile = Path.of("target", "tls-it", "trust.p12").toAbsolutePath();
        char[] password = "store-pw".toCharArray();
        try (java.io.OutputStream out = Files.newOutputStream(storeFile)) {
            store.store(out, password);
        }
        try (HaspClient client = HaspClient.create(config("127.0.0.1").trustStore(storeFile, password).build())) {
            assertEquals("PONG", client.commands().ping().get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void anUntrustedCertificateFailsTheConnect() {
        RedisConnectionException e = assertThrows(RedisConnectionException.class,
                () -> HaspClient.create(config("127.0.0.1").build()));
        assertEquals(true, e.getMessage().contains("TLS handshake"), e.getMessage());
    }

    @Test
    void aCertificateForAnotherHostIsRefusedUnlessHostnameVerificationIsOff() throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "tls-it-other-host").toAbsolutePath());
        Path cert = dir.resolve("other.crt");
        Path key = dir.resolve("other.key");
        Process openssl;
        try {
            openssl = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-keyout", key.toString(), "-out", cert.toString(), "-subj", "/CN=other.example",
                    "-addext", "subjectAltName=DNS:other.example").redirectErrorStream(true)
                    .redirectOutput(dir.resolve("openssl.log").toFile()).start();
        } catch (java.io.IOException noOpenssl) {
            assumeTrue(false, "skipped: openssl is not installed (needed for a certificate naming another host)");
            return;
        }
        assumeTrue(openssl.waitFor(60, TimeUnit.SECONDS) && openssl.exitValue() == 0,
                "skipped: openssl could not create a certificate (see target/tls-it-other-host/openssl.log)");
        try (RedisServer other = RedisServer.builder().name("tls-it-other").tls(TlsFiles.of(cert, key, cert)).start()) {
            HaspConfig.Builder builder = HaspConfig.builder().uri(other.tlsUri()).caFile(cert)
                    .connectTimeout(Duration.ofSeconds(5));
            RedisConnectionException refused = assertThrows(RedisConnectionException.class,
                    () -> HaspClient.create(builder.build()));
            assertEquals(true, refused.getMessage().contains("TLS handshake"), refused.getMessage());
            try (HaspClient unverified = HaspClient.create(builder.verifyHostname(false).build())) {
                assertEquals("PONG", unverified.commands().ping().get(10, TimeUnit.SECONDS));
            }
        }
    }
}
