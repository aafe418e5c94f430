/**
 * hasp's Spring Boot starter: {@link io.hasp.spring.boot.HaspAutoConfiguration} builds one
 * {@link io.hasp.HaspClient} from {@code spring.data.redis.*} and {@code hasp.*}, turns on
 * {@link io.hasp.annotation.Locked} for the application's beans, and adds a health indicator.
 */
package io.hasp.spring.boot;
