package io.distlock.test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Child-JVM helper: prints {@code READY <args>}, then echoes every stdin line as {@code ECHO <line>};
 * the line {@code exit} (or end of stdin) ends it. It never lives longer than 60 s.
 */
public final class EchoMain {

    private EchoMain() {
    }

    /**
     * Entry point.
     *
     * @param args echoed in the READY line
     * @throws Exception on I/O failure
     */
    public static void main(String[] args) throws Exception {
        Thread limit = new Thread(() -> {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException ignored) {
                // exit anyway
            }
            System.exit(3);
        });
        limit.setDaemon(true);
        limit.start();
        System.out.println("READY " + String.join(" ", args));
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null && !line.equals("exit")) {
            System.out.println("ECHO " + line);
            System.out.flush();
        }
        System.out.println("BYE");
        System.exit(0);
    }
}
