/**
 * What Redis holds for a lock or synchronizer, for people who operate a service: who holds it, how long its lease
 * lasts, who waits. {@link io.hasp.inspect.LockInfo} is one reading, taken by
 * {@link io.hasp.HaspClient#inspect(String)}; it reads hasp's and Redisson's holders alike.
 */
package io.hasp.inspect;
