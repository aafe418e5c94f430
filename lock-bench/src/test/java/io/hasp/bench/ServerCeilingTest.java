package io.hasp.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ServerCeilingTest {

    @Test
    void readsRequestsPerSecondFromCsv() {
        String csv = "\"test\",\"rps\",\"avg_latency_ms\",\"min_latency_ms\",\"p50_latency_ms\"\n"
                + "\"EVALSHA 091df87e 1 k\",\"220507.17\",\"1.120\",\"0.112\",\"1.159\"\n";
        ServerCeiling.Result result = ServerCeiling.parse("cmd", csv);
        assertTrue(result.measured());
        assertEquals(220507.17, result.requestsPerSecond(), 0.001);
    }

    @Test
    void reportsOutputWithoutARow() {
        ServerCeiling.Result result = ServerCeiling.parse("cmd", "Could not connect to Redis at 127.0.0.1:1\n");
        assertFalse(result.measured());
        assertTrue(result.detail().contains("Could not connect"), result.detail());
    }

    @Test
    void aPairOfTwoRoundTripsCostsBothCommands() {
        ServerCeiling.Result acquires = new ServerCeiling.Result("acquire", 120_000, "");
        ServerCeiling.Result pairs = new ServerCeiling.Result("pair", 60_000, "");
        assertEquals(40_000, ServerCeiling.blockingPairBound(acquires, pairs), 1e-6, "1 / (1/120k + 1/60k)");
        assertEquals(0, ServerCeiling.blockingPairBound(new ServerCeiling.Result("acquire", 0, "n/a"), pairs));
    }
}
