package io.hasp.bench;

import java.util.Arrays;
import java.util.Collection;
import java.util.function.ToDoubleFunction;

/** The median of a figure over rounds: the middle value, or the mean of the two middle values. */
final class Medians {

    private Medians() {
    }

    /** The median of {@code value} over {@code rounds}, which must not be empty. */
    static <T> double of(Collection<T> rounds, ToDoubleFunction<T> value) {
        double[] sorted = rounds.stream().mapToDouble(value).toArray();
        if (sorted.length == 0) {
            throw new IllegalArgumentException("rounds: none (expected: at least one)");
        }
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
