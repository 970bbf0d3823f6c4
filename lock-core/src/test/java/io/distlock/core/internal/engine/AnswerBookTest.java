package io.distlock.core.internal.engine;

import io.distlock.core.LockClient;
import io.distlock.core.RedisLock;
import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where releases keep their answers ({@code release_answer.lua}): one answer book per lock, from
 * which the answers this client has read are deleted by its next release of the lock, and in
 * which answers nobody acknowledges age out, never before the time they are promised for.
 */
@Timeout(60)
class AnswerBookTest {

    private static final long LEASE = 30_000;
    private static final int BOOK_SIZE = 64;  // release_answer.lua

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();
    @RegisterExtension
    final ScriptConnection connection = new ScriptConnection(redis);

    private final LockKeys keys = LockKeys.of("distlock:", "answered");
    /** This client's reads are never acknowledged: every answer stays in Redis. */
    private ReentrantProtocol unacknowledged;

    @BeforeEach
    void connect() {
        unacknowledged = connection.reentrant("book-test", new ReleaseAnswers(60_000));
    }

    /** The common case: each release deletes the answer of the one before, which the client read. */
    @Test
    void aLockReleasedOverAndOverKeepsTheLatestAnswerOnly() {
        try (LockClient client = LockClient.builder().redisUri(redis.server().uri()).build()) {
            RedisLock lock = client.getLock("answered");
            for (int i = 0; i < 200; i++) {
                lock.lock();
                lock.unlock();
            }
        }
        assertThat(redis.server().commandString("HLEN", keys.answerBook())).isEqualTo("1");
        assertThat(redis.server().commandString("EXISTS", keys.previousAnswerBook())).isEqualTo("0");
        assertThat(redis.server().commandString("DBSIZE")).as("the book alone").isEqualTo("1");
    }

    /** Acknowledging the others' answers leaves the answer of a release whose answer was not read. */
    @Test
    void aReleaseSentAgainAfterOthersWereAcknowledgedStillAnswersReleasedBefore() throws Exception {
        ReleaseAnswers answers = new ReleaseAnswers(60_000);
        ReentrantProtocol protocol = connection.reentrant("book-test", answers);
        acquire(protocol, "h", "unread");
        assertThat(release(protocol, "unread")).isEqualTo(ReleaseReply.Outcome.RELEASED);  // its answer "lost"
        for (int i = 0; i < 3; i++) {
            acquire(protocol, "h", "read" + i);
            assertThat(release(protocol, "read" + i)).isEqualTo(ReleaseReply.Outcome.RELEASED);
            answers.read(keys, "read" + i);
        }

        assertThat(release(protocol, "unread")).isEqualTo(ReleaseReply.Outcome.RELEASED_BEFORE);
        assertThat(redis.server().commandString("HEXISTS", keys.answerBook(), "read0")).as("acknowledged")
                .isEqualTo("0");
    }

    /**
     * Clients keep answers for different times (their command timeouts differ): a client that keeps
     * them briefly must not shorten the book that holds another client's answer.
     */
    @Test
    void aClientThatKeepsAnswersBrieflyLeavesTheOthersTheirTime() throws Exception {
        acquire(unacknowledged, "h", "kept-long");
        assertThat(release(unacknowledged, "kept-long")).isEqualTo(ReleaseReply.Outcome.RELEASED);
        ReentrantProtocol brief = connection.reentrant("brief", new ReleaseAnswers(500));
        assertThat(brief.tryAcquire(keys, "b", LEASE, "kept-briefly", false).get(5, TimeUnit.SECONDS).acquired())
                .isTrue();
        assertThat(brief.release(keys, "b", "kept-briefly").get(5, TimeUnit.SECONDS).outcome())
                .isEqualTo(ReleaseReply.Outcome.RELEASED);

        assertThat(Long.parseLong(redis.server().commandString("PTTL", keys.answerBook())))
                .as("the book keeps the longer time").isGreaterThan(50_000L);
    }

    /**
     * Answers nobody acknowledges: a full book becomes the previous book, where they are still
     * found; a second full book waits for the previous one to expire rather than replace it.
     */
    @Test
    void unacknowledgedAnswersAgeOutOnlyWithTheirBook() throws Exception {
        int releases = 3 * BOOK_SIZE;
        for (int i = 0; i < releases; i++) {
            acquire(unacknowledged, "h", "hold" + i);
            assertThat(release(unacknowledged, "hold" + i)).isEqualTo(ReleaseReply.Outcome.RELEASED);
        }

        assertThat(redis.server().commandString("HLEN", keys.previousAnswerBook()))
                .isEqualTo(Integer.toString(BOOK_SIZE + 1));
        assertThat(redis.server().commandString("HLEN", keys.answerBook()))
                .isEqualTo(Integer.toString(releases - BOOK_SIZE - 1));
        for (int i = 0; i < releases; i++) {
            assertThat(release(unacknowledged, "hold" + i)).as("hold" + i)
                    .isEqualTo(ReleaseReply.Outcome.RELEASED_BEFORE);
        }
        long previousTtl = Long.parseLong(redis.server().commandString("PTTL", keys.previousAnswerBook()));
        assertThat(previousTtl).as("the previous book lives its time (and up to a quarter more) after its last write")
                .isBetween(50_000L, 75_000L);
    }

    private void acquire(ReentrantProtocol protocol, String holderId, String holdId) throws Exception {
        assertThat(protocol.tryAcquire(keys, holderId, LEASE, holdId, false).get(5, TimeUnit.SECONDS).acquired())
                .isTrue();
    }

    private ReleaseReply.Outcome release(ReentrantProtocol protocol, String holdId) throws Exception {
        return protocol.release(keys, "h", holdId).get(5, TimeUnit.SECONDS).outcome();
    }
}
