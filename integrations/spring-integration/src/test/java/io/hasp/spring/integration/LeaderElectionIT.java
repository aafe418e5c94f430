package io.hasp.spring.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.integration.leader.Context;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;

/**
 * Spring Integration's {@link LockRegistryLeaderInitiator} on {@link HaspLockRegistry}: two application
 * contexts, each with its own client, registry and initiator for one role, elect exactly one leader; when
 * the leader's context closes, or the leader yields, the other takes over.
 */
class LeaderElectionIT {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final String ROLE = "nightly-report";

    private static RedisServer server;
    private final List<AnnotationConfigApplicationContext> contexts = new ArrayList<>();
    /** Leaders now, as the candidates' callbacks count them (granted minus revoked). */
    private final AtomicInteger leaders = new AtomicInteger();

    @BeforeAll
    static void start() {
        server = RedisServer.builder().name("spring-integration-leader").start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @AfterEach
    void closeContexts() {
        contexts.forEach(AnnotationConfigApplicationContext::close);
        try (RedisProbe probe = server.probe()) {
            assertEquals(0L, probe.call("EXISTS", "leaders:" + ROLE), "the last leader gave its lock back");
        }
    }

    /** One application: its client, registry, and an initiator whose candidate counts leaders. */
    private AnnotationConfigApplicationContext application(String id) {
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        context.registerBean(HaspClient.class, () -> HaspClient.create(server.uri()), bean -> bean.setDestroyMethodName("close"));
        context.registerBean(HaspLockRegistry.class, () -> new HaspLockRegistry(context.getBean(HaspClient.class), "leaders"));
        context.registerBean(LockRegistryLeaderInitiator.class, () -> {
            LockRegistryLeaderInitiator initiator = new LockRegistryLeaderInitiator(
                    context.getBean(HaspLockRegistry.class), new CountingCandidate(id));
            initiator.setHeartBeatMillis(100);
            initiator.setBusyWaitMillis(20);
            return initiator;
        });
        context.refresh();
        contexts.add(context);
        return context;
    }

    private final class CountingCandidate extends DefaultCandidate {

        CountingCandidate(String id) {
            super(id, ROLE);
        }

        @Override
        public void onGranted(Context context) {
            leaders.incrementAndGet();
            super.onGranted(context);
        }

        @Override
        public void onRevoked(Context context) {
            leaders.decrementAndGet();
            super.onRevoked(context);
        }
    }

    private static boolean leads(AnnotationConfigApplicationContext application) {
        return application.getBean(LockRegistryLeaderInitiator.class).getContext().isLeader();
    }

    @Test
    void twoApplicationsElectOneLeaderAndTheOtherTakesOverWhenItCloses() {
        AnnotationConfigApplicationContext one = application("one");
        AnnotationConfigApplicationContext two = application("two");
        assertTrue(Conditions.await(DEADLINE, () -> leads(one) || leads(two)));
        AnnotationConfigApplicationContext leader = leads(one) ? one : two;
        AnnotationConfigApplicationContext follower = leader == one ? two : one;
        // Twenty heartbeats of both: the follower keeps trying, the leader keeps its lock.
        long until = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        assertTrue(Conditions.await(DEADLINE, () -> {
            assertTrue(leads(leader));
            assertFalse(leads(follower));
            return System.nanoTime() - until > 0;
        }));

        leader.close();
        assertTrue(Conditions.await(Duration.ofSeconds(10), () -> leads(follower)),
                "the other application takes over at once, not one watchdog lease (30 s) later");
        assertTrue(Conditions.await(DEADLINE, () -> leaders.get() == 1), "one granted, one revoked, one granted");
    }

    @Test
    void aLeaderThatYieldsHandsOverToTheOther() {
        AnnotationConfigApplicationContext one = application("one");
        AnnotationConfigApplicationContext two = application("two");
        assertTrue(Conditions.await(DEADLINE, () -> leads(one) || leads(two)));
        AnnotationConfigApplicationContext leader = leads(one) ? one : two;
        AnnotationConfigApplicationContext follower = leader == one ? two : one;

        leader.getBean(LockRegistryLeaderInitiator.class).getContext().yield();
        assertTrue(Conditions.await(DEADLINE, () -> leads(follower)), "the follower takes over");
        assertFalse(leads(leader));
        assertTrue(Conditions.await(DEADLINE, () -> leaders.get() == 1));
    }
}
