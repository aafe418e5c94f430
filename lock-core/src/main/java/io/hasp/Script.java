package io.hasp;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A Lua script: its name (for messages), its text and the SHA1 of the text, computed once.
 * Scripts are sent as {@code EVALSHA}; a server that does not know the script (NOSCRIPT) gets
 * a {@code SCRIPT LOAD} and the call is retried once. Immutable and thread-safe.
 */
public final class Script {

    private final String name;
    private final String text;
    private final String sha1;

    private Script(String name, String text) {
        this.name = name;
        this.text = text;
        this.sha1 = sha1Hex(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Creates a script from its text.
     *
     * @param name a short name for messages, e.g. {@code "lock-acquire"}
     * @param lua the Lua source
     * @return the script
     * @throws IllegalArgumentException when an argument is null or empty
     */
    public static Script of(String name, String lua) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("name: " + (name == null ? "null" : "empty") + " (expected: a script name)");
        }
        if (lua == null || lua.isBlank()) {
            throw new IllegalArgumentException("lua: " + (lua == null ? "null" : "blank") + " (expected: Lua source)");
        }
        return new Script(name, lua);
    }

    /**
     * Loads a script from a UTF-8 class-path resource next to {@code anchor}.
     *
     * <p>On the module path the resource is read by hasp's module, so a package of a named module
     * that holds scripts must be open to it: {@code opens com.example.scripts to io.hasp;} (or use
     * {@link #of(String, String)} with text the application read itself). On the class path no
     * such declaration is needed.
     *
     * @param anchor the class whose package the resource name is relative to
     * @param resourceName e.g. {@code "acquire.lua"}; its name without {@code .lua} is the script's name
     * @return the script
     * @throws IllegalArgumentException when the resource is missing or unreadable
     */
    public static Script fromResource(Class<?> anchor, String resourceName) {
        if (anchor == null || resourceName == null) {
            throw new IllegalArgumentException("anchor/resourceName: null (expected: a class and a resource name)");
        }
        try (InputStream in = anchor.getResourceAsStream(resourceName)) {
            if (in == null) {
                throw new IllegalArgumentException("resourceName: " + resourceName
                        + " (expected: a resource next to " + anchor.getName() + ")");
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            String simple = resourceName.substring(resourceName.lastIndexOf('/') + 1);
            return of(simple.endsWith(".lua") ? simple.substring(0, simple.length() - 4) : simple, text);
        } catch (IOException e) {
            throw new IllegalArgumentException("resourceName: " + resourceName + " cannot be read (" + e.getMessage() + ")", e);
        }
    }

    /** @return the script's name */
    public String name() {
        return name;
    }

    /** @return the Lua source */
    public String text() {
        return text;
    }

    /** @return the lower-case hex SHA1 of the UTF-8 text, as Redis computes it */
    public String sha1() {
        return sha1;
    }

    private static String sha1Hex(byte[] bytes) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(bytes);
            StringBuilder hex = new StringBuilder(40);
            for (byte b : digest) {
                hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every JDK", e);
        }
    }

    @Override
    public String toString() {
        return "Script[" + name + " " + sha1 + "]";
    }
}
