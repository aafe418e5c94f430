/**
 * The hasp client: {@link io.hasp.HaspClient}, created once per application and Redis server from
 * a {@link io.hasp.HaspConfig} or a URI, hands out locks ({@link io.hasp.HaspClient#getLock}) and
 * runs plain commands and scripts ({@link io.hasp.RedisCommands}, {@link io.hasp.Script},
 * {@link io.hasp.Reply}, {@link io.hasp.Replies}). Redis failures surface as subtypes of
 * {@link io.hasp.RedisException}.
 *
 * <pre>{@code
 * try (HaspClient client = HaspClient.create("redis://127.0.0.1:6379")) {
 *     HaspLock lock = client.getLock("orders");
 *     lock.lock();
 *     try {
 *         // one holder at a time, across every process that uses this lock name
 *     } finally {
 *         lock.unlock();
 *     }
 * }
 * }</pre>
 *
 * <p>Every future the client returns completes on one of its event-loop or timer threads; do not
 * block in a callback.
 */
package io.hasp;
