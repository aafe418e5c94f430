package io.hasp.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a parameter of a {@link Locked} method whose value becomes part of the lock's name, in
 * parameter order: {@code void deduct(@LockKey long sku, int quantity)} locks
 * {@code "<prefix>:<value>:<sku>"}. A value must have a stable text of its own: strings,
 * numbers, booleans, characters, enums, UUIDs, or any type that overrides {@code toString()}
 * (records do). A value whose text would be {@code Object.toString()}, an identity hash that
 * differs per JVM, is refused, as is {@code null}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface LockKey {
}
