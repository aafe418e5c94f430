package io.hasp.internal.connection;

import io.hasp.HaspConfig;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;

/** Builds the client's TLS context (JDK provider) from its configuration. Stateless. */
final class TlsContexts {

    private TlsContexts() {
    }

    /**
     * @param config holds the CA file or trust store (neither: the JDK's default trust)
     * @return the client-side context
     * @throws IllegalArgumentException when the trust material cannot be read
     */
    static SslContext create(HaspConfig config) {
        SslContextBuilder builder = SslContextBuilder.forClient().sslProvider(SslProvider.JDK)
                .endpointIdentificationAlgorithm(config.verifyHostname() ? "HTTPS" : null);
        try {
            if (config.caFile() != null) {
                builder.trustManager(config.caFile().toFile());
            } else if (config.trustStore() != null) {
                builder.trustManager(trustManagers(config));
            }
            return builder.build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("TLS trust material: cannot be used (" + e.getMessage() + ")", e);
        }
    }

    private static TrustManagerFactory trustManagers(HaspConfig config) {
        char[] password = config.trustStorePassword();
        try (InputStream in = Files.newInputStream(config.trustStore())) {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(in, password);
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            return factory;
        } catch (java.io.IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("trustStore: " + config.trustStore() + " cannot be read (" + e.getMessage() + ")", e);
        } finally {
            if (password != null) {
                java.util.Arrays.fill(password, '\0');
            }
        }
    }
}
