package io.distlock.benchmarks;

import io.distlock.test.RedisExtension;
import io.distlock.test.RedisServerOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

import static org.assertj.core.api.Assertions.assertThat;

/** Redisson is given the Redis a benchmark names, credentials included, as distlock is. */
@Timeout(60)
class RedissonBackendTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single(RedisServerOptions.defaults().withPassword("bench-secret"));

    @Test
    void aPasswordInTheUriReachesRedisson() throws InterruptedException {
        String uri = "redis://:bench-secret@" + redis.server().host() + ":" + redis.server().port();
        try (RedissonBackend redisson = RedissonBackend.connect(uri, "test:", 1)) {
            Lock lock = redisson.lock("secured");
            assertThat(lock.tryLock(5, TimeUnit.SECONDS)).isTrue();
            lock.unlock();
        }
    }
}
