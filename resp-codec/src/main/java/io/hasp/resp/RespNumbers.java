package io.hasp.resp;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Parses the numbers of RESP lines straight from a {@link ByteBuf} without creating Strings,
 * reusing one scratch array. A failure is reported through {@link #error} and
 * {@link #errorIndex} rather than an exception so the caller can add the stream offset.
 * One instance per {@link RespReader}; not thread-safe.
 */
final class RespNumbers {

    private static final double[] POW10 = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
    };
    private static final long MAX_EXACT_MANTISSA = 1L << 53;

    /** The problem found by the last call, valid when {@link #errorIndex} is {@code >= 0}. */
    String error;
    /** The buffer index of the offending byte of the last call, or -1 when it succeeded. */
    int errorIndex = -1;

    private byte[] scratch = new byte[32];

    /** Parses {@code [+-]?digits} in {@code [from, to)} as a long; on failure sets the error fields. */
    long parseLong(ByteBuf in, int from, int to) {
        errorIndex = -1;
        if (from == to) {
            return fail("empty number", from);
        }
        int i = from;
        byte first = in.getByte(i);
        boolean negative = first == '-';
        if (negative || first == '+') {
            i++;
            if (i == to) {
                return fail("sign without digits", i);
            }
        }
        // accumulate negatively so that Long.MIN_VALUE fits
        long value = 0;
        for (; i < to; i++) {
            int digit = in.getByte(i) - '0';
            if (digit < 0 || digit > 9) {
                return fail("non-digit " + describe(in.getByte(i)), i);
            }
            if (value < (Long.MIN_VALUE + digit) / 10) {
                return fail("out of the 64-bit range", i);
            }
            value = value * 10 - digit;
        }
        if (!negative) {
            if (value == Long.MIN_VALUE) {
                return fail("out of the 64-bit range", to - 1);
            }
            return -value;
        }
        return value;
    }

    /**
     * Parses a RESP3 double in {@code [from, to)}: {@code [+-]?digits[.digits][e[+-]digits]},
     * {@code inf} or {@code nan} (case-insensitive, optionally signed). Common values are
     * computed exactly without allocation; others go through {@link Double#parseDouble}.
     */
    double parseDouble(ByteBuf in, int from, int to) {
        errorIndex = -1;
        int length = to - from;
        if (length == 0) {
            fail("empty number", from);
            return 0;
        }
        if (scratch.length < length) {
            scratch = new byte[Math.max(length, scratch.length * 2)];
        }
        in.getBytes(from, scratch, 0, length);
        byte[] s = scratch;
        int i = 0;
        boolean negative = s[0] == '-';
        if (negative || s[0] == '+') {
            i++;
        }
        if (length - i == 3 && isWord(s, i, 'i', 'n', 'f')) {
            return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        if (length - i == 3 && isWord(s, i, 'n', 'a', 'n')) {
            return Double.NaN;
        }
        long mantissa = 0;
        int significant = 0;
        int fractionDigits = 0;
        int intDigits = 0;
        for (; i < length && isDigit(s[i]); i++, intDigits++) {
            if (significant > 0 || s[i] != '0') {
                significant++;
            }
            if (significant <= 18) {
                mantissa = mantissa * 10 + (s[i] - '0');
            }
        }
        if (i < length && s[i] == '.') {
            i++;
            for (; i < length && isDigit(s[i]); i++, fractionDigits++) {
                if (significant > 0 || s[i] != '0') {
                    significant++;
                }
                if (significant <= 18) {
                    mantissa = mantissa * 10 + (s[i] - '0');
                }
            }
        }
        if (intDigits + fractionDigits == 0) {
            fail("no digits", from + Math.min(i, length - 1));
            return 0;
        }
        long exponent = 0;
        if (i < length && (s[i] == 'e' || s[i] == 'E')) {
            i++;
            boolean negativeExponent = i < length && s[i] == '-';
            if (i < length && (s[i] == '-' || s[i] == '+')) {
                i++;
            }
            int expStart = i;
            for (; i < length && isDigit(s[i]); i++) {
                if (exponent < 100_000) {
                    exponent = exponent * 10 + (s[i] - '0');
                }
            }
            if (i == expStart) {
                fail("exponent without digits", from + Math.min(i, length - 1));
                return 0;
            }
            exponent = negativeExponent ? -exponent : exponent;
        }
        if (i != length) {
            fail("unexpected " + describe(s[i]), from + i);
            return 0;
        }
        long scale = exponent - fractionDigits;
        if (significant <= 15 && mantissa < MAX_EXACT_MANTISSA && scale >= -22 && scale <= 22) {
            // both operands are exact doubles, so one IEEE operation rounds correctly
            double value = scale >= 0 ? mantissa * POW10[(int) scale] : mantissa / POW10[(int) -scale];
            return negative ? -value : value;
        }
        return Double.parseDouble(new String(s, 0, length, StandardCharsets.US_ASCII));
    }

    /** Checks {@code [+-]?digits} for a big number; on failure sets the error fields. */
    void checkBigNumber(ByteBuf in, int from, int to) {
        errorIndex = -1;
        int i = from;
        if (i < to && (in.getByte(i) == '-' || in.getByte(i) == '+')) {
            i++;
        }
        if (i == to) {
            fail("no digits", Math.min(i, to));
            return;
        }
        for (; i < to; i++) {
            if (!isDigit(in.getByte(i))) {
                fail("non-digit " + describe(in.getByte(i)), i);
                return;
            }
        }
    }

    /** Describes a byte for an error message, e.g. {@code 0x41 'A'} or {@code 0x0a}. */
    static String describe(byte b) {
        String hex = String.format("0x%02x", b & 0xff);
        return b >= 0x20 && b < 0x7f ? hex + " '" + (char) b + "'" : hex;
    }

    private long fail(String problem, int index) {
        error = problem;
        errorIndex = index;
        return 0;
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    private static boolean isWord(byte[] s, int i, char a, char b, char c) {
        return (s[i] | 0x20) == a && (s[i + 1] | 0x20) == b && (s[i + 2] | 0x20) == c;
    }
}
