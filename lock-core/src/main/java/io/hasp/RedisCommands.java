package io.hasp;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The asynchronous command API of a {@link io.hasp.HaspClient}. Thread-safe: call it from any
 * thread; commands from all callers are pipelined over a few shared connections.
 *
 * <p>Every future completes on one of the client's event-loop threads: never block in a
 * callback (use the {@code ...Async} variants with an executor for slow work). As with any
 * {@code CompletableFuture}, a callback attached after completion runs on the attaching thread. Futures fail
 * with {@link RedisServerException} (error reply), {@link RedisTimeoutException} (no reply
 * within the command timeout), {@link RedisConnectionException} (connection lost: the
 * command may or may not have run; it is never re-sent), {@link RedisClosedException} (client
 * closed) or {@link RedisProtocolException}. Bad arguments throw
 * {@link IllegalArgumentException} at once and nothing is sent.
 *
 * <p>Arguments may be {@code String} (sent as UTF-8), {@code byte[]}, {@code Long},
 * {@code Integer}, or a Netty {@code ByteBuf} (its readable bytes; the caller keeps ownership
 * and must not release it before the future completes).
 */
public interface RedisCommands {

    /**
     * Runs a script with {@code EVALSHA}; when the server does not know it (NOSCRIPT) the
     * script is loaded on that connection and the call retried once.
     *
     * @param script the script
     * @param reply how the script's result is decoded, e.g. {@link Replies#NULL_OR_LONG}
     * @param keys the script's KEYS
     * @param args the script's ARGV
     * @param <T> the result type
     * @return the decoded result
     */
    <T> CompletableFuture<T> evalsha(Script script, Reply<T> reply, List<String> keys, Object... args);

    /**
     * Sends any command.
     *
     * @param reply how the reply is decoded
     * @param command the command's first word, e.g. {@code "GET"} or {@code "SCRIPT"}
     * @param args the remaining words
     * @param <T> the result type
     * @return the decoded reply
     */
    <T> CompletableFuture<T> execute(Reply<T> reply, String command, Object... args);

    /**
     * Loads a script into the server's cache ({@code SCRIPT LOAD}).
     *
     * @param script the script
     * @return the SHA1 the server computed
     */
    CompletableFuture<String> scriptLoad(Script script);

    /**
     * {@code PUBLISH channel message}.
     *
     * @param channel the channel
     * @param message the message
     * @return the number of subscribers that received it (on this server)
     */
    CompletableFuture<Long> publish(String channel, String message);

    /**
     * {@code PTTL key}.
     *
     * @param key the key
     * @return milliseconds to live, -1 without expiry, -2 when the key does not exist
     */
    CompletableFuture<Long> pttl(String key);

    /**
     * {@code HGET key field}.
     *
     * @param key the hash
     * @param field the field
     * @return the value, or {@code null}
     */
    CompletableFuture<String> hget(String key, String field);

    /**
     * {@code HEXISTS key field}.
     *
     * @param key the hash
     * @param field the field
     * @return whether the field exists
     */
    CompletableFuture<Boolean> hexists(String key, String field);

    /**
     * {@code HLEN key}.
     *
     * @param key the hash
     * @return the number of fields
     */
    CompletableFuture<Long> hlen(String key);

    /**
     * {@code DEL key...}.
     *
     * @param keys one or more keys
     * @return the number of keys removed
     */
    CompletableFuture<Long> del(String... keys);

    /**
     * {@code GET key}.
     *
     * @param key the key
     * @return the value as UTF-8 text, or {@code null}
     */
    CompletableFuture<String> get(String key);

    /**
     * {@code SET key value}.
     *
     * @param key the key
     * @param value the value, sent as UTF-8
     * @return {@code "OK"}
     */
    CompletableFuture<String> set(String key, String value);

    /**
     * {@code PING}.
     *
     * @return {@code "PONG"}
     */
    CompletableFuture<String> ping();
}
