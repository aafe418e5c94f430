/**
 * hasp's RESP2/RESP3 wire format on Netty buffers: the command writer, the incremental reply
 * reader with its sink, the reply value types and the protocol error. No sockets, no connections.
 */
module io.hasp.resp {
    // ByteBuf, the channel handler and the decoder base class appear in this module's API.
    requires transitive io.netty.buffer;
    requires transitive io.netty.codec;
    requires transitive io.netty.transport;

    exports io.hasp.resp;
}
