package io.hasp.it.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.hasp.HaspClient;
import io.hasp.annotation.LockTemplate;
import io.hasp.shedlock.HaspLockProvider;
import io.hasp.spring.integration.HaspLockRegistry;
import io.hasp.lock.rw.HaspReadWriteLocks;
import io.hasp.micrometer.HaspMetrics;
import io.hasp.reactor.HaspReactiveClient;
import io.hasp.resp.RespReader;
import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReader;
import java.lang.module.ModuleReference;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The public surface of hasp's library modules, checked against {@code api/exported-types.txt}:
 * every public type (top-level or nested) in a package that a module exports to everyone, as the
 * module descriptors in the built artifacts say. The list changes only on purpose: a new public
 * class in an exported package, or a new export, fails this test until the file is updated.
 *
 * <p>To accept a change, rewrite the file and commit it with the change:
 * {@code ./mvnw -B -pl src/test -am verify -Dtest=ApiSurfaceTest -Dit.test=none -Dhasp.api.update=true}.
 */
class ApiSurfaceTest {

    private static final Path ROOT = Path.of(System.getProperty("user.dir")).resolve("../..").normalize();
    private static final Path EXPECTED = ROOT.resolve("api/exported-types.txt");
    private static final String UPDATE = "hasp.api.update";

    /** One class of each library module, to find the module's jar (or classes directory). */
    private static final List<Class<?>> ANCHORS = List.of(RespReader.class, HaspClient.class, HaspReadWriteLocks.class,
            LockTemplate.class, HaspLockProvider.class, HaspLockRegistry.class, HaspMetrics.class, HaspReactiveClient.class);

    @Test
    void exportedPublicTypesAreTheCheckedInList() throws Exception {
        List<String> actual = surface();
        if (Boolean.getBoolean(UPDATE)) {
            Files.createDirectories(EXPECTED.getParent());
            Files.write(EXPECTED, actual, StandardCharsets.UTF_8);
            return;
        }
        if (!Files.isRegularFile(EXPECTED)) {
            fail("no " + ROOT.relativize(EXPECTED) + ": create it with -D" + UPDATE + "=true (see this test's Javadoc)");
        }
        List<String> expected = Files.readAllLines(EXPECTED, StandardCharsets.UTF_8);
        if (!expected.equals(actual)) {
            TreeSet<String> added = new TreeSet<>(actual);
            added.removeAll(expected);
            TreeSet<String> removed = new TreeSet<>(expected);
            removed.removeAll(actual);
            fail("hasp's exported API changed.\n  new:     " + added + "\n  removed: " + removed
                    + "\nIf this is on purpose, rewrite " + ROOT.relativize(EXPECTED) + " and commit it with the change:\n"
                    + "  ./mvnw -B -pl src/test -am verify -Dtest=ApiSurfaceTest -Dit.test=none -D" + UPDATE + "=true\n"
                    + "Otherwise make the new types package-private or move them under io.hasp.internal.");
        }
    }

    @Test
    void onlyTheApiPackagesAreExportedToEveryone() throws Exception {
        TreeSet<String> exported = new TreeSet<>();
        for (Class<?> anchor : ANCHORS) {
            for (ModuleDescriptor.Exports export : descriptor(anchor).exports()) {
                if (!export.isQualified()) {
                    exported.add(export.source());
                }
            }
        }
        assertEquals(new TreeSet<>(Set.of("io.hasp", "io.hasp.lock", "io.hasp.lock.rw", "io.hasp.resp", "io.hasp.annotation",
                "io.hasp.shedlock", "io.hasp.spring.integration", "io.hasp.micrometer", "io.hasp.sync", "io.hasp.reactor",
                "io.hasp.inspect")),
                exported);
    }

    @Test
    void internalPackagesAreExportedToHaspModulesOnly() throws Exception {
        for (Class<?> anchor : ANCHORS) {
            for (ModuleDescriptor.Exports export : descriptor(anchor).exports()) {
                if (export.source().contains(".internal")) {
                    assertTrue(export.isQualified(), export + " must be a qualified export");
                    assertTrue(export.targets().stream().allMatch(target -> target.startsWith("io.hasp.")),
                            export + " names a module outside hasp");
                }
            }
        }
    }

    @Test
    void noExportedSignatureNamesAnInternalType() throws Exception {
        List<String> leaks = new ArrayList<>();
        for (String line : surface()) {
            Class<?> type = Class.forName(binaryName(line.substring(line.indexOf(": ") + 2)));
            List<String> signatures = new ArrayList<>();
            signatures.add(String.valueOf(type.getGenericSuperclass()));
            for (java.lang.reflect.Type api : type.getGenericInterfaces()) {
                signatures.add(api.getTypeName());
            }
            for (java.lang.reflect.Method m : type.getDeclaredMethods()) {
                if (isVisible(m.getModifiers()) && !m.isSynthetic()) {
                    signatures.add(m.toGenericString());
                }
            }
            for (java.lang.reflect.Constructor<?> c : type.getDeclaredConstructors()) {
                if (isVisible(c.getModifiers()) && !c.isSynthetic()) {
                    signatures.add(c.toGenericString());
                }
            }
            for (java.lang.reflect.Field f : type.getDeclaredFields()) {
                if (isVisible(f.getModifiers()) && !f.isSynthetic()) {
                    signatures.add(f.toGenericString());
                }
            }
            for (String signature : signatures) {
                if (signature.contains("io.hasp.internal")) {
                    leaks.add(type.getName() + ": " + signature);
                }
            }
        }
        assertTrue(leaks.isEmpty(), "exported signatures name internal types: " + leaks);
    }

    private static boolean isVisible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    /** {@code io.hasp.HaspConfig.Builder} -> {@code io.hasp.HaspConfig$Builder}. */
    private static String binaryName(String canonical) throws ClassNotFoundException {
        String name = canonical;
        for (;;) {
            try {
                Class.forName(name, false, ApiSurfaceTest.class.getClassLoader());
                return name;
            } catch (ClassNotFoundException e) {
                int dot = name.lastIndexOf('.');
                if (dot < 0) {
                    throw e;
                }
                name = name.substring(0, dot) + '$' + name.substring(dot + 1);
            }
        }
    }

    /** "module io.hasp: io.hasp.HaspClient" lines, sorted. */
    static List<String> surface() throws Exception {
        List<String> lines = new ArrayList<>();
        for (Class<?> anchor : ANCHORS) {
            ModuleReference module = reference(anchor);
            ModuleDescriptor descriptor = module.descriptor();
            Set<String> exported = descriptor.exports().stream().filter(e -> !e.isQualified())
                    .map(ModuleDescriptor.Exports::source).collect(Collectors.toSet());
            try (ModuleReader reader = module.open(); Stream<String> entries = reader.list()) {
                for (String entry : (Iterable<String>) entries::iterator) {
                    if (!entry.endsWith(".class") || entry.endsWith("module-info.class") || entry.endsWith("package-info.class")) {
                        continue;
                    }
                    String className = entry.substring(0, entry.length() - ".class".length()).replace('/', '.');
                    String packageName = className.substring(0, className.lastIndexOf('.'));
                    if (exported.contains(packageName) && isPublicApi(Class.forName(className, false, anchor.getClassLoader()))) {
                        lines.add("module " + descriptor.name() + ": " + className.replace('$', '.'));
                    }
                }
            }
        }
        lines.sort(null);
        return lines;
    }

    private static boolean isPublicApi(Class<?> type) {
        if (type.isAnonymousClass() || type.isLocalClass() || type.isSynthetic()) {
            return false;
        }
        // A nested type is API when it is public or protected and every enclosing type is public.
        if (!(Modifier.isPublic(type.getModifiers()) || (type.isMemberClass() && Modifier.isProtected(type.getModifiers())))) {
            return false;
        }
        for (Class<?> c = type.getEnclosingClass(); c != null; c = c.getEnclosingClass()) {
            if (!Modifier.isPublic(c.getModifiers())) {
                return false;
            }
        }
        return true;
    }

    private static ModuleDescriptor descriptor(Class<?> anchor) throws IOException, URISyntaxException {
        return reference(anchor).descriptor();
    }

    private static ModuleReference reference(Class<?> anchor) throws IOException, URISyntaxException {
        Path location = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        Set<ModuleReference> found = ModuleFinder.of(location).findAll();
        if (found.size() != 1 || found.iterator().next().descriptor().isAutomatic()) {
            throw new AssertionError(location + " holds no module-info.class: the " + anchor.getSimpleName()
                    + " module must declare its exports");
        }
        return found.iterator().next();
    }
}
