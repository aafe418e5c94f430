package io.hasp.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The client's name ({@code CLIENT SETNAME}, and its process's name in inspections): {@code hasp.client-name}, else
 * the URL's {@code clientName}, else {@code spring.data.redis.client-name}, else none; a name Redis would refuse
 * (a space, a character outside printable ASCII) stops the startup naming the property. No server.
 */
class ClientNamePropertiesTest {

    @Test
    void noNameUnlessOneIsGiven() {
        assertNull(HaspAutoConfiguration.config(new RedisServerProperties(), new HaspProperties()).clientName());
    }

    @Test
    void haspClientNameFirstThenTheUrlsThenSpringDataRedisClientName() {
        RedisServerProperties redis = new RedisServerProperties();
        redis.setClientName("from-spring-data");
        HaspProperties hasp = new HaspProperties();
        assertEquals("from-spring-data", HaspAutoConfiguration.config(redis, hasp).clientName());
        redis.setUrl("redis://127.0.0.1:6379?clientName=from-url");
        assertEquals("from-url", HaspAutoConfiguration.config(redis, hasp).clientName());
        hasp.setClientName("orders-service");
        assertEquals("orders-service", HaspAutoConfiguration.config(redis, hasp).clientName());
    }

    @Test
    void aNameRedisWouldRefuseIsRefusedNamingTheProperty() {
        for (String bad : new String[] {"orders service", "bestellungen-süd", ""}) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> new HaspProperties().setClientName(bad));
            assertTrue(refused.getMessage().startsWith("hasp.client-name: "), refused.getMessage());
            IllegalArgumentException springData = assertThrows(IllegalArgumentException.class,
                    () -> new RedisServerProperties().setClientName(bad));
            assertTrue(springData.getMessage().startsWith("spring.data.redis.client-name: "), springData.getMessage());
        }
    }
}
