package io.hasp.internal.connection;

/**
 * What the direct path ({@link DirectConnections}) asks about the calling thread before it takes a
 * command on it: the transport declares the question, the side that knows what a caller is doing
 * answers it (the lock engine, for its blocking lock calls), and the client wires the two. Every
 * method is called on the caller's own thread.
 */
public interface CallerAdmission {

    /** Admits no caller: every command goes through the event loop. */
    CallerAdmission NONE = new CallerAdmission() {
        @Override
        public boolean takeTurn() {
            return false;
        }

        @Override
        public int competingCallers() {
            return 0;
        }

        @Override
        public long deadline() {
            return 0;
        }
    };

    /**
     * Takes the calling thread's turn on a direct connection: {@code true} once for a caller that would
     * only wait for the reply anyway (a blocking call's own script), {@code false} otherwise.
     */
    boolean takeTurn();

    /** How many threads compete for the direct connections now: those that still make round trips of their own. */
    int competingCallers();

    /** When the calling thread's call gives up ({@link System#nanoTime()}), or 0 when only the command timeout bounds it. */
    long deadline();
}
