package io.hasp.spring;

import io.hasp.annotation.LockNames;
import io.hasp.annotation.LockOptions;
import io.hasp.annotation.LockTemplate;
import io.hasp.annotation.Locked;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanInitializationException;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.expression.ParseException;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Checks the {@link Locked} methods of each bean as it is created: the name, every setting and
 * the key expression. A bad one fails the context's startup with a
 * {@link BeanInitializationException} naming the bean, the method and the setting, instead of the
 * first call failing in production.
 */
public final class LockedMethodsCheck implements BeanPostProcessor {

    private final SpelLockKeyBuilder keys = new SpelLockKeyBuilder();

    @Override
    public Object postProcessBeforeInitialization(Object bean, String beanName) throws BeansException {
        Class<?> type = ClassUtils.getUserClass(bean);
        ReflectionUtils.doWithMethods(type, method -> {
            Locked locked = method.getAnnotation(Locked.class);
            if (locked == null) {
                return;
            }
            try {
                LockOptions.of(method, locked);
                if (LockedAspect.COROUTINES_BRIDGED && LockTemplate.isSuspending(method)
                        && !ClassUtils.isPresent("io.hasp.reactor.ReactiveLock", type.getClassLoader())) {
                    throw new IllegalArgumentException(LockNames.describe(method) + ": @Locked a Kotlin suspend function,"
                            + " which Spring runs as a Mono here (kotlinx-coroutines-reactor is present), without"
                            + " hasp-reactor on the class path (expected: io.hasp:hasp-reactor as a dependency)");
                }
                if (!locked.key().isEmpty()) {
                    keys.expression(locked.key());
                }
            } catch (IllegalArgumentException e) {
                throw new BeanInitializationException("bean '" + beanName + "': " + e.getMessage(), e);
            } catch (ParseException e) {
                throw new BeanInitializationException("bean '" + beanName + "': " + LockNames.describe(method)
                        + ": @Locked key \"" + locked.key() + "\" is not valid SpEL: " + e.getMessage(), e);
            }
        });
        return bean;
    }
}
