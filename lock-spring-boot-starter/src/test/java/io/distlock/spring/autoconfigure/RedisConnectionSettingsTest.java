package io.distlock.spring.autoconfigure;

import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/** Pure logic: which settings become which Lettuce URI (no Redis needed). */
class RedisConnectionSettingsTest {

    @Test
    void distlockSettingsWinOverSpringDataRedis() {
        DistLockProperties properties = new DistLockProperties();
        properties.getRedis().setUrl("redis://own:6380/2");
        MockEnvironment environment = new MockEnvironment().withProperty("spring.data.redis.host", "other");

        RedisURI uri = RedisConnectionSettings.resolve(properties, environment).toRedisUri();

        assertThat(uri.getHost()).isEqualTo("own");
        assertThat(uri.getPort()).isEqualTo(6380);
        assertThat(uri.getDatabase()).isEqualTo(2);
    }

    @Test
    void aBlankUrlCountsAsNotSetSoAnEmptyPlaceholderFallsBack() {
        DistLockProperties properties = new DistLockProperties();
        properties.getRedis().setUrl("");   // url: ${REDIS_URL:} with no REDIS_URL
        MockEnvironment environment = new MockEnvironment().withProperty("spring.data.redis.host", "cache");

        RedisURI uri = RedisConnectionSettings.resolve(properties, environment).toRedisUri();

        assertThat(uri.getHost()).isEqualTo("cache");
        assertThat(uri.getPort()).isEqualTo(6379);
    }

    @Test
    void springDataRedisSettingsAreReadByName() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("spring.data.redis.host", "cache")
                .withProperty("spring.data.redis.port", "6390")
                .withProperty("spring.data.redis.username", "app")
                .withProperty("spring.data.redis.password", "secret")
                .withProperty("spring.data.redis.database", "3")
                .withProperty("spring.data.redis.ssl.enabled", "true");

        RedisURI uri = RedisConnectionSettings.resolve(new DistLockProperties(), environment).toRedisUri();

        assertThat(uri.getHost()).isEqualTo("cache");
        assertThat(uri.getPort()).isEqualTo(6390);
        assertThat(credentials(uri).getUsername()).isEqualTo("app");
        assertThat(credentials(uri).getPassword()).isEqualTo("secret".toCharArray());
        assertThat(uri.getDatabase()).isEqualTo(3);
        assertThat(uri.isSsl()).isTrue();
    }

    @Test
    void anSslBundleImpliesTlsAndDistlocksOwnWinsOverSpringDataRedis() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("spring.data.redis.host", "cache")
                .withProperty("spring.data.redis.ssl.bundle", "spring-bundle");

        RedisConnectionSettings fallback = RedisConnectionSettings.resolve(new DistLockProperties(), environment);
        assertThat(fallback.sslBundle()).isEqualTo("spring-bundle");
        assertThat(fallback.sslBundleProperty()).isEqualTo("spring.data.redis.ssl.bundle");
        assertThat(fallback.toRedisUri().isSsl()).as("a bundle implies TLS").isTrue();

        DistLockProperties own = new DistLockProperties();
        own.getRedis().setSslBundle("distlock-bundle");
        RedisConnectionSettings overridden = RedisConnectionSettings.resolve(own, environment);
        assertThat(overridden.sslBundle()).isEqualTo("distlock-bundle");
        assertThat(overridden.sslBundleProperty()).isEqualTo("distlock.redis.ssl-bundle");

        assertThat(RedisConnectionSettings.resolve(new DistLockProperties(), new MockEnvironment()).toRedisUri()
                .isSsl()).as("no bundle, no ssl: plain").isFalse();
    }

    @Test
    void clusterNodesBecomeOneUriPerSeedWithTheCredentials() {
        DistLockProperties properties = new DistLockProperties();
        properties.getRedis().getCluster().setNodes(List.of("n1:7000", "n2"));
        properties.getRedis().setUsername("app");
        properties.getRedis().setPassword("secret");
        properties.getRedis().setSsl(true);

        RedisConnectionSettings settings = RedisConnectionSettings.resolve(properties, new MockEnvironment());

        assertThat(settings.isCluster()).isTrue();
        assertThat(settings.clusterUris()).extracting(RedisURI::getHost, RedisURI::getPort, RedisURI::isSsl)
                .containsExactly(tuple("n1", 7000, true), tuple("n2", 6379, true));
        assertThat(settings.clusterUris()).allSatisfy(uri -> assertThat(credentials(uri).getPassword())
                .isEqualTo("secret".toCharArray()));
        assertThat(settings.toString()).doesNotContain("secret");
    }

    @Test
    void sentinelSettingsBecomeASentinelUri() {
        DistLockProperties properties = new DistLockProperties();
        properties.getRedis().getSentinel().setMaster("mymaster");
        properties.getRedis().getSentinel().setNodes(List.of("s1:26379", "s2:26380", "s3"));
        properties.getRedis().setPassword("secret");

        RedisURI uri = RedisConnectionSettings.resolve(properties, new MockEnvironment()).toRedisUri();

        assertThat(uri.getSentinelMasterId()).isEqualTo("mymaster");
        assertThat(uri.getSentinels()).extracting(RedisURI::getHost, RedisURI::getPort)
                .containsExactly(tuple("s1", 26379), tuple("s2", 26380), tuple("s3", 26379));
        assertThat(credentials(uri).getPassword()).isEqualTo("secret".toCharArray());
    }

    @Test
    void ipv6SentinelsAreWrittenInBracketsAsSpringBootReadsThem() {
        DistLockProperties properties = new DistLockProperties();
        properties.getRedis().getSentinel().setMaster("mymaster");
        properties.getRedis().getSentinel().setNodes(List.of("[::1]:26379", "[fe80::1]", "s3:26380"));

        RedisURI uri = RedisConnectionSettings.resolve(properties, new MockEnvironment()).toRedisUri();

        assertThat(uri.getSentinels()).extracting(RedisURI::getHost, RedisURI::getPort)
                .containsExactly(tuple("::1", 26379), tuple("fe80::1", 26379), tuple("s3", 26380));

        properties.getRedis().getSentinel().setNodes(List.of("[::1:26379"));
        assertThatThrownBy(() -> RedisConnectionSettings.resolve(properties, new MockEnvironment()).toRedisUri())
                .isInstanceOf(InvalidLockPropertyException.class)
                .hasMessageContaining("distlock.redis.sentinel.nodes").hasMessageContaining("[::1]:26379");
    }

    private static RedisCredentials credentials(RedisURI uri) {
        return uri.getCredentialsProvider().resolveCredentials().block(Duration.ofSeconds(1));
    }

    @Test
    void nothingConfiguredMeansLocalhost() {
        RedisURI uri = RedisConnectionSettings.resolve(new DistLockProperties(), new MockEnvironment()).toRedisUri();
        assertThat(uri.getHost()).isEqualTo("localhost");
        assertThat(uri.getPort()).isEqualTo(6379);
    }

    @Test
    void toStringHidesThePassword() {
        DistLockProperties properties = new DistLockProperties();
        properties.getRedis().setUrl("redis://user:hunter2@host:6379");
        properties.getRedis().setPassword("hunter3");
        String text = RedisConnectionSettings.resolve(properties, new MockEnvironment()).toString();
        assertThat(text).doesNotContain("hunter2").doesNotContain("hunter3");
    }
}
