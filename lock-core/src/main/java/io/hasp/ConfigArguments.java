package io.hasp;

import java.time.Duration;

/** The checks {@link HaspConfig.Builder}'s setters share: each names the setting, its value and the rule. */
final class ConfigArguments {

    private ConfigArguments() {
    }

    /** {@code value}, when within {@code min..max}; else an {@link IllegalArgumentException} naming {@code name}. */
    static int within(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: " + min + ".." + max + ")");
        }
        return value;
    }

    /** {@code value}, when it is longer than zero; else an {@link IllegalArgumentException} naming {@code name}. */
    static Duration positive(String name, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: > 0)");
        }
        return value;
    }
}
