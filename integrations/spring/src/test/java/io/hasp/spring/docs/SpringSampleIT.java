package io.hasp.spring.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.annotation.Locked;
import io.hasp.spring.EnableLocked;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.Map;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The Spring sample of docs/integrations.md, as compiled code run in a real Spring context against a
 * private redis-server: the region between {@code // begin-sample: spring} and {@code // end-sample: spring}
 * is what the page shows ({@code DocSamplesTest} in the integration tests fails when they differ).
 */
@ExtendWith(RedisServerExtension.class)
class SpringSampleIT {


    /** What the sample leaves to the application: a transaction manager. */
    @Configuration
    @EnableTransactionManagement
    static class Transactions {
        @Bean
        DataSource dataSource() {
            JdbcDataSource h2 = new JdbcDataSource();
            h2.setURL("jdbc:h2:mem:spring-sample;DB_CLOSE_DELAY=-1");
            return h2;
        }

        @Bean
        PlatformTransactionManager transactionManager(DataSource dataSource) {
            return new DataSourceTransactionManager(dataSource);
        }
    }

    @Test
    void theSamplesServiceRunsUnderItsLockInATransaction(RedisServer redis) {
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
                HaspClient elsewhere = HaspClient.create(redis.uri())) {
            context.getEnvironment().getPropertySources()
                    .addFirst(new MapPropertySource("test", Map.of("redis.uri", redis.uri())));
            context.register(LockingConfig.class, Payments.class, Transactions.class);
            context.refresh();
            Payments payments = context.getBean(Payments.class);
            assertEquals(new Receipt(7, true), payments.pay(new Order(7)));
            // Given back once the transaction has completed: the release runs after the commit, on its own.
            assertTrue(Conditions.await(Duration.ofSeconds(10), () -> !elsewhere.getLock("shop:order:7").isLocked()),
                    "given back after the commit");
        }
    }
}

// begin-sample: spring
@Configuration
@EnableLocked                      // needs a HaspClient bean
class LockingConfig {
    @Bean(destroyMethod = "close")
    HaspClient haspClient(@Value("${redis.uri}") String uri) {   // "redis://127.0.0.1:6379"
        return HaspClient.create(uri);
    }
}

@Service
class Payments {
    @Transactional
    @Locked(prefix = "shop", value = "order", key = "#order.id", retryCount = 0)
    public Receipt pay(Order order) {   // lock "shop:order:<id>", given back after the commit
        return new Receipt(order.id(), TransactionSynchronizationManager.isActualTransactionActive());
    }
}
// end-sample: spring
record Order(long id) {
}

record Receipt(long orderId, boolean inTransaction) {
}
