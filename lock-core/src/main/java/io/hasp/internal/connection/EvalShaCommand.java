package io.hasp.internal.connection;

import io.hasp.RedisServerException;
import io.hasp.Reply;
import io.hasp.Script;
import io.hasp.resp.CommandName;
import io.hasp.resp.RespWriter;
import io.netty.buffer.ByteBuf;
import java.util.List;

/**
 * {@code EVALSHA sha numkeys key... arg...}. When the server answers NOSCRIPT (its script
 * cache was flushed, or it restarted), the command sends itself again, once, on the same
 * connection behind a {@code SCRIPT LOAD} (one per script for a burst of such calls:
 * {@link ScriptLoads}); the future completes with the second reply.
 * Keys and arguments are validated when the command is created.
 *
 * @param <T> the decoded reply's type
 */
public final class EvalShaCommand<T> extends Command<T> {

    private static final CommandName EVALSHA = CommandName.of("EVALSHA");

    private final Script script;
    private final List<String> keys;
    private final Object[] args;
    private boolean retried;   // event loop only

    /**
     * @param script the script
     * @param reply how its result is decoded
     * @param keys the KEYS, kept as given
     * @param args the ARGV, kept as given
     * @throws IllegalArgumentException for a null script, key or unsupported argument
     */
    public EvalShaCommand(Script script, Reply<T> reply, List<String> keys, Object[] args) {
        super(reply);
        if (script == null) {
            throw new IllegalArgumentException("script: null (expected: a Script)");
        }
        if (keys == null) {
            throw new IllegalArgumentException("keys: null (expected: a list, possibly empty)");
        }
        for (int i = 0; i < keys.size(); i++) {
            if (keys.get(i) == null) {
                throw new IllegalArgumentException("keys[" + i + "]: null (expected: a key)");
            }
        }
        Args.validate(args);
        this.script = script;
        this.keys = keys;
        this.args = args;
    }

    @Override
    public String name() {
        return "EVALSHA " + script.name();
    }

    @Override
    public int encodedSize() {
        int count = keys.size();
        int size = EVALSHA.headerSize(2 + count + args.length)
                + RespWriter.bulkSize(script.sha1()) + RespWriter.bulkSize(count);
        for (int i = 0; i < count; i++) {
            size += RespWriter.bulkSize(keys.get(i));
        }
        for (Object arg : args) {
            size += Args.size(arg);
        }
        return size;
    }

    @Override
    public void encode(ByteBuf out) {
        int count = keys.size();
        EVALSHA.writeHeader(out, 2 + count + args.length);
        RespWriter.writeBulk(out, script.sha1());
        RespWriter.writeBulk(out, count);
        for (int i = 0; i < count; i++) {
            RespWriter.writeBulk(out, keys.get(i));
        }
        for (Object arg : args) {
            Args.write(out, arg);
        }
    }

    @Override
    protected boolean recover(RedisServerException error, RedisConnection connection) {
        if (retried || connection == null || !"NOSCRIPT".equals(error.code())) {
            return false;
        }
        retried = true;
        ScriptLoads.resendBehindLoad(connection, script, this);
        return true;
    }
}
