package io.hasp;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Whether a failure says "not now" (send again) or "no" is a property of the failure itself. */
class RedisExceptionTest {

    @Test
    void aLostLinkOrATimeoutMaySucceedWhenSentAgain() {
        assertTrue(new RedisConnectionException("connection reset").retryable());
        assertTrue(new RedisTimeoutException("no reply within 3000 ms").retryable());
    }

    @Test
    void aClosedClientAndTheOtherFailuresAreFinal() {
        assertFalse(new RedisClosedException("client closed").retryable());
        assertFalse(new RedisException("something else").retryable());
        assertFalse(new RedisProtocolException("bad reply", null).retryable());
    }

    @ParameterizedTest
    @ValueSource(strings = {"LOADING Redis is loading the dataset in memory",
        "BUSY Redis is busy running a script", "READONLY You can't write against a read only replica.",
        "TRYAGAIN Multiple keys request during rehashing of slot", "CLUSTERDOWN The cluster is down",
        "MASTERDOWN Link with MASTER is down"})
    void theServersNotNowErrorsAreRetryable(String reply) {
        assertTrue(new RedisServerException(reply).retryable(), reply);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ERR unknown command", "WRONGTYPE Operation against a key holding the wrong kind of value",
        "NOSCRIPT No matching script", "NOPERM this user has no permissions", "OOM command not allowed"})
    void theServersOtherErrorsAreNot(String reply) {
        assertFalse(new RedisServerException(reply).retryable(), reply);
    }
}
