/**
 * Real-Redis test fixture for distlock modules.
 *
 * <ul>
 *   <li>{@link io.distlock.test.RedisServers} starts servers; {@link io.distlock.test.RedisServer} controls one
 *       (stop, kill, restart on the same port, pause/resume, raw RESP commands).</li>
 *   <li>{@link io.distlock.test.RedisExtension} provides servers to JUnit 5 test classes and repairs servers a
 *       test left stopped or paused.</li>
 *   <li>{@link io.distlock.test.RedisMode} and {@link io.distlock.test.RedisBinary} decide where Redis comes
 *       from: Testcontainers when Docker is reachable, else local {@code redis-server} processes.</li>
 *   <li>{@link io.distlock.test.JavaProcess} runs a main class in a child JVM, e.g. a lock holder to SIGKILL.</li>
 * </ul>
 *
 * <p>Local processes never outlive the JVM that started them: a shutdown hook kills them, and a small shell
 * guardian SIGKILLs them within about a second if that JVM itself is SIGKILLed.
 */
package io.distlock.test;
