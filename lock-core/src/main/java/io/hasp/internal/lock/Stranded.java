package io.hasp.internal.lock;

import io.hasp.RedisClosedException;

/**
 * A lock operation that is waiting for the client's timer or an unlock message: a parked or
 * backing-off acquisition, an unlock or lease extension waiting to be re-sent. When the client
 * closes, its timer stops and drops what it had scheduled, and no message will come: the
 * {@link LockContext} then ends every such operation through {@link #clientClosed}, so that no
 * caller waits for a wake-up that will never happen.
 */
interface Stranded {

    /** Ends the operation with {@code closed}; it is waiting, and the timer is stopped. */
    void clientClosed(RedisClosedException closed);
}
