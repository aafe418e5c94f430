package io.hasp.spring.boot;

import io.hasp.HaspClient;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Up when the hasp client's server answers {@code PING} within the command timeout, down
 * otherwise (with the error); the details name the server (password hidden), the holds the
 * client tracks and the holds it lost before their unlock since it started ({@code lostHolds}). A check never blocks past the command timeout.
 */
public class HaspHealthIndicator implements HealthIndicator {

    private final HaspClient client;

    /** @param client the client checked */
    public HaspHealthIndicator(HaspClient client) {
        this.client = client;
    }

    @Override
    public Health health() {
        Duration timeout = client.config().commandTimeout();
        Health.Builder health;
        try {
            client.commands().ping().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            health = Health.up();
        } catch (ExecutionException e) {
            health = Health.down(e.getCause() != null ? e.getCause() : e);
        } catch (TimeoutException e) {
            health = Health.down().withDetail("error", "no PING reply within " + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            health = Health.down(e);
        }
        return health.withDetail("server", client.config().redactedUri())
                .withDetail("heldLocks", client.heldLocks())
                .withDetail("lostHolds", client.lostHolds())
                .build();
    }
}
