package io.hasp.resp;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** Test-side generator of random {@link RespValue} trees of bounded size and depth. */
final class RespGen {

    private static final String ALPHABET = "abcXYZ019 :-_+*$é€\u00a0";

    private final SplittableRandom random;
    private final boolean resp3;

    RespGen(SplittableRandom random, boolean resp3) {
        this.random = random;
        this.resp3 = resp3;
    }

    RespValue value(int depth) {
        int kinds = resp3 ? 15 : 6;
        int kind = random.nextInt(depth <= 0 ? (resp3 ? 10 : 5) : kinds);
        if (!resp3) {
            switch (kind) {
                case 0: return new RespSimpleString(text(false));
                case 1: return new RespError("ERR " + text(false));
                case 2: return new RespInteger(number());
                case 3: return RespBulkString.of(bytes());
                case 4: return RespNull.INSTANCE;
                default: return new RespArray(list(depth));
            }
        }
        switch (kind) {
            case 0: return new RespSimpleString(text(false));
            case 1: return new RespError("ERR " + text(true));
            case 2: return new RespInteger(number());
            case 3: return RespBulkString.of(bytes());
            case 4: return RespNull.INSTANCE;
            case 5: return new RespBoolean(random.nextBoolean());
            case 6: return new RespDouble(dbl());
            case 7: return new RespBigNumber(new BigInteger(random.nextInt(1, 200), new java.util.Random(random.nextLong()))
                    .multiply(BigInteger.valueOf(random.nextBoolean() ? 1 : -1)));
            case 8: return new RespVerbatimString(random.nextBoolean() ? "txt" : "mkd", text(true));
            case 9: return new RespInteger(random.nextInt(-2, 3));
            case 10: return new RespArray(list(depth));
            case 11: return new RespSet(list(depth));
            case 12: return new RespPush(list(depth));
            case 13: return new RespMap(map(depth));
            default: return new RespAttribute(map(depth), value(depth - 1));
        }
    }

    private List<RespValue> list(int depth) {
        int n = random.nextInt(0, 6);
        List<RespValue> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(value(depth - 1));
        }
        return list;
    }

    private Map<RespValue, RespValue> map(int depth) {
        int n = random.nextInt(0, 4);
        Map<RespValue, RespValue> map = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            map.put(value(depth - 1), value(depth - 1));
        }
        return map;
    }

    private long number() {
        switch (random.nextInt(4)) {
            case 0: return random.nextLong();
            case 1: return random.nextInt(-1000, 1000);
            case 2: return random.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE;
            default: return random.nextLong(0, 100_000);
        }
    }

    private double dbl() {
        switch (random.nextInt(6)) {
            case 0: return random.nextDouble();
            case 1: return Double.longBitsToDouble(random.nextLong());
            case 2: return random.nextInt(-100, 100) / 4.0;
            case 3: return random.nextBoolean() ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
            case 4: return Double.NaN;
            default: return random.nextLong(-1_000_000, 1_000_000) / 1000.0;
        }
    }

    private String text(boolean crlfAllowed) {
        int n = random.nextInt(0, 12);
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            if (crlfAllowed && random.nextInt(8) == 0) {
                sb.append("\r\n");
            } else {
                sb.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
            }
        }
        return sb.toString();
    }

    private byte[] bytes() {
        int n = random.nextInt(8) == 0 ? random.nextInt(0, 3000) : random.nextInt(0, 20);
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) random.nextInt(256);
        }
        return b;
    }
}
