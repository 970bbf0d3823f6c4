package io.distlock.sample;

import io.distlock.sample.race.TwoInstanceRace;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

import java.util.Arrays;

/**
 * A small order service on the distlock starter: orders processed exactly once, payments charged
 * once, stock reserved for several SKUs at once, a daily report built by one caller at a time.
 * Configuration is in application.yml; metrics are at {@code /actuator/prometheus}.
 */
@SpringBootApplication
public class SampleApplication {

    /**
     * @param args Spring Boot arguments; or {@value TwoInstanceRace#COMMAND} and its arguments, to run
     *             the race across two instances of this application
     */
    public static void main(String[] args) throws InterruptedException {
        if (args.length > 0 && args[0].equals(TwoInstanceRace.COMMAND)) {
            TwoInstanceRace.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        SpringApplication.run(SampleApplication.class, args);
    }
}
