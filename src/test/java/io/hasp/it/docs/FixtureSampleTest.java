package io.hasp.it.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The test-fixture sample of docs/testing.md, as a test that runs: the region between
 * {@code // begin-sample: fixture} and {@code // end-sample: fixture} is what the page shows
 * ({@code DocSamplesTest} fails when they differ).
 */
// begin-sample: fixture
@ExtendWith(RedisServerExtension.class)          // or @WithRedisServer(options = {"requirepass pw"})
class FixtureSampleTest {
    @Test
    void works(RedisServer redis) throws Exception {   // one server per class; also in constructors and @BeforeAll
        try (HaspClient client = HaspClient.create(redis.uri())) {   // "redis://127.0.0.1:<port>"
            assertEquals("PONG", client.commands().ping().get(10, TimeUnit.SECONDS));
        }
        redis.kill();                             // SIGKILL; redis.restart() brings it back on the same port
        assertFalse(redis.isRunning());
        redis.restart();
        assertTrue(redis.isRunning());
    }
}
// end-sample: fixture
