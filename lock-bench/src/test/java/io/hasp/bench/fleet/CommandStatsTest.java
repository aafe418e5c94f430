package io.hasp.bench.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CommandStatsTest {

    @Test
    void differencesCountOnlyTopLevelCommandTime() {
        CommandStats before = CommandStats.parse("# Commandstats\r\n"
                + "cmdstat_evalsha:calls=10,usec=100,usec_per_call=10.00,rejected_calls=0,failed_calls=0\r\n"
                + "cmdstat_hget:calls=10,usec=20,usec_per_call=2.00,rejected_calls=0,failed_calls=0\r\n");
        CommandStats after = CommandStats.parse("# Commandstats\r\n"
                + "cmdstat_evalsha:calls=30,usec=400,usec_per_call=13.33,rejected_calls=0,failed_calls=0\r\n"
                + "cmdstat_hget:calls=30,usec=60,usec_per_call=2.00,rejected_calls=0,failed_calls=0\r\n"
                + "cmdstat_subscribe:calls=2,usec=7,usec_per_call=3.50,rejected_calls=0,failed_calls=0\r\n");
        assertEquals(20, after.calls(before, "evalsha"));
        assertEquals(2, after.calls(before, "subscribe"));
        assertEquals(0, after.calls(before, "unsubscribe"));
        assertEquals(307, after.busyMicros(before), "hget runs inside the scripts: already in evalsha's time");
    }
}
