package io.distlock.sample.race;

import java.time.Duration;
import java.util.Optional;

/**
 * {@code java -jar sample-app.jar race-two-instances [--orders=N] [--requests-per-order=N]}: starts
 * two sample instances ({@link TwoInstances}), runs the {@link Race} against both at once, prints
 * both rounds side by side, and stops them. Uses {@code REDIS_URL} when set. Exit status 0 when
 * every order was processed exactly once with the lock, 1 otherwise, 2 on bad arguments.
 */
public final class TwoInstanceRace {

    /** The first argument of the sample's command line that runs this instead of the application. */
    public static final String COMMAND = "race-two-instances";

    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(2);

    private TwoInstanceRace() {
    }

    /**
     * @param args {@code --orders=N} (default 3), {@code --requests-per-order=N} (default 20)
     */
    // TwoInstances prints its progress on System.err, and closing it leaves the stream open.
    @SuppressWarnings("ClosingStandardOutputStreams")
    public static void main(String[] args) throws InterruptedException {
        int orders = 3;
        int requestsPerOrder = 20;
        for (String arg : args) {
            if (arg.startsWith("--orders=")) {
                orders = number(arg);
            } else if (arg.startsWith("--requests-per-order=")) {
                requestsPerOrder = number(arg);
            } else {
                usage("unknown argument '" + arg + "'");
            }
        }
        try {
            Race.checkSize(orders, requestsPerOrder);
        } catch (IllegalArgumentException e) {
            usage(e.getMessage());
        }
        Optional<String> redis = Optional.ofNullable(System.getenv("REDIS_URL")).filter(url -> !url.isBlank());
        RaceResult result;
        try (TwoInstances both = TwoInstances.start(redis, STARTUP_TIMEOUT, System.err)) {
            System.err.println("Racing...");
            result = new Race().run(both.urls(), orders, requestsPerOrder);
        } catch (IllegalStateException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(1);
            return;
        }
        System.out.print(result.table());
        System.exit(result.withLock().everyOrderProcessedExactlyOnce() ? 0 : 1);
    }

    private static int number(String arg) {
        String value = arg.substring(arg.indexOf('=') + 1);
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            usage(arg + " is not a whole number");
            return 0;
        }
    }

    private static void usage(String problem) {
        System.err.println("error: " + problem);
        System.err.println("usage: java -jar sample-app/target/sample-app.jar " + COMMAND
                + " [--orders=N] [--requests-per-order=N]");
        System.exit(2);
    }
}
