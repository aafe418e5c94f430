package io.hasp.cli;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Hides credentials in what the command line prints: the user information of any URI in the text, the password of
 * the URI given ({@code --uri}) wherever it appears, and the password of {@code $HASP_PASSWORD}.
 */
final class Redaction {

    private static final Pattern USER_INFO = Pattern.compile("(://)[^/@\\s]*@");

    private Redaction() {
    }

    /**
     * @param text what is about to be printed
     * @param uri the URI the user gave, whose password (if any) must not appear
     * @return {@code text} with the credentials replaced by {@code ***}
     */
    static String hide(String text, String uri) {
        if (text == null) {
            return null;
        }
        String hidden = text;
        String given = uri == null ? null : password(uri);
        if (given != null) {
            hidden = hidden.replace(given, "***");
        }
        String environment = System.getenv("HASP_PASSWORD");
        if (environment != null && !environment.isEmpty()) {
            hidden = hidden.replace(environment, "***");
        }
        return USER_INFO.matcher(hidden).replaceAll("$1***@");
    }

    /** The password in {@code uri}'s user information ({@code scheme://[user]:password@...}), or null. */
    private static String password(String uri) {
        Matcher userInfo = Pattern.compile("://([^/@\\s]*)@").matcher(uri);
        if (!userInfo.find()) {
            return null;
        }
        String credentials = userInfo.group(1);
        int colon = credentials.indexOf(':');
        String password = colon < 0 ? credentials : credentials.substring(colon + 1);
        return password.isEmpty() ? null : password;
    }
}
