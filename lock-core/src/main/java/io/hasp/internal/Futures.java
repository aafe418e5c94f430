package io.hasp.internal;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Small helpers for the futures the client's layers hand each other. */
public final class Futures {

    private Futures() {
    }

    /** The cause inside the {@link CompletionException}/{@link ExecutionException} wrappers futures add. */
    public static Throwable unwrap(Throwable error) {
        Throwable t = error;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
