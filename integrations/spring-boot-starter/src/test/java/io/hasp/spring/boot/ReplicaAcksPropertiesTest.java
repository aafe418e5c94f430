package io.hasp.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspConfig;
import io.hasp.ReplicaAcks;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code hasp.replica-acks.*} as the client's {@link ReplicaAcks}: off unless {@code replicas} is set, the
 * timeout (100 ms by default) and {@code fsync}; bad values refused naming the setting. The mapping alone,
 * no server ({@code ReplicaAcksIT} runs the confirmations on real servers).
 */
class ReplicaAcksPropertiesTest {

    private static HaspConfig config(HaspProperties hasp) {
        return HaspAutoConfiguration.config(new RedisServerProperties(), hasp);
    }

    @Test
    void offUnlessReplicasAreSet() {
        assertEquals(ReplicaAcks.NONE, config(new HaspProperties()).replicaAcks());
    }

    @Test
    void replicasTimeoutAndFsyncMakeTheClientsSetting() {
        HaspProperties hasp = new HaspProperties();
        hasp.getReplicaAcks().setReplicas(2);
        assertEquals(ReplicaAcks.of(2, Duration.ofMillis(100)), config(hasp).replicaAcks());
        hasp.getReplicaAcks().setTimeout(Duration.ofMillis(250));
        hasp.getReplicaAcks().setFsync(true);
        assertEquals(ReplicaAcks.of(2, Duration.ofMillis(250)).withFsync(), config(hasp).replicaAcks());
    }

    @Test
    void badValuesAreRefusedNamingTheSetting() {
        HaspProperties hasp = new HaspProperties();
        IllegalArgumentException replicas = assertThrows(IllegalArgumentException.class,
                () -> hasp.getReplicaAcks().setReplicas(-1));
        assertTrue(replicas.getMessage().contains("replica acks replicas"), replicas.getMessage());
        assertThrows(IllegalArgumentException.class, () -> hasp.getReplicaAcks().setTimeout(Duration.ZERO));
        hasp.getReplicaAcks().setReplicas(1);
        hasp.getReplicaAcks().setTimeout(Duration.ofSeconds(5));   // not shorter than the 3 s command timeout
        IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class, () -> config(hasp));
        assertTrue(tooLong.getMessage().contains("commandTimeout"), tooLong.getMessage());
    }
}
