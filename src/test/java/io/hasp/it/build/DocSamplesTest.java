package io.hasp.it.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every Java and Kotlin sample of README.md and docs/ is a region of a compiled source under test, which a test
 * runs against a real server: a page shows it as a {@code java} or {@code kotlin} code block right after a comment line
 * {@code <!-- sample: <path from the repository root> <id> -->}, and the source marks it with
 * {@code // begin-sample: <id>} and {@code // end-sample: <id>}. This test fails on a Java block without
 * that comment, on a region that does not exist, and on a block that differs from its region (the region's
 * common indentation removed). So a sample that stops compiling fails the build where its source lives, and
 * one that is edited on the page alone fails here.
 */
class DocSamplesTest {

    private static final Path ROOT = DocPages.ROOT;
    private static final Pattern SAMPLE = Pattern.compile("<!-- sample: (\\S+) (\\S+) -->");

    @Test
    void everyJavaBlockIsACompiledSampleRegion() throws IOException {
        List<String> problems = new ArrayList<>();
        int blocks = 0;
        for (Path page : DocPages.all()) {
            List<String> lines = Files.readAllLines(page);
            for (int i = 0; i < lines.size(); i++) {
                if (!lines.get(i).equals("```java") && !lines.get(i).equals("```kotlin")) {
                    continue;
                }
                blocks++;
                int end = i + 1;
                while (end < lines.size() && !lines.get(end).equals("```")) {
                    end++;
                }
                String where = ROOT.relativize(page) + ":" + (i + 1);
                Matcher sample = i > 0 ? SAMPLE.matcher(lines.get(i - 1).trim()) : null;
                if (sample == null || !sample.matches()) {
                    problems.add(where + ": a java or kotlin block without a <!-- sample: <path> <id> --> line before it");
                } else {
                    String problem = compare(sample.group(1), sample.group(2), lines.subList(i + 1, end));
                    if (problem != null) {
                        problems.add(where + ": " + problem);
                    }
                }
                i = end;
            }
        }
        assertTrue(blocks >= 10, "the pages' java blocks: " + blocks);
        assertEquals(List.of(), problems, "java samples out of step with their compiled sources");
    }

    /** Null when {@code shown} is the region {@code id} of {@code path}; else what is wrong. */
    private static String compare(String path, String id, List<String> shown) throws IOException {
        Path source = ROOT.resolve(path);
        if (!Files.isRegularFile(source)) {
            return "no source " + path;
        }
        List<String> region = region(Files.readAllLines(source), id);
        if (region == null) {
            return "no region '" + id + "' in " + path;
        }
        List<String> page = shown.stream().map(DocSamplesTest::stripEnd).toList();
        if (page.equals(region)) {
            return null;
        }
        for (int k = 0; k < Math.max(page.size(), region.size()); k++) {
            String a = k < page.size() ? page.get(k) : "<end>";
            String b = k < region.size() ? region.get(k) : "<end>";
            if (!a.equals(b)) {
                return "differs from " + path + " '" + id + "' at its line " + (k + 1) + ":\n  page:   " + a + "\n  source: " + b;
            }
        }
        return "differs from " + path + " '" + id + "'";
    }

    /** The lines between the region's markers, without their common indentation; null when it has none. */
    static List<String> region(List<String> source, String id) {
        int begin = -1;
        int end = -1;
        for (int k = 0; k < source.size(); k++) {
            String line = source.get(k).trim();
            if (line.equals("// begin-sample: " + id)) {
                begin = k;
            } else if (line.equals("// end-sample: " + id) && begin >= 0) {
                end = k;
                break;
            }
        }
        if (begin < 0 || end < 0) {
            return null;
        }
        List<String> lines = source.subList(begin + 1, end);
        int indent = Integer.MAX_VALUE;
        for (String line : lines) {
            if (!line.isBlank()) {
                indent = Math.min(indent, line.length() - line.stripLeading().length());
            }
        }
        List<String> out = new ArrayList<>();
        for (String line : lines) {
            out.add(line.isBlank() ? "" : stripEnd(line.substring(indent)));
        }
        return out;
    }

    private static String stripEnd(String line) {
        return line.stripTrailing();
    }

}
