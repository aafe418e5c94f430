package io.hasp.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads a duration as {@code 5s}, {@code 500ms}, {@code 2m} or ISO-8601 ({@code PT5S}); positive only. */
final class Durations implements ITypeConverter<Duration> {

    @Override
    public Duration convert(String text) {
        Duration duration;
        try {
            if (text.endsWith("ms")) {
                duration = Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
            } else if (text.endsWith("s") && !text.startsWith("P")) {
                duration = Duration.ofSeconds(Long.parseLong(text.substring(0, text.length() - 1)));
            } else if (text.endsWith("m") && !text.startsWith("P")) {
                duration = Duration.ofMinutes(Long.parseLong(text.substring(0, text.length() - 1)));
            } else {
                duration = Duration.parse(text);
            }
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new TypeConversionException("'" + text + "' is not a duration (expected: 5s, 500ms, 2m or PT5S)");
        }
        if (duration.isZero() || duration.isNegative()) {
            throw new TypeConversionException("'" + text + "' is not positive");
        }
        return duration;
    }
}
