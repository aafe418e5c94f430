/**
 * hasp's {@link io.hasp.annotation.Locked} for Spring applications: {@link
 * io.hasp.spring.EnableLocked} turns on an aspect that runs annotated bean methods under hasp
 * locks, with keys in SpEL ({@code key = "#order.id"}), settings checked at startup, and the lock
 * given back after the surrounding transaction has committed or rolled back.
 */
package io.hasp.spring;
