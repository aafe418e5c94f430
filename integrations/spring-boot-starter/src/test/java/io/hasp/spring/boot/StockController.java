package io.hasp.spring.boot;

import io.hasp.reactor.HaspReactiveClient;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/** The WebFlux sample of docs/reactive.md: a lock per request, taken and given back without blocking. */
// begin-sample: webflux-controller
@RestController
class StockController {

    private final HaspReactiveClient locks;
    private final Inventory inventory;

    StockController(HaspReactiveClient locks, Inventory inventory) {
        this.locks = locks;
        this.inventory = inventory;
    }

    @PostMapping("/stock/{sku}/deduct")
    Mono<String> deduct(@PathVariable String sku) {
        return locks.getLock("stock:" + sku).withLock(inventory.deductOne(sku))
                .map(left -> left + " left");
    }
}
// end-sample: webflux-controller

/** A store whose deduction reads, waits and writes: only a lock keeps concurrent deductions exact. */
final class Inventory {

    private final Map<String, Integer> stock = new ConcurrentHashMap<>();

    Inventory(String sku, int units) {
        stock.put(sku, units);
    }

    Mono<Integer> deductOne(String sku) {
        return Mono.fromCallable(() -> stock.get(sku))
                .delayElement(Duration.ofMillis(1))
                .map(units -> {
                    stock.put(sku, units - 1);
                    return units - 1;
                });
    }

    int units(String sku) {
        return stock.get(sku);
    }
}
