/**
 * Not API. Everything under {@code io.hasp.internal} (connections, pool, pub/sub, scripts' command
 * objects, the lock engine) is hasp's own and may change in any release. On the module path these
 * packages are exported only to hasp's modules; on the class path, do not use them either.
 */
package io.hasp.internal;
