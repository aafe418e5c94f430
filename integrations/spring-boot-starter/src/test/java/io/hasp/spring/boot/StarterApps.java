package io.hasp.spring.boot;

import io.hasp.testing.RedisServer;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.DefaultResourceLoader;

/** What the starter's tests share: an application on a test server, with some libraries hidden if asked. */
final class StarterApps {

    private StarterApps() {
    }

    /** Hides the classes under {@code prefix} from the application, as if their library were not on the class path. */
    static final class Hiding extends ClassLoader {

        private final String prefix;

        Hiding(String prefix) {
            super(StarterApps.class.getClassLoader());
            this.prefix = prefix;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith(prefix)) {
                throw new ClassNotFoundException(name + " (hidden by the test)");
            }
            return super.loadClass(name, resolve);
        }
    }

    /** Runs {@code app} without a web server on {@code redis}, with {@code properties} and, unless null, {@code loader}. */
    static ConfigurableApplicationContext run(Class<?> app, ClassLoader loader, RedisServer redis, String... properties) {
        List<String> all = new ArrayList<>(List.of("spring.main.banner-mode=off",
                "spring.data.redis.port=" + redis.port()));
        all.addAll(List.of(properties));
        SpringApplicationBuilder builder = new SpringApplicationBuilder(app).web(WebApplicationType.NONE)
                .properties(all.toArray(new String[0]));
        if (loader != null) {
            builder.resourceLoader(new DefaultResourceLoader(loader));
        }
        return builder.run();
    }
}
