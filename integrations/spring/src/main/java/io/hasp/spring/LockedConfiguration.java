package io.hasp.spring;

import io.hasp.HaspClient;
import io.hasp.annotation.LockTemplate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.EnableAspectJAutoProxy;

/**
 * What {@link EnableLocked} adds to a context: a {@link LockTemplate} on the context's
 * {@link HaspClient} that gives locks back after the surrounding transaction
 * ({@link TransactionAwareRelease}), the {@link LockedAspect}, and the {@link LockedMethodsCheck}
 * that fails the context's startup on a bad {@code @Locked} setting. An application that defines a
 * second {@code LockTemplate} bean marks the one the aspect uses {@code @Primary}.
 */
@Configuration(proxyBeanMethods = false)
@EnableAspectJAutoProxy
public class LockedConfiguration {

    /** The template the aspect locks with. */
    @Bean
    public LockTemplate haspLockTemplate(HaspClient client) {
        return new LockTemplate(client, new TransactionAwareRelease());
    }

    /** The aspect. */
    @Bean
    public LockedAspect haspLockedAspect(LockTemplate template) {
        return new LockedAspect(template, new SpelLockKeyBuilder());
    }

    /** Checks every {@code @Locked} method of every bean as the bean is created. */
    @Bean
    public static LockedMethodsCheck haspLockedMethodsCheck() {
        return new LockedMethodsCheck();
    }
}
