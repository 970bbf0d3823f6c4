package io.distlock.spring

import io.distlock.spring.aop.DistributedLockAdvisor
import io.distlock.spring.autoconfigure.DistLockAutoConfiguration
import io.distlock.test.Polling.awaitTrue
import io.distlock.test.RedisExtension
import io.distlock.core.LockClient
import io.distlock.core.LockLostException
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.delay
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import org.junit.jupiter.api.extension.RegisterExtension
import org.springframework.boot.autoconfigure.AutoConfigurations
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration
import org.springframework.boot.test.context.runner.ApplicationContextRunner
import java.time.Duration

/** A Kotlin suspend function holds its lock until it returns, across every suspension. */
@Timeout(60)
class SuspendFunctionTest {

    companion object {
        @JvmField
        @RegisterExtension
        val redis: RedisExtension = RedisExtension.single()

        private val PATIENCE: Duration = Duration.ofSeconds(10)

        private fun locked(name: String) = redis.server().commandString("EXISTS", "distlock:{$name}") == "1"
    }

    /** Says when its body runs, then suspends until the test lets it finish. */
    open class Shipments {
        @DistributedLock(key = "#id", waitTime = "100ms")
        open suspend fun ship(id: String, started: CompletableDeferred<Unit>, done: CompletableDeferred<String>): String {
            started.complete(Unit)
            return done.await()
        }

        /** Suspends for a minute unless stopped; says whether its coroutine was cancelled. */
        @DistributedLock(key = "#id", onLost = OnLost.CANCEL)
        open suspend fun track(id: String, started: CompletableDeferred<Unit>, cancelled: CompletableDeferred<Boolean>): String {
            started.complete(Unit)
            try {
                delay(60_000)
                return "tracked"
            } catch (e: CancellationException) {
                cancelled.complete(true)
                throw e
            }
        }
    }

    private val runner = ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration::class.java, DistLockAutoConfiguration::class.java))
        .withBean(Shipments::class.java)
        .withPropertyValues("distlock.redis.url=" + redis.server().uri())

    @Test
    fun theLockIsHeldWhileTheFunctionIsSuspended() {
        runner.run { context ->
            val shipments = context.getBean(Shipments::class.java)
            val started = CompletableDeferred<Unit>()
            val done = CompletableDeferred<String>()
            runBlocking {
                val shipping = async(Dispatchers.Default) { shipments.ship("s1", started, done) }
                withTimeout(PATIENCE.toMillis()) { started.await() }
                assertThat(locked("Shipments.ship:s1")).`as`("held while the body is suspended").isTrue()

                done.complete("shipped")

                assertThat(withTimeout(PATIENCE.toMillis()) { shipping.await() }).isEqualTo("shipped")
            }
            awaitTrue("released once it returned", PATIENCE) { !locked("Shipments.ship:s1") }
        }
    }

    @Test
    fun aLostLeaseCancelsTheCoroutineAndTheCallEndsWithTheLoss() {
        runner.withPropertyValues("distlock.watchdog.timeout=1s").run { context ->
            val shipments = context.getBean(Shipments::class.java)
            val started = CompletableDeferred<Unit>()
            val cancelled = CompletableDeferred<Boolean>()
            runBlocking {
                val tracking = async(Dispatchers.Default) {
                    runCatching { shipments.track("t1", started, cancelled) }
                }
                withTimeout(PATIENCE.toMillis()) { started.await() }
                LockClient.builder().redisUri(redis.server().uri()).build().use { other ->
                    assertThat(other.getLock("Shipments.track:t1").forceUnlock()).isTrue()
                }

                val ended = withTimeout(PATIENCE.toMillis()) { tracking.await() }
                assertThat(ended.exceptionOrNull()).isInstanceOf(LockLostException::class.java)
                assertThat(withTimeout(PATIENCE.toMillis()) { cancelled.await() }).`as`("the coroutine was cancelled").isTrue()
            }
        }
    }

    @Test
    fun kotlinsSyntheticBodyOfTheFunctionIsNotAdvised() {
        // Kotlin copies the annotation onto the static ship$suspendImpl, which has no parameter
        // names; whether Spring met it before ship() when proxying depended on reflection's order.
        val body = Shipments::class.java.declaredMethods.single { it.name == "ship\$suspendImpl" }
        runner.run { context ->
            val matcher = context.getBean(DistributedLockAdvisor::class.java).pointcut.methodMatcher
            assertThat(matcher.matches(body, Shipments::class.java)).isFalse()
        }
    }
}
