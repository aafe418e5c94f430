package io.hasp.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.Replies;
import io.hasp.annotation.LockType;
import io.hasp.annotation.Locked;
import io.hasp.annotation.LockUnavailableException;
import io.hasp.annotation.WhenUnavailable;
import io.hasp.lock.HaspLock;
import io.hasp.lock.LockOwner;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@link Locked} bean methods in a real Spring context with {@link EnableLocked}, on a real
 * redis-server and an embedded H2 database: SpEL keys, values and exceptions unchanged, the skip
 * mode, the lock given back only after the surrounding transaction committed (or rolled back), and
 * bad settings failing the context's startup.
 */
@ExtendWith(RedisServerExtension.class)
class LockedAspectIT {

    private static String redisUri;
    private static AnnotationConfigApplicationContext context;
    private static HaspClient elsewhere;
    private static Payments payments;
    private static JdbcTemplate jdbc;
    private static TransactionTemplate transactions;
    private static DataSource dataSource;

    record Order(long id, String customer) {
    }

    /** The application's service: a plain class, proxied by Spring for its @Locked methods. */
    public static class Payments {
        private final JdbcTemplate jdbc;

        public Payments(JdbcTemplate jdbc) {
            this.jdbc = jdbc;
        }

        @Locked(prefix = "shop", value = "order", key = "#order.id")
        public String pay(Order order) {
            return "paid " + order.id() + ", lock held: " + elsewhere.getLock("shop:order:" + order.id()).isLocked();
        }

        @Locked(value = "refund", key = "#p0")
        public void refund(long orderId) throws IOException {
            throw new IOException("gateway down for " + orderId);
        }

        @Locked(value = "reserve", key = "#sku", retryCount = 1, retryInterval = 10, whenUnavailable = WhenUnavailable.SKIP)
        public int reserve(long sku) {
            return 5;
        }

        @Locked(value = "reserve", key = "#sku", retryCount = 1, retryInterval = 10)
        public int reserveOrFail(long sku) {
            return 5;
        }

        @Locked(value = "settlement", key = "#batch", type = LockType.FAIR, waitTime = 10_000)
        public String settle(long batch) {
            return "settled " + batch + ", fair lock held: " + elsewhere.getFairLock("settlement:" + batch).isLocked();
        }

        @Locked(value = "export", key = "#batch", waitTime = 20_000, retryCount = 0)
        public CompletableFuture<String> export(long batch, CompletableFuture<String> work) {
            return work;
        }

        @Locked(value = "account", key = "#account")
        public void credit(long account, int amount) {
            jdbc.update("UPDATE account SET balance = balance + ? WHERE id = ?", amount, account);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableLocked
    @EnableTransactionManagement
    static class App {
        @Bean(destroyMethod = "close")
        HaspClient haspClient() {
            return HaspClient.create(redisUri);
        }

        @Bean
        DataSource dataSource() {
            JdbcDataSource h2 = new JdbcDataSource();
            h2.setURL("jdbc:h2:mem:locked-aspect;DB_CLOSE_DELAY=-1");
            return h2;
        }

        @Bean
        PlatformTransactionManager transactionManager(DataSource dataSource) {
            return new DataSourceTransactionManager(dataSource);
        }

        @Bean
        JdbcTemplate jdbcTemplate(DataSource dataSource) {
            return new JdbcTemplate(dataSource);
        }

        @Bean
        TransactionTemplate transactionTemplate(PlatformTransactionManager transactionManager) {
            return new TransactionTemplate(transactionManager);
        }

        @Bean
        Payments payments(JdbcTemplate jdbcTemplate) {
            return new Payments(jdbcTemplate);
        }
    }

    @BeforeAll
    static void start(RedisServer redis) {
        redisUri = redis.uri();
        elsewhere = HaspClient.create(redisUri);
        context = new AnnotationConfigApplicationContext(App.class);
        payments = context.getBean(Payments.class);
        jdbc = context.getBean(JdbcTemplate.class);
        transactions = context.getBean(TransactionTemplate.class);
        dataSource = context.getBean(DataSource.class);
        jdbc.execute("CREATE TABLE account (id BIGINT PRIMARY KEY, balance INT)");
    }

    @AfterAll
    static void stop() {
        context.close();
        elsewhere.close();
    }

    @BeforeEach
    void resetAccount() {
        jdbc.update("DELETE FROM account");
        jdbc.update("INSERT INTO account VALUES (1, 100)");
    }

    @Test
    void aSpelKeyNamesTheLockHeldDuringTheCall() {
        assertEquals("paid 7, lock held: true", payments.pay(new Order(7, "ada")));
        assertFalse(elsewhere.getLock("shop:order:7").isLocked(), "given back after the call");
    }

    @Test
    void anAsyncMethodHoldsItsLockUntilTheReturnedWorkEnds() throws Exception {
        CompletableFuture<String> work = new CompletableFuture<>();
        CompletableFuture<String> call = payments.export(3, work);
        assertTrue(elsewhere.getLock("export:3").isLocked(), "held after the method returned");
        CompletableFuture<String> second = CompletableFuture.supplyAsync(
                () -> payments.export(3, CompletableFuture.completedFuture("second")).join());
        work.complete("first");
        assertEquals("first", call.get(30, TimeUnit.SECONDS));
        assertEquals("second", second.get(30, TimeUnit.SECONDS));
        assertFalse(elsewhere.getLock("export:3").isLocked(), "given back after the work");
    }

    @Test
    void aFairLockGuardsTheCallThroughTheAspectAndTheCallWaitsInLine() throws Exception {
        assertEquals("settled 4, fair lock held: true", payments.settle(4));
        assertFalse(elsewhere.getFairLock("settlement:4").isLocked(), "given back after the call");

        HaspLock held = elsewhere.getFairLock("settlement:5");
        LockOwner holder = held.owner(1);
        held.lockAsync(holder).get(10, TimeUnit.SECONDS);
        CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> payments.settle(5));
        assertTrue(Conditions.await(Duration.ofSeconds(10), () -> elsewhere.commands()
                .execute(Replies.LONG, "LLEN", "redisson_lock_queue:{settlement:5}").join() == 1),
                "the call stands in the fair lock's line");
        held.unlockAsync(holder).get(10, TimeUnit.SECONDS);
        assertEquals("settled 5, fair lock held: true", call.get(10, TimeUnit.SECONDS));
    }

    @Test
    void theMethodsExceptionGoesOutUnchanged() {
        IOException e = assertThrows(IOException.class, () -> payments.refund(9));
        assertEquals("gateway down for 9", e.getMessage());
        assertFalse(elsewhere.getLock("refund:9").isLocked());
    }

    @Test
    void aLockHeldElsewhereSkipsOrRefusesTheCall() throws Exception {
        HaspLock held = elsewhere.getLock("reserve:3");
        assertTrue(held.tryLock(Duration.ZERO, Duration.ofSeconds(30)));
        try {
            assertEquals(0, payments.reserve(3), "skipped: a primitive's zero");
            LockUnavailableException e = assertThrows(LockUnavailableException.class, () -> payments.reserveOrFail(3));
            assertEquals("reserve:3", e.lockName());
            assertEquals(2, e.attempts());
        } finally {
            held.unlock();
        }
        assertEquals(5, payments.reserve(3));
    }

    /**
     * The locked method runs inside a transaction that commits after it returns: a waiter for the
     * lock must not get it before the commit, and must then read the committed balance. The
     * transaction holds its commit back until the waiter got the lock or 2 s have passed, so a
     * release before the commit is caught every time, not by chance.
     */
    @Test
    void insideATransactionTheLockIsGivenBackAfterTheCommit() throws Exception {
        CompletableFuture<Integer> seenByNextHolder = new CompletableFuture<>();
        transactions.executeWithoutResult(status -> {
            payments.credit(1, 10);
            // The locked method has returned; the transaction has not committed yet.
            nextHolderReadsBalance(seenByNextHolder);
            holdCommitBackUntilTheWaiterGotTheLock(seenByNextHolder);
        });
        assertEquals(110, seenByNextHolder.get(30, TimeUnit.SECONDS), "the next holder reads the committed balance");
    }

    @Test
    void insideATransactionThatRollsBackTheLockIsGivenBackAfterTheRollback() throws Exception {
        CompletableFuture<Integer> seenByNextHolder = new CompletableFuture<>();
        transactions.executeWithoutResult(status -> {
            payments.credit(1, 10);
            status.setRollbackOnly();
            nextHolderReadsBalance(seenByNextHolder);
            holdCommitBackUntilTheWaiterGotTheLock(seenByNextHolder);
        });
        assertEquals(100, seenByNextHolder.get(30, TimeUnit.SECONDS));
        assertEquals(100, jdbc.queryForObject("SELECT balance FROM account WHERE id = 1", Integer.class));
    }

    /**
     * Another client starts waiting for lock account:1 (after the locked method has returned),
     * then, once it has the lock, reads the balance on a connection of its own into {@code seen}.
     */
    private static void nextHolderReadsBalance(CompletableFuture<Integer> seen) {
        HaspLock lock = elsewhere.getLock("account:1");
        Thread waiter = new Thread(() -> {
            try {
                assertTrue(lock.tryLock(Duration.ofSeconds(20), Duration.ofSeconds(10)));
                try (var connection = dataSource.getConnection(); var query = connection.createStatement();
                        var rows = query.executeQuery("SELECT balance FROM account WHERE id = 1")) {
                    rows.next();
                    seen.complete(rows.getInt(1));
                } finally {
                    lock.unlock();
                }
            } catch (Throwable e) {
                seen.completeExceptionally(e);
            }
        });
        waiter.start();
    }

    private static void holdCommitBackUntilTheWaiterGotTheLock(CompletableFuture<Integer> seenByNextHolder) {
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void beforeCompletion() {
                Conditions.await(Duration.ofSeconds(2), seenByNextHolder::isDone);
            }
        });
    }

    public static class BadRetries {
        @Locked(value = "bad", retryCount = -1)
        public void work() {
        }
    }

    public static class BadKey {
        @Locked(value = "bad", key = "#order.")
        public void work(Order order) {
        }
    }

    @Test
    void badSettingsFailTheContextsStartupNamingTheMethodAndTheSetting() {
        BeanCreationException retries = assertThrows(BeanCreationException.class, () -> startWith(BadRetries.class));
        assertTrue(retries.getMessage().contains("BadRetries.work(): @Locked retryCount: -1"), retries.getMessage());
        BeanCreationException key = assertThrows(BeanCreationException.class, () -> startWith(BadKey.class));
        assertTrue(key.getMessage().contains("BadKey.work(Order): @Locked key \"#order.\" is not valid SpEL"),
                key.getMessage());
    }

    private static void startWith(Class<?> service) {
        try (AnnotationConfigApplicationContext bad = new AnnotationConfigApplicationContext()) {
            bad.register(App.class);
            bad.registerBean(service);
            bad.refresh();
        }
    }
}
