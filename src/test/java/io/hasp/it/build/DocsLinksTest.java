package io.hasp.it.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README and the pages under {@code docs/} link to each other, to files of the repository and to
 * headings ({@code page.md#anchor}). Moving a section or renaming a heading breaks such links without a
 * sound; this test fails on every relative link whose file does not exist, and on every anchor that no
 * heading of its page produces (GitHub's rule: lower case, punctuation dropped, spaces to hyphens).
 */
class DocsLinksTest {

    private static final Path ROOT = DocPages.ROOT;
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

    @Test
    void everyRelativeLinkAndAnchorResolves() throws IOException {
        List<Path> pages = DocPages.all();
        assertTrue(pages.size() > 5, "README.md and the docs pages: " + pages);
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            String text = withoutCodeBlocks(Files.readString(page));
            Matcher link = LINK.matcher(text);
            while (link.find()) {
                String target = link.group(1);
                if (target.startsWith("http://") || target.startsWith("https://") || target.startsWith("mailto:")) {
                    continue;
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                if (!Files.exists(resolved)) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (no such file)");
                } else if (hash >= 0 && resolved.toString().endsWith(".md")
                        && !anchors(resolved).contains(target.substring(hash + 1))) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (no such heading in " + ROOT.relativize(resolved) + ")");
                }
            }
        }
        assertEquals(List.of(), broken, "broken links in the documentation");
    }

    @Test
    void theReadmeStaysAFrontPage() throws IOException {
        long lines = Files.readAllLines(ROOT.resolve("README.md")).size();
        assertTrue(lines <= 260, "README.md has " + lines + " lines (expected: at most about 250; topics go to docs/)");
    }

    @Test
    void anchorsFollowGitHubsRule() {
        assertEquals("redlock-when-one-redis-must-not-be-the-single-point-of-failure",
                anchor("RedLock: when one Redis must not be the single point of failure"));
        assertEquals("spring-boot-starter-hasp-spring-boot-starter-spring-boot-41",
                anchor("Spring Boot starter (`hasp-spring-boot-starter`, Spring Boot 4.1)"));
        assertEquals("which-lock-should-i-use", anchor("Which lock should I use?"));
    }

    /** The anchors the headings of {@code page} produce, outside code blocks; a repeated heading gets -1, -2, ... */
    private static Set<String> anchors(Path page) {
        try {
            Set<String> anchors = new HashSet<>();
            for (String line : withoutCodeBlocks(Files.readString(page)).split("\n")) {
                if (line.startsWith("#")) {
                    String slug = anchor(line.replaceFirst("^#+\\s*", ""));
                    String unique = slug;
                    for (int n = 1; !anchors.add(unique); n++) {
                        unique = slug + "-" + n;
                    }
                }
            }
            return anchors;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** GitHub's anchor of a heading: lower case, every character but letters, digits, spaces, - and _ dropped, spaces to -. */
    static String anchor(String heading) {
        return heading.trim().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }

    /** The text with fenced code blocks blanked out (their lines kept, so a heading-like line inside is not one). */
    private static String withoutCodeBlocks(String text) {
        StringBuilder out = new StringBuilder();
        boolean fence = false;
        for (String line : text.split("\n", -1)) {
            if (line.startsWith("```")) {
                fence = !fence;
                out.append('\n');
                continue;
            }
            out.append(fence ? "" : line).append('\n');
        }
        return out.toString();
    }
}
