package io.hasp.it.build;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The documentation's pages, for the tests that check them: README.md, then docs/*.md in name order. */
final class DocPages {

    /** The repository's root (the tests run in {@code src/test}). */
    static final Path ROOT = Path.of(System.getProperty("user.dir")).resolve("../..").normalize();

    private DocPages() {
    }

    static List<Path> all() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(ROOT.resolve("README.md"));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }
}
