package io.distlock.sample.race;

import org.springframework.core.env.Environment;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;
import java.util.List;

/**
 * {@code POST /demo/race}: the {@link Race} against this very instance, with the lock and without.
 */
@RestController
class RaceController {

    private final Environment environment;
    private final Race race = new Race();

    RaceController(Environment environment) {
        this.environment = environment;
    }

    @PostMapping("/demo/race")
    RaceResult race(@RequestParam(defaultValue = "3") int orders,
                    @RequestParam(defaultValue = "20") int requestsPerOrder) {
        URI self = URI.create("http://localhost:" + environment.getRequiredProperty("local.server.port"));
        return race.run(List.of(self), orders, requestsPerOrder);
    }
}
