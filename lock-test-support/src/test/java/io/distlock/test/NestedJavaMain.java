package io.distlock.test;

/**
 * Child-JVM helper: starts its own {@link JavaProcess} running {@link EchoMain}, prints
 * {@code GRANDCHILD_PID <pid>} and waits up to 60 s to be killed.
 */
public final class NestedJavaMain {

    private NestedJavaMain() {
    }

    /**
     * Entry point.
     *
     * @param args ignored
     * @throws Exception if interrupted
     */
    public static void main(String[] args) throws Exception {
        JavaProcess grandchild = JavaProcess.start(EchoMain.class);
        grandchild.awaitLine("READY", java.time.Duration.ofSeconds(30));
        System.out.println("GRANDCHILD_PID " + grandchild.pid());
        System.out.flush();
        Thread.sleep(60_000);
        System.exit(4);
    }
}
