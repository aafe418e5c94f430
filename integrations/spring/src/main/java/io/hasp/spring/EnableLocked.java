package io.hasp.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.context.annotation.Import;

/**
 * Turns on {@link io.hasp.annotation.Locked} for the beans of a Spring context, with the
 * context's {@link io.hasp.HaspClient} bean: put it on a {@code @Configuration} class. The
 * Spring Boot starter does this by itself. See {@link LockedConfiguration} for what it adds.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Import(LockedConfiguration.class)
public @interface EnableLocked {
}
