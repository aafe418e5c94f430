/**
 * The RESP2/RESP3 wire format on Netty {@link io.netty.buffer.ByteBuf}s, without sockets:
 * {@link io.hasp.resp.RespWriter} encodes commands; {@link io.hasp.resp.RespReader} decodes replies
 * incrementally into a {@link io.hasp.resp.RespSink} (scalars without building objects), or, through
 * {@link io.hasp.resp.RespValueBuilder} and {@link io.hasp.resp.RespValueDecoder}, into
 * {@link io.hasp.resp.RespValue} trees; malformed input fails with
 * {@link io.hasp.resp.RespProtocolException}, and {@link io.hasp.resp.RespLimits} bounds what a
 * reply may claim.
 */
package io.hasp.resp;
