package io.hasp.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.hasp.HaspClient;
import io.hasp.reactor.HaspReactiveClient;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Flux;

/**
 * The starter with Reactor on the class path: a {@link HaspReactiveClient} bean on the application's
 * client, used by a WebFlux controller that takes a lock per request (docs/reactive.md's sample); without
 * Reactor, no such bean and the client works.
 */
@ExtendWith(RedisServerExtension.class)
class ReactiveAutoConfigurationIT {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
        @Bean
        Inventory inventory() {
            return new Inventory("sku-1", 100);
        }

        @Bean
        StockController stockController(HaspReactiveClient locks, Inventory inventory) {
            return new StockController(locks, inventory);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class PlainApp {
    }

    @Test
    void withReactorAWebFluxControllerTakesALockPerRequest(RedisServer redis) {
        try (ConfigurableApplicationContext context = StarterApps.run(App.class, null, redis)) {
            HaspReactiveClient locks = context.getBean(HaspReactiveClient.class);
            assertEquals(context.getBean(HaspClient.class), locks.client());
            StockController controller = context.getBean(StockController.class);
            WebTestClient web = WebTestClient.bindToController(controller).build();
            web.post().uri("/stock/sku-1/deduct").exchange()
                    .expectStatus().isOk()
                    .expectBody(String.class).isEqualTo("99 left");
            Flux.range(0, 40).flatMap(i -> controller.deduct("sku-1")).then().block(Duration.ofSeconds(30));
            assertEquals(59, context.getBean(Inventory.class).units("sku-1"), "40 concurrent deductions, each exact");
        }
    }

    @Test
    void withoutReactorThereIsNoReactiveClientAndTheClientWorks(RedisServer redis) {
        try (ConfigurableApplicationContext context = StarterApps.run(PlainApp.class,
                new StarterApps.Hiding("reactor."), redis)) {
            assertFalse(context.containsBean("haspReactiveClient"));
            HaspClient client = context.getBean(HaspClient.class);
            client.getLock("plain:reactive").lock();
            client.getLock("plain:reactive").unlock();
        }
    }
}
