package io.hasp.resp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisArrayAggregator;
import io.netty.handler.codec.redis.RedisBulkStringAggregator;
import io.netty.handler.codec.redis.RedisDecoder;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** RESP2: the same bytes decode to the same values with hasp's decoder and Netty's codec-redis. */
@ExtendWith(LeakCheck.class)
class NettyDifferentialTest {

    @Test
    void decodesRandomResp2LikeNettyCodecRedis() {
        SplittableRandom random = new SplittableRandom(0xD1FFL);
        RespGen gen = new RespGen(random, false);
        RespWire wire = new RespWire(random, false);
        for (int round = 0; round < 500; round++) {
            ByteBuf joined = ByteBufAllocator.DEFAULT.buffer();
            int count = random.nextInt(1, 8);
            for (int i = 0; i < count; i++) {
                joined.writeBytes(wire.encode(gen.value(random.nextInt(0, 4))));
            }
            byte[] bytes = ByteBufUtil.getBytes(joined);
            joined.release();
            int split = random.nextInt(bytes.length + 1);
            List<Object> hasp = decode(new EmbeddedChannel(new RespValueDecoder()), bytes, split);
            List<Object> netty = new ArrayList<>();
            for (Object message : decode(new EmbeddedChannel(new RedisDecoder(), new RedisBulkStringAggregator(),
                    new RedisArrayAggregator(1 << 20, 1024)), bytes, split)) {
                try {
                    netty.add(convert((RedisMessage) message));
                } finally {
                    ReferenceCountUtil.release(message);
                }
            }
            assertEquals(count, hasp.size());
            assertEquals(netty, hasp, "round " + round);
        }
    }

    private static List<Object> decode(EmbeddedChannel channel, byte[] bytes, int split) {
        channel.writeInbound(ByteBufAllocator.DEFAULT.buffer().writeBytes(bytes, 0, split));
        channel.writeInbound(ByteBufAllocator.DEFAULT.buffer().writeBytes(bytes, split, bytes.length - split));
        List<Object> out = new ArrayList<>();
        for (Object m; (m = channel.readInbound()) != null;) {
            out.add(m);
        }
        assertFalse(channel.finish());
        return out;
    }

    private static RespValue convert(RedisMessage message) {
        if (message instanceof SimpleStringRedisMessage s) {
            return new RespSimpleString(s.content());
        }
        if (message instanceof ErrorRedisMessage e) {
            return new RespError(e.content());
        }
        if (message instanceof IntegerRedisMessage i) {
            return new RespInteger(i.value());
        }
        if (message instanceof FullBulkStringRedisMessage b) {
            return b.isNull() ? RespNull.INSTANCE : RespBulkString.of(ByteBufUtil.getBytes(b.content()));
        }
        if (message instanceof ArrayRedisMessage a) {
            if (a.isNull()) {
                return RespNull.INSTANCE;
            }
            List<RespValue> elements = new ArrayList<>();
            for (RedisMessage child : a.children()) {
                elements.add(convert(child));
            }
            return new RespArray(elements);
        }
        throw new AssertionError("unexpected " + message);
    }
}
