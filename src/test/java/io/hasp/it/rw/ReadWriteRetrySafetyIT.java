package io.hasp.it.rw;

import static io.hasp.it.rw.RwTesting.DEADLINE;
import static io.hasp.it.rw.RwTesting.exists;
import static io.hasp.it.rw.RwTesting.get;
import static io.hasp.it.rw.RwTesting.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.lock.rw.HaspReadWriteLock;
import io.hasp.lock.rw.HaspReadWriteLocks;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import io.hasp.testing.TcpProxy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Replies of the read/write scripts lost after the server ran them (the proxy drops the reply and
 * cuts the connection): a re-sent acquire must not count a hold twice nor make a second timeout key,
 * and a re-sent unlock must not throw for the real owner.
 */
@ExtendWith(RedisServerExtension.class)
class ReadWriteRetrySafetyIT {

    private TcpProxy proxy;
    private HaspClient client;
    private HaspClient direct;
    private String name;

    @BeforeEach
    void start(RedisServer server, TestInfo test) {
        proxy = TcpProxy.start(server.port());
        client = RwTesting.client(proxy.uri());
        direct = RwTesting.client(server.uri());
        name = "rw-retry-" + test.getTestMethod().orElseThrow().getName();
        get(client.commands().ping());
    }

    @AfterEach
    void stop() {
        client.close();
        direct.close();
        proxy.close();
    }

    private String field(String ownerField) {
        return get(direct.commands().hget(name, ownerField));
    }

    private void loseNextReply(Runnable call) {
        int accepted = proxy.acceptedCount();
        proxy.dropNextReplyAndCut();
        call.run();
        until(DEADLINE, "the client reconnected after the cut", () -> proxy.acceptedCount() > accepted);
    }

    @Test
    void readAcquiresAndUnlocksWhoseRepliesWereLostCountOnce() {
        HaspReadWriteLock rw = HaspReadWriteLocks.of(client).get(name);
        String owner = rw.readLock().currentOwner().field();
        String timeouts = "{" + name + "}:" + owner + ":rwlock_timeout:";

        loseNextReply(() -> rw.readLock().lock());
        assertEquals("1", field(owner), "first read hold, reply lost");
        loseNextReply(() -> rw.readLock().lock());
        assertEquals("2", field(owner), "re-entry, reply lost");
        assertEquals(2, rw.readLock().getHoldCount());
        assertTrue(exists(direct, timeouts + 1) && exists(direct, timeouts + 2));
        assertFalse(exists(direct, timeouts + 3), "no third timeout key");

        loseNextReply(() -> rw.readLock().unlock());
        assertEquals("1", field(owner), "one hold given back, not two");
        loseNextReply(() -> rw.readLock().unlock());
        assertFalse(exists(direct, name), "the lock is free");
        assertFalse(exists(direct, timeouts + 1));
    }

    @Test
    void writeAcquiresAndUnlocksWhoseRepliesWereLostCountOnce() {
        HaspReadWriteLock rw = HaspReadWriteLocks.of(client).get(name);
        String writeField = rw.writeLock().currentOwner().field() + ":write";

        loseNextReply(() -> rw.writeLock().lock());
        assertEquals("1", field(writeField));
        loseNextReply(() -> rw.writeLock().lock());
        assertEquals("2", field(writeField));

        loseNextReply(() -> rw.writeLock().unlock());
        assertEquals("1", field(writeField));
        loseNextReply(() -> rw.writeLock().unlock());
        assertFalse(exists(direct, name));
    }
}
