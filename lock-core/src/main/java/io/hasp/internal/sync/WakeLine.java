package io.hasp.internal.sync;

import java.util.function.IntConsumer;

/**
 * This client's place in a semaphore's line of waiting processes ({@code semaphore_line.lua}): the channel of its
 * own on which a release wakes it, and what it does with a wake that none of its waiters can use.
 *
 * @param channel the client's own channel for the semaphore, {@code hasp_semaphore_wake__channel:{<name>}:<id>}
 * @param passOn passes a wake on to the next process in line, given how many more processes it may visit
 */
record WakeLine(String channel, IntConsumer passOn) {
}
