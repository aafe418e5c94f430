package io.hasp.internal.lock;

/**
 * Loads hasp's Lua scripts on the thread that creates a client. Each script class reads its text
 * from the jar when it is first used; left to first use, that read would happen on an event-loop
 * thread (a reply's continuation sends the next script), where a file read is a blocking call that
 * blocking detectors such as BlockHound rightly refuse, and a refused class initialisation would
 * leave that script class unusable for the life of the JVM.
 */
final class ScriptClasses {

    /** The classes whose initialisation reads scripts: the locks', the fair lock's and the synchronizers'. */
    private static final String[] NAMES = {
        "io.hasp.internal.lock.AcquireScript",
        "io.hasp.internal.lock.FencedAcquireScript",
        "io.hasp.internal.lock.ForceUnlockScript",
        "io.hasp.internal.lock.LeaveLineScript",
        "io.hasp.internal.lock.PassTurnScript",
        "io.hasp.internal.lock.RenewScript",
        "io.hasp.internal.lock.RollbackScript",
        "io.hasp.internal.lock.UnlockScript",
        "io.hasp.internal.lock.FairScripts",
        "io.hasp.internal.sync.ExpirableScripts",
        "io.hasp.internal.sync.LatchScripts",
        "io.hasp.internal.sync.SemaphoreScripts",
    };

    private ScriptClasses() {
    }

    /** Initialises every script class now (once per JVM; later calls cost a class lookup each). */
    static void load() {
        ClassLoader loader = ScriptClasses.class.getClassLoader();
        for (String name : NAMES) {
            try {
                Class.forName(name, true, loader);
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("hasp's script class " + name + " is missing from the class path", e);
            }
        }
    }
}
