package io.hasp.it;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.redisson.Redisson;

/**
 * Which Redisson release the interop tests run against: the one on the test class path, and the
 * one the build names ({@code hasp.redisson.version}, set by the failsafe configuration of
 * hasp-integration-tests and hasp-interop-redisson3), so that a test can check they agree.
 */
public final class RedissonRelease {

    private static final String POM_PROPERTIES = "/META-INF/maven/org.redisson/redisson/pom.properties";

    private RedissonRelease() {
    }

    /** The version of the Redisson jar on the class path, from its Maven metadata. */
    public static String onClassPath() throws IOException {
        try (InputStream in = Redisson.class.getResourceAsStream(POM_PROPERTIES)) {
            if (in == null) {
                throw new IOException("no " + POM_PROPERTIES + " beside " + Redisson.class);
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        }
    }

    /** The version the build asked for. */
    public static String named() {
        String version = System.getProperty("hasp.redisson.version");
        if (version == null) {
            throw new IllegalStateException("hasp.redisson.version is not set: run the interop tests through Maven "
                    + "(./mvnw -B verify -pl src/test -am -Dit.test='Redisson*IT'), which names the release");
        }
        return version;
    }
}
