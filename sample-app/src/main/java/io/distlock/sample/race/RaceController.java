package io.distlock.sample.race;

import io.distlock.core.LockTemplate;
import org.springframework.core.env.Environment;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * {@code POST /demo/race}: the {@link Race} against this very instance, with the lock and without.
 * One race at a time, under a lock with no wait: a second one, which would compete with the first
 * for the server's threads (the fake payment provider needs some too), gets a 409 at once.
 */
@RestController
class RaceController {

    private final Environment environment;
    private final LockTemplate locks;
    private final Race race = new Race();

    RaceController(Environment environment, LockTemplate locks) {
        this.environment = environment;
        this.locks = locks;
    }

    @PostMapping("/demo/race")
    RaceResult race(@RequestParam(defaultValue = "3") int orders,
                    @RequestParam(defaultValue = "20") int requestsPerOrder) {
        Race.checkSize(orders, requestsPerOrder);
        URI self = URI.create("http://localhost:" + environment.getRequiredProperty("local.server.port"));
        return locks.execute("demo:race", Duration.ZERO, null, () -> race.run(List.of(self), orders, requestsPerOrder));
    }
}
