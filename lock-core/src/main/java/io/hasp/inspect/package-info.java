/**
 * What Redis holds for a lock or synchronizer, for people who operate a service: who holds it, how long its lease
 * lasts, who waits, which process a holder is. A client's {@link io.hasp.inspect.LockInspector}
 * ({@code HaspClient.inspector()}) takes {@link io.hasp.inspect.LockInfo} readings, reading hasp's and Redisson's
 * holders alike, lists locks, and shows the client's own holds.
 */
package io.hasp.inspect;
