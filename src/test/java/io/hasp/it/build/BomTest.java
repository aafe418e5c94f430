package io.hasp.it.build;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * hasp-bom has no parent (so that importing it pins nothing but hasp's own artifacts), so nothing
 * in Maven keeps it in step with the reactor: this test does. It fails when the BOM's version
 * differs from the parent's, or when the set of artifacts it manages differs from the set of
 * published modules (the reactor's jar modules that do not set {@code hasp.publish.skip}).
 */
class BomTest {

    private static final Path ROOT = Path.of(System.getProperty("user.dir")).resolve("../..").normalize();

    @Test
    void bomVersionIsTheReactorVersion() throws Exception {
        Element parent = read(ROOT.resolve("pom.xml"));
        Element bom = read(ROOT.resolve("bom/pom.xml"));
        assertEquals(text(parent, "version", null), text(bom, "version", null),
                "bom/pom.xml's version must be the parent's (set both when releasing)");
    }

    @Test
    void bomManagesExactlyThePublishedModules() throws Exception {
        Element parent = read(ROOT.resolve("pom.xml"));
        TreeSet<String> published = new TreeSet<>();
        for (Element module : children(child(parent, "modules"), "module")) {
            Element pom = read(ROOT.resolve(module.getTextContent().trim()).resolve("pom.xml"));
            String packaging = text(pom, "packaging", "jar");
            Element properties = child(pom, "properties");
            String skip = properties == null ? "false" : text(properties, "hasp.publish.skip", "false");
            if (packaging.equals("jar") && !skip.equals("true")) {
                published.add(text(pom, "artifactId", ""));
            }
        }
        TreeSet<String> managed = new TreeSet<>();
        Element bom = read(ROOT.resolve("bom/pom.xml"));
        for (Element dependency : children(child(child(bom, "dependencyManagement"), "dependencies"), "dependency")) {
            managed.add(text(dependency, "artifactId", ""));
        }
        assertEquals(published, managed, "bom/pom.xml must manage every published module and nothing else");
        assertEquals(new TreeSet<>(List.of("hasp-annotation", "hasp-lock-core", "hasp-lock-rw", "hasp-resp-codec", "hasp-shedlock",
                "hasp-spring", "hasp-spring-boot-starter", "hasp-spring-integration", "hasp-micrometer", "hasp-reactor", "hasp-kotlin")), published,
                "the published modules changed: update this test, the BOM and the README's Install section together");
    }

    @Test
    void theReleaseProfileExcludesExactlyTheUnpublishedModules() throws Exception {
        Element parent = read(ROOT.resolve("pom.xml"));
        TreeSet<String> unpublished = new TreeSet<>();
        for (Element module : children(child(parent, "modules"), "module")) {
            Element pom = read(ROOT.resolve(module.getTextContent().trim()).resolve("pom.xml"));
            Element properties = child(pom, "properties");
            if (properties != null && text(properties, "hasp.publish.skip", "false").equals("true")) {
                unpublished.add(text(pom, "artifactId", ""));
            }
        }
        String excluded = null;
        for (Element profile : children(child(parent, "profiles"), "profile")) {
            if (text(profile, "id", "").equals("release")) {
                for (Element plugin : children(child(child(profile, "build"), "plugins"), "plugin")) {
                    if (text(plugin, "artifactId", "").equals("central-publishing-maven-plugin")) {
                        excluded = text(child(plugin, "configuration"), "excludeArtifacts", "");
                    }
                }
            }
        }
        assertEquals(unpublished, new TreeSet<>(List.of(String.valueOf(excluded).split(","))),
                "the release profile's excludeArtifacts must name every module that sets hasp.publish.skip");
    }

    private static Element read(Path pom) throws Exception {
        if (!Files.isRegularFile(pom)) {
            throw new AssertionError("no pom at " + pom);
        }
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile()).getDocumentElement();
    }

    private static String text(Element parent, String name, String otherwise) {
        Element child = child(parent, name);
        return child == null ? otherwise : child.getTextContent().trim();
    }

    private static Element child(Element parent, String name) {
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element && ((Element) node).getTagName().equals(name)) {
                return (Element) node;
            }
        }
        return null;
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element && ((Element) node).getTagName().equals(name)) {
                found.add((Element) node);
            }
        }
        return found;
    }
}
