package io.hasp.resp;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Hand-written wire fixtures covering every RESP2 and RESP3 type, with the values they decode to. */
final class RespFixtures {

    record Fixture(String name, byte[] wire, RespValue value) {
        @Override
        public String toString() {
            return name;
        }
    }

    private RespFixtures() {
    }

    static List<Fixture> all() {
        List<Fixture> f = new ArrayList<>();
        f.add(fx("simple", "+OK\r\n", new RespSimpleString("OK")));
        f.add(fx("simple empty", "+\r\n", new RespSimpleString("")));
        f.add(fx("error", "-ERR unknown command\r\n", new RespError("ERR unknown command")));
        f.add(fx("integer", ":1000\r\n", new RespInteger(1000)));
        f.add(fx("integer negative", ":-42\r\n", new RespInteger(-42)));
        f.add(fx("integer plus", ":+7\r\n", new RespInteger(7)));
        f.add(fx("integer max", ":9223372036854775807\r\n", new RespInteger(Long.MAX_VALUE)));
        f.add(fx("integer min", ":-9223372036854775808\r\n", new RespInteger(Long.MIN_VALUE)));
        f.add(fx("bulk", "$6\r\nfoobar\r\n", RespBulkString.of("foobar")));
        f.add(fx("bulk empty", "$0\r\n\r\n", RespBulkString.of("")));
        f.add(fx("bulk binary", "$4\r\n\r\n\r\n\r\n", RespBulkString.of("\r\n\r\n")));
        f.add(fx("bulk null", "$-1\r\n", RespNull.INSTANCE));
        f.add(fx("array null", "*-1\r\n", RespNull.INSTANCE));
        f.add(fx("array empty", "*0\r\n", RespArray.of()));
        f.add(fx("array", "*3\r\n:1\r\n$3\r\nfoo\r\n$-1\r\n",
                RespArray.of(new RespInteger(1), RespBulkString.of("foo"), RespNull.INSTANCE)));
        f.add(fx("array nested", "*2\r\n*2\r\n:1\r\n:2\r\n*1\r\n+x\r\n",
                RespArray.of(RespArray.of(new RespInteger(1), new RespInteger(2)),
                        RespArray.of(new RespSimpleString("x")))));
        f.add(fx("array ends nested", "*2\r\n:0\r\n*1\r\n*1\r\n*0\r\n",
                RespArray.of(new RespInteger(0), RespArray.of(RespArray.of(RespArray.of())))));
        f.add(fx("null", "_\r\n", RespNull.INSTANCE));
        f.add(fx("true", "#t\r\n", new RespBoolean(true)));
        f.add(fx("false", "#f\r\n", new RespBoolean(false)));
        f.add(fx("double", ",3.14\r\n", new RespDouble(3.14)));
        f.add(fx("double exp", ",1.5e-3\r\n", new RespDouble(1.5e-3)));
        f.add(fx("double long", ",0.30000000000000004\r\n", new RespDouble(0.30000000000000004)));
        f.add(fx("double int", ",10\r\n", new RespDouble(10)));
        f.add(fx("double inf", ",inf\r\n", new RespDouble(Double.POSITIVE_INFINITY)));
        f.add(fx("double -inf", ",-inf\r\n", new RespDouble(Double.NEGATIVE_INFINITY)));
        f.add(fx("double nan", ",nan\r\n", new RespDouble(Double.NaN)));
        f.add(fx("big number", "(3492890328409238509324850943850943825024385\r\n",
                new RespBigNumber(new BigInteger("3492890328409238509324850943850943825024385"))));
        f.add(fx("big number negative", "(-1\r\n", new RespBigNumber(BigInteger.ONE.negate())));
        f.add(fx("bulk error", "!21\r\nSYNTAX invalid syntax\r\n", new RespError("SYNTAX invalid syntax")));
        f.add(fx("verbatim", "=15\r\ntxt:Some string\r\n", new RespVerbatimString("txt", "Some string")));
        f.add(fx("verbatim empty", "=4\r\nmkd:\r\n", new RespVerbatimString("mkd", "")));
        f.add(fx("map", "%2\r\n+first\r\n:1\r\n+second\r\n:2\r\n", new RespMap(map(
                new RespSimpleString("first"), new RespInteger(1), new RespSimpleString("second"), new RespInteger(2)))));
        f.add(fx("map empty", "%0\r\n", new RespMap(Map.of())));
        f.add(fx("set", "~3\r\n+a\r\n:1\r\n#f\r\n",
                RespSet.of(new RespSimpleString("a"), new RespInteger(1), new RespBoolean(false))));
        f.add(fx("push", ">3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$5\r\nhello\r\n",
                RespPush.of(RespBulkString.of("message"), RespBulkString.of("ch"), RespBulkString.of("hello"))));
        f.add(fx("attribute", "|1\r\n+ttl\r\n:3600\r\n:42\r\n",
                new RespAttribute(map(new RespSimpleString("ttl"), new RespInteger(3600)), new RespInteger(42))));
        f.add(fx("attribute in array", "*2\r\n|1\r\n+k\r\n+v\r\n*1\r\n:1\r\n:2\r\n",
                RespArray.of(new RespAttribute(map(new RespSimpleString("k"), new RespSimpleString("v")),
                        RespArray.of(new RespInteger(1))), new RespInteger(2))));
        f.add(fx("attribute empty", "|0\r\n+OK\r\n", new RespAttribute(Map.of(), new RespSimpleString("OK"))));
        f.add(fx("map of aggregates", "%1\r\n*1\r\n:1\r\n~1\r\n_\r\n", new RespMap(map(
                RespArray.of(new RespInteger(1)), RespSet.of(RespNull.INSTANCE)))));
        return f;
    }

    static Fixture fx(String name, String wire, RespValue value) {
        return new Fixture(name, wire.getBytes(StandardCharsets.UTF_8), value);
    }

    static Map<RespValue, RespValue> map(RespValue... keysAndValues) {
        Map<RespValue, RespValue> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
