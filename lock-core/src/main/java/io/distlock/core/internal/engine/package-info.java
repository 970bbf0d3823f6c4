/**
 * The lock itself: {@link io.distlock.core.internal.engine.ScriptedLock} implements the {@code Lock}
 * contract once for every kind of lock, whose Redis side is a
 * {@link io.distlock.core.internal.engine.LockProtocol}. One client's locks share, each given what
 * it uses by {@link io.distlock.core.internal.engine.LockEngine}, which wires them:
 * <ul>
 *   <li>{@link io.distlock.core.internal.engine.Acquisitions} starts acquisitions and sees each
 *       through for its caller; {@link io.distlock.core.internal.engine.Acquisition} is the
 *       asynchronous acquire-or-wait state machine of one, waiting on a lock channel
 *       ({@link io.distlock.core.internal.engine.LockWaits});</li>
 *   <li>{@link io.distlock.core.internal.engine.Releases} releases holds, retry-safe, and hands a
 *       lock to a local waiter;</li>
 *   <li>{@link io.distlock.core.internal.engine.HoldRegistry} remembers the holds and has the
 *       watchdog renew them; {@link io.distlock.core.internal.engine.HoldUndos} takes back those
 *       nobody will use;</li>
 *   <li>{@link io.distlock.core.internal.engine.RedisCalls} bounds each Redis call and hands its
 *       answer to the caller's threads.</li>
 * </ul>
 *
 * <h2>Glossary</h2>
 * <dl>
 *   <dt>hold</dt><dd>one holder's possession of one lock, with all its re-entries
 *       ({@link io.distlock.core.internal.engine.Hold}); in Redis, the holder's count in the lock
 *       hash.</dd>
 *   <dt>holder id</dt><dd>who holds: {@code clientId:threadId}, or an id given to the
 *       {@code *Async} methods.</dd>
 *   <dt>hold id</dt><dd>the id of one acquisition (so one count of a hold), named by everything
 *       done for it in Redis; see below.</dd>
 *   <dt>undo</dt><dd>taking back, by its hold id, an acquisition whose caller no longer wants it or
 *       whose outcome is unknown.</dd>
 *   <dt>claim</dt><dd>a releasing holder reserving a sleeping waiter of this client, to hand it the
 *       lock in the release's own script (a hand-off), not through Redis's wake-up.</dd>
 *   <dt>yield, keep</dt><dd>two ways a release may leave the lock taken by nobody for a while: for
 *       waiters of other clients, or for a job's minimum hold time (see the invariants).</dd>
 *   <dt>turn, slot</dt><dd>a fair lock's: the queue's head is given its turn when the lock is
 *       released or the head changes; the turn lasts until the lock can be free plus one slot
 *       ({@code LockClient.Builder.fairSlotTimeout}); a head whose process is gone is dropped when
 *       its deadline passes, and the next waiter gets the turn (see {@code fair.lua}).</dd>
 * </dl>
 *
 * <h2>Invariants</h2>
 * The network delivers at least once: Lettuce sends a command again after a reconnect when its
 * answer was lost, the engine sends an unconfirmed release again, and a command may run long after
 * its caller gave up on it. Everything below holds under those re-runs.
 * <ul>
 *   <li><b>Holder id</b>: who holds ({@code clientId:threadId}, or an explicit id given to the
 *       {@code *Async} methods). A holder's holds of one lock are counted together in Redis.</li>
 *   <li><b>Hold id</b>: the id of one acquisition, unique among all ids of all clients
 *       ({@link io.distlock.core.internal.engine.HoldIds}). Every attempt of that acquisition, its hand-off, its
 *       release and its undo name it. Redis keeps a marker of it while the hold lasts (the lock
 *       hash's {@code #<hold id>} field), so an attempt run twice counts once, and a release takes
 *       back exactly that hold, never another hold of the same holder. A fair lock's queue place
 *       is named by the hold id too: two overlapping acquisitions of one holder wait in two
 *       places.</li>
 *   <li><b>Exactly-once answers.</b> A release keeps its answer, whatever it found, under its
 *       hold id in its lock's answer book ({@link io.distlock.core.internal.engine.LockKeys#answerBook}) for
 *       at least {@link io.distlock.core.internal.engine.LockProtocol#answerKeptMillis()}, or until this
 *       client has read an answer of it and acknowledged it with a later release of the lock
 *       ({@link io.distlock.core.internal.engine.ReleaseAnswers}, {@code release_answer.lua}); a
 *       force-unlock under a key of its call. Run again, each
 *       answers as its first run did and changes nothing. The release scripts answer
 *       distinguishably ({@link io.distlock.core.internal.engine.ReleaseReply}): released now, released
 *       before (by an earlier run of the same release, or by a hand-off of the hold), that hold is
 *       not there (nothing changed), the holder holds nothing now, or held nothing when an earlier
 *       run looked. A hand-off answers handed over now, handed over before (only while the
 *       receiver still has that hold), released before, refused, or not held. "Nothing held" is a
 *       lost lease, except on the engine's own resend of a release none of whose earlier sends ran:
 *       the hold may have ended after the caller released it, and is taken as released. Nothing is
 *       guessed from connection drops.</li>
 *   <li><b>Order.</b> What must run before the holder's next command on a connection (an undo, a
 *       release sent again, a watchdog renewal) is sent with {@code EVAL}, which never answers
 *       {@code NOSCRIPT}, so it is never sent again behind what followed it.</li>
 *   <li><b>One decision per release.</b> Whether a release's answer came in time is decided by a
 *       deadline on each of its Redis calls, and the holder's books follow that decision; a caller
 *       waiting for the release has no deadline of its own. A caller told "no answer" by its own
 *       clock while the release was still in flight (a JVM frozen past the deadline wakes with the
 *       caller's deadline passed, before the answer that came meanwhile is read) would retry a
 *       hold already taken out for that release, and be refused as not held.</li>
 *   <li><b>Undo</b> ({@link io.distlock.core.internal.engine.HoldUndos}): an attempt whose outcome is
 *       unknown (its answer failed), that acquired after its caller gave up, or a hand-off whose
 *       receiver gave up, is taken back by its hold id until Redis answers; taking back a hold that
 *       is not there changes nothing.</li>
 *   <li><b>Who may forget a hold</b> (this client's registry, never Redis): a release Redis
 *       confirmed; an undo; the registry's sweep, for holds found lost a watchdog timeout ago, for
 *       explicit leases that ran out a watchdog timeout ago and were never unlocked, and for last
 *       holds whose release was never confirmed; and a new acquisition by the same thread after
 *       its explicit lease ran out (the hold ended with its lease; the acquisition is a new one).
 *       A lost watchdog hold is not forgotten by a re-entry: that re-entry reports the loss; nor
 *       is an explicit holder's (its acquisitions may overlap). A hold forgotten by a new
 *       acquisition keeps, apart from the registry, the {@code unlock()} calls its holder still
 *       owes it (the thread may have been inside it: {@code lock(5, SECONDS)}, longer work, a
 *       nested {@code lock()}): once the holds taken since are released, each is answered as an
 *       {@code unlock()} after the lease ran out is, with {@code LockLostException} and the loss
 *       reported once; only the sweep forgets them, one watchdog timeout after the lease ended
 *       (reported released then if no {@code unlock()} came: a self-expiring lock). Whatever
 *       forgets a hold, each hold is reported ended once, released or lost, and an
 *       {@code unlock()} the holder owes is never refused as not held while it is remembered.</li>
 *   <li><b>Yield</b>: after {@code MAX_HAND_OFFS_IN_A_ROW} local hand-offs a release keeps the lock
 *       briefly for waiters of other clients, only when one of them asked for it (the hash's
 *       {@code #wanted}) and listens. <b>Keep</b>: a release that leaves the lock taken by nobody
 *       for a job's minimum hold time, waking waiters to sleep until it ends.</li>
 * </ul>
 */
@NullMarked
package io.distlock.core.internal.engine;

import org.jspecify.annotations.NullMarked;
