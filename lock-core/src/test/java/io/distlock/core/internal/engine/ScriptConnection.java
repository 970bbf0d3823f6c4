package io.distlock.core.internal.engine;

import io.distlock.core.internal.scripts.ScriptExecutor;
import io.distlock.test.RedisExtension;
import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.time.Duration;

/**
 * The engine's connection to the test's Redis, for tests that drive the lock scripts through a
 * protocol directly: opened before each test, closed after it, with the server flushed.
 */
final class ScriptConnection implements BeforeEachCallback, AfterEachCallback {

    private final RedisExtension redis;
    private RedisConnections connections;

    /** @param redis the test class's Redis (registered before this) */
    ScriptConnection(RedisExtension redis) {
        this.redis = redis;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        connections = RedisConnections.standalone(RedisClient.create(redis.server().uri()), true, Duration.ofSeconds(5));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        connections.close();
        redis.server().command("FLUSHALL");
    }

    /**
     * @param clientTag the client tag its locks note
     * @param answers   where its releases keep their answers
     * @return a reentrant-lock protocol on this connection
     */
    ReentrantProtocol reentrant(String clientTag, ReleaseAnswers answers) {
        return new ReentrantProtocol(clientTag, new ScriptExecutor(connections), false, answers);
    }

    /**
     * @param permits the permit count it asks with
     * @param answers where its releases keep their answers
     * @return a semaphore protocol on this connection
     */
    SemaphoreProtocol semaphore(int permits, ReleaseAnswers answers) {
        return new SemaphoreProtocol(new ScriptExecutor(connections), permits, answers);
    }
}
