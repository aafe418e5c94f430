package io.hasp.internal.pubsub;

import io.hasp.resp.CommandName;

/**
 * The two kinds of Redis channels an unlock message can travel on, with the commands and push
 * frames of each. Classic channels reach every subscriber of a server, and on a cluster every
 * node's; sharded channels (Redis 7.0+) live on the master of the channel's slot only.
 *
 * <p>hasp chooses as Redisson 4.x does, so that both wake each other's waiters: sharded channels
 * on a cluster whose nodes answer {@code PUBSUB SHARDNUMSUB}, classic channels everywhere else. A
 * client's {@link io.hasp.internal.topology.Topology#channelKind() topology} says which.
 */
public enum ChannelKind {

    /** {@code PUBLISH}, {@code SUBSCRIBE}, {@code UNSUBSCRIBE}. */
    CLASSIC("publish", "SUBSCRIBE", "UNSUBSCRIBE", "message", "subscribe", "unsubscribe"),

    /** {@code SPUBLISH}, {@code SSUBSCRIBE}, {@code SUNSUBSCRIBE} (Redis 7.0+ clusters). */
    SHARDED("spublish", "SSUBSCRIBE", "SUNSUBSCRIBE", "smessage", "ssubscribe", "sunsubscribe");

    private final String publish;
    private final CommandName subscribe;
    private final CommandName unsubscribe;
    private final String messagePush;
    private final String subscribePush;
    private final String unsubscribePush;

    ChannelKind(String publish, String subscribe, String unsubscribe, String messagePush, String subscribePush,
            String unsubscribePush) {
        this.publish = publish;
        this.subscribe = CommandName.of(subscribe);
        this.unsubscribe = CommandName.of(unsubscribe);
        this.messagePush = messagePush;
        this.subscribePush = subscribePush;
        this.unsubscribePush = unsubscribePush;
    }

    /** The publish command as a script calls it: {@code redis.call(<this>, channel, message)}. */
    public String publishCommand() {
        return publish;
    }

    CommandName subscribeCommand() {
        return subscribe;
    }

    CommandName unsubscribeCommand() {
        return unsubscribe;
    }

    String messagePush() {
        return messagePush;
    }

    String subscribePush() {
        return subscribePush;
    }

    String unsubscribePush() {
        return unsubscribePush;
    }
}
