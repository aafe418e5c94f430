package io.hasp.bench.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class FleetRunsTest {

    private static final FleetDriver.Server SERVER = new FleetDriver.Server(0, 0, 0, 0);

    /** A 10 s run of a 2 x 4 fleet that did {@code sections} critical sections; the counter ends at {@code counter}. */
    private static FleetDriver.Result run(String library, long sections, long counter, double seconds) {
        return new FleetDriver.Result(library, 2, 4, sections, seconds, counter, sections, 10, SERVER);
    }

    @Test
    void showsTheRunWithTheMedianRate() {
        FleetDriver.Result slow = run("hasp", 10_000, 10_000, 10);
        FleetDriver.Result middle = run("hasp", 40_000, 40_000, 10);
        FleetDriver.Result fast = run("hasp", 45_000, 45_000, 10);
        FleetRuns runs = new FleetRuns(List.of(fast, slow, middle));
        assertSame(middle, runs.shown());
        assertEquals("4,500 / 1,000 / 4,000", runs.rates(), "every run, in the order they ran");
    }

    @Test
    void anEvenNumberOfRunsShowsTheLowerMiddleOne() {
        FleetDriver.Result a = run("redisson", 10_000, 10_000, 10);
        FleetDriver.Result b = run("redisson", 20_000, 20_000, 10);
        assertSame(a, new FleetRuns(List.of(b, a)).shown());
    }

    @Test
    void aRunThatLostUpdatesIsShownWhateverItsRate() {
        FleetDriver.Result lost = run("hasp", 40_000, 39_998, 10);
        FleetRuns runs = new FleetRuns(List.of(run("hasp", 10_000, 10_000, 10), lost, run("hasp", 45_000, 45_000, 10)));
        assertSame(lost, runs.shown());
    }

    @Test
    void aRunThatOverranItsDeadlineIsShownWhateverItsRate() {
        FleetDriver.Result stuck = run("hasp", 40_000, 40_000, 30);
        FleetRuns runs = new FleetRuns(List.of(run("hasp", 10_000, 10_000, 10), run("hasp", 45_000, 45_000, 10), stuck));
        assertSame(stuck, runs.shown());
    }

    @Test
    void rejectsNoRunsAndRunsOfDifferentFleets() {
        assertThrows(IllegalArgumentException.class, () -> new FleetRuns(List.of()));
        assertThrows(IllegalArgumentException.class,
                () -> new FleetRuns(List.of(run("hasp", 1, 1, 1), run("redisson", 1, 1, 1))));
    }
}
