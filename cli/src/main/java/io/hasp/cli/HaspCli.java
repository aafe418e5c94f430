package io.hasp.cli;

import io.hasp.RedisAuthException;
import io.hasp.RedisConnectionException;
import io.hasp.RedisException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code hasp}, the command line of an operator asking who holds a lock: {@code locks PATTERN}, {@code inspect NAME},
 * {@code watch NAME} and {@code force-unlock NAME --yes}, against any server hasp reaches, printed as a table or as
 * JSON. Exit codes: 0 done; 1 the server could not be reached, refused the credentials or failed the command; 2 bad
 * input (an unknown option, a bad URI, force-unlock without {@code --yes}, a name that is not a lock). No message
 * prints a password.
 */
@Command(name = "hasp", mixinStandardHelpOptions = true, version = "hasp-cli 0.1.0",
        description = "Who holds a lock on Redis: hasp's locks and Redisson's, read as they are stored.",
        subcommands = {LocksCommand.class, InspectCommand.class, WatchCommand.class, ForceUnlockCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "1:the server could not be reached, refused the credentials or failed the command",
                "2:bad input: an option, a URI, force-unlock without --yes, a name that is not a lock"})
public final class HaspCli implements Runnable {

    /** The exit code of a failure at the server, or on the way to it. */
    static final int FAILED = 1;
    /** The exit code of bad input. */
    static final int BAD_INPUT = 2;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "a command is needed: locks, inspect, watch or force-unlock");
    }

    /**
     * Runs one command line and exits with its code.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");   // hasp's own warnings stay quiet
        }
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /**
     * Runs one command line.
     *
     * @param args the command line
     * @param out where the answer goes
     * @param err where errors go
     * @return the exit code
     */
    static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine line = new CommandLine(new HaspCli());
        line.setOut(out);
        line.setErr(err);
        line.setParameterExceptionHandler((problem, arguments) -> {
            err.println("hasp: " + Redaction.hide(problem.getMessage(), uriIn(arguments)));
            problem.getCommandLine().usage(err);
            return BAD_INPUT;
        });
        line.setExecutionExceptionHandler((failure, command, parsed) -> {
            String uri = uriIn(parsed.originalArgs().toArray(new String[0]));
            err.println("hasp: " + Redaction.hide(message(failure, uri), uri));
            return failure instanceof IllegalArgumentException ? BAD_INPUT : FAILED;
        });
        return line.execute(args);
    }

    private static String message(Exception failure, String uri) {
        String shown = Redaction.hide(uri, uri);
        if (failure instanceof RedisAuthException) {
            return "the server at " + shown + " refused the credentials: " + failure.getMessage();
        }
        if (failure instanceof RedisConnectionException) {
            return "cannot connect to " + shown + ": " + failure.getMessage();
        }
        if (failure instanceof RedisException) {
            return "the server at " + shown + " failed the command: " + failure.getMessage();
        }
        if (failure instanceof IllegalArgumentException) {
            return failure.getMessage();
        }
        return failure.toString();
    }

    /** The value of {@code --uri} in a command line, or null. */
    private static String uriIn(String[] arguments) {
        for (int i = 0; i < arguments.length; i++) {
            if (arguments[i].equals("--uri") && i + 1 < arguments.length) {
                return arguments[i + 1];
            }
            if (arguments[i].startsWith("--uri=")) {
                return arguments[i].substring("--uri=".length());
            }
        }
        return System.getenv("HASP_URI");
    }
}
