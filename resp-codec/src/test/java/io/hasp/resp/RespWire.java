package io.hasp.resp;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.SplittableRandom;

/** Test-side encoder: writes a {@link RespValue} in RESP, choosing among equivalent encodings at random. */
final class RespWire {

    private final SplittableRandom random;
    private final boolean resp3;

    RespWire(SplittableRandom random, boolean resp3) {
        this.random = random;
        this.resp3 = resp3;
    }

    byte[] encode(RespValue value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(out, value);
        return out.toByteArray();
    }

    private void write(ByteArrayOutputStream out, RespValue value) {
        if (value instanceof RespSimpleString s) {
            line(out, '+', s.value());
        } else if (value instanceof RespError e) {
            if (resp3 && (random.nextBoolean() || e.message().indexOf('\r') >= 0 || e.message().indexOf('\n') >= 0)) {
                bulk(out, '!', e.message().getBytes(StandardCharsets.UTF_8));
            } else {
                line(out, '-', e.message());
            }
        } else if (value instanceof RespInteger i) {
            line(out, ':', Long.toString(i.value()));
        } else if (value instanceof RespBulkString b) {
            bulk(out, '$', b.bytes());
        } else if (value instanceof RespNull) {
            int choice = random.nextInt(resp3 ? 3 : 2);
            ascii(out, choice == 0 ? "$-1\r\n" : choice == 1 ? "*-1\r\n" : "_\r\n");
        } else if (value instanceof RespBoolean b) {
            ascii(out, b.value() ? "#t\r\n" : "#f\r\n");
        } else if (value instanceof RespDouble d) {
            line(out, ',', formatDouble(d.value()));
        } else if (value instanceof RespBigNumber n) {
            line(out, '(', n.value().toString());
        } else if (value instanceof RespVerbatimString v) {
            bulk(out, '=', (v.format() + ":" + v.content()).getBytes(StandardCharsets.UTF_8));
        } else if (value instanceof RespArray a) {
            header(out, '*', a.elements().size());
            a.elements().forEach(e -> write(out, e));
        } else if (value instanceof RespSet s) {
            header(out, '~', s.elements().size());
            s.elements().forEach(e -> write(out, e));
        } else if (value instanceof RespPush p) {
            header(out, '>', p.elements().size());
            p.elements().forEach(e -> write(out, e));
        } else if (value instanceof RespMap m) {
            pairs(out, '%', m.entries());
        } else if (value instanceof RespAttribute a) {
            pairs(out, '|', a.attributes());
            write(out, a.value());
        } else {
            throw new AssertionError(value);
        }
    }

    private String formatDouble(double d) {
        if (Double.isNaN(d)) {
            return "nan";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e15 && !(d == 0 && 1 / d < 0)) {
            return Long.toString((long) d);
        }
        return random.nextBoolean() ? Double.toString(d) : Double.toString(d).replace("E", "e");
    }

    private void pairs(ByteArrayOutputStream out, char marker, Map<RespValue, RespValue> entries) {
        header(out, marker, entries.size());
        entries.forEach((k, v) -> {
            write(out, k);
            write(out, v);
        });
    }

    private static void header(ByteArrayOutputStream out, char marker, int size) {
        line(out, marker, Integer.toString(size));
    }

    private static void bulk(ByteArrayOutputStream out, char marker, byte[] content) {
        header(out, marker, content.length);
        out.writeBytes(content);
        ascii(out, "\r\n");
    }

    private static void line(ByteArrayOutputStream out, char marker, String text) {
        out.write(marker);
        out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
        ascii(out, "\r\n");
    }

    private static void ascii(ByteArrayOutputStream out, String s) {
        out.writeBytes(s.getBytes(StandardCharsets.US_ASCII));
    }
}
