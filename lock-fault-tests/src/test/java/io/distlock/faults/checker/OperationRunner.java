package io.distlock.faults.checker;

import io.distlock.core.FencedLock;
import io.distlock.core.LockException;
import io.distlock.core.LockLostException;
import io.distlock.core.RedisLock;
import io.distlock.faults.checker.OpRecord.Outcome;
import io.distlock.test.Polling;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;

/**
 * One worker thread: runs its {@link Schedule} until the deadline and records what each operation
 * did. It takes the time of entry after the acquisition returned (for two overlapping async calls,
 * when the first of them completed {@code true}) and the time of exit before the last release
 * call, asks nothing of the library about whether it holds the lock, and notes whether the library
 * reported the lease lost meanwhile.
 */
final class OperationRunner implements Runnable {

    /** How long a holder whose acquisition was interrupted or cancelled may still appear to hold (clean-up in flight). */
    private static final Duration GIVE_BACK_LIMIT = Duration.ofSeconds(5);
    private static final int RELEASE_ATTEMPTS = 3;

    private record InFlight(Operation op, String holder, long callStart, long entry) {
    }

    /**
     * How a critical section ended: when the releases of all holds but one began (-1 if it had
     * one), its exit time, and how the releases went.
     */
    private record Section(long innerRelease, long exit, String release) {

        /** @return no critical section: how the clean-up after the failed acquisition went */
        static Section none(String release) {
            return new Section(-1, -1, release);
        }
    }

    private final int worker;
    private final int thread;
    private final Schedule schedule;
    private final WorkerLocks locks;
    private final LibraryReports reports;
    private final HistoryWriter history;
    private final ScheduledExecutorService timer;
    private final long deadline;
    private final String unlockedName;
    private volatile InFlight inFlight;
    private Interrupter interrupter;

    /**
     * @param settings    the run's settings
     * @param worker      this worker's index
     * @param thread      this thread's index
     * @param locks       makes the locks
     * @param reports     what the library told the worker: lost leases, waits
     * @param history     where records go
     * @param timer       runs planned interrupts and cancellations
     * @param deadline    no new operation starts after this {@link System#nanoTime()}
     */
    OperationRunner(CheckerSettings settings, int worker, int thread, WorkerLocks locks, LibraryReports reports,
                    HistoryWriter history, ScheduledExecutorService timer, long deadline) {
        this.worker = worker;
        this.thread = thread;
        this.schedule = new Schedule(settings.seed(), settings.profile(), worker, thread);
        this.locks = locks;
        this.reports = reports;
        this.history = history;
        this.timer = timer;
        this.deadline = deadline;
        this.unlockedName = settings.unlockedName();
    }

    @Override
    public void run() {
        interrupter = new Interrupter(timer, Thread.currentThread());
        while (System.nanoTime() < deadline) {
            Operation op = schedule.next();
            history.append(op.threadCall() ? onThread(op) : async(op));
            inFlight = null;
        }
    }

    /** @return the operation still running, as an {@link Outcome#UNFINISHED} record, if any */
    OpRecord unfinished() {
        InFlight current = inFlight;
        if (current == null) {
            return null;
        }
        return record(current.op(), current.holder(), current.callStart(), -1, Outcome.UNFINISHED, 0, current.entry(),
                Section.none("-"), -1, false, List.of(new LeaseCall(current.callStart(), -1)), -1);
    }

    private OpRecord onThread(Operation op) {
        RedisLock lock = locks.of(op);
        String holder = "w" + worker + ".t" + thread;
        boolean skip = skipsLock(op);
        long callStart = System.nanoTime();
        inFlight = new InFlight(op, holder, callStart, -1);
        Outcome outcome;
        String error = "-";
        interrupter.arm(op.index(), op.interruptAfterMs());
        try {
            outcome = skip || acquire(lock, op) ? Outcome.ACQUIRED : Outcome.NOT_ACQUIRED;
        } catch (InterruptedException e) {
            outcome = Outcome.INTERRUPTED;
        } catch (RuntimeException e) {
            outcome = Outcome.ERROR;
            error = e.getClass().getSimpleName();
        } finally {
            interrupter.disarm();
        }
        long callEnd = System.nanoTime();
        long threadId = Thread.currentThread().getId();
        long queued = reports.firstWaiting(op.names(), id -> id.endsWith(":" + threadId), callStart, callEnd);
        if (outcome != Outcome.ACQUIRED) {
            String release = error;
            if (outcome == Outcome.INTERRUPTED && stillHeld(lock::isHeldByCurrentThread)) {
                release = "HELD_AFTER_INTERRUPT";
                releaseOnThread(lock, op, 1);
            }
            return record(op, holder, callStart, callEnd, outcome, 0, -1, Section.none(release), -1, false,
                    List.of(new LeaseCall(callStart, callEnd)), queued);
        }
        long entry = callEnd;
        inFlight = new InFlight(op, holder, callStart, entry);
        int depth = 1;
        List<LeaseCall> leaseCalls = new ArrayList<>(List.of(new LeaseCall(callStart, callEnd)));
        while (!skip && depth < op.depth()) {
            long reentryStart = System.nanoTime();
            if (!reenter(lock, op)) {
                break;
            }
            depth++;
            leaseCalls.add(new LeaseCall(reentryStart, System.nanoTime()));
        }
        long token = skip || op.kind() != LockKind.FENCED ? -1 : token(() -> ((FencedLock) lock).getToken());
        Section section = criticalSection(op, depth, times -> skip ? "OK" : releaseOnThread(lock, op, times));
        boolean lost = "LOST".equals(section.release()) || reports.lostReported(op.names(),
                id -> id.endsWith(":" + threadId), callStart, System.nanoTime());
        return record(op, holder, callStart, callEnd, outcome, depth, entry, section, token, lost, leaseCalls, queued);
    }

    private OpRecord async(Operation op) {
        RedisLock lock = locks.of(op);
        String holder = "w" + worker + ".t" + thread + ".a" + op.index();
        long callStart = System.nanoTime();
        inFlight = new InFlight(op, holder, callStart, -1);
        List<CompletableFuture<Boolean>> calls = new ArrayList<>();
        List<Long> starts = new ArrayList<>();
        AtomicLongArray grantedAt = new AtomicLongArray(2);
        Outcome failure = null;
        String error = "-";
        try {
            for (int i = 0; i < (op.call() == Operation.Call.ASYNC_PAIR ? 2 : 1); i++) {
                int index = i;
                starts.add(System.nanoTime());
                CompletableFuture<Boolean> call = lock.tryLockAsync(Math.max(0, op.waitMs()), op.leaseMs(),
                        TimeUnit.MILLISECONDS, holder);
                call.thenAccept(granted -> {
                    if (granted) {
                        grantedAt.compareAndSet(index, 0, System.nanoTime());
                    }
                });
                calls.add(call);
            }
        } catch (RuntimeException e) {
            failure = Outcome.ERROR;
            error = e.getClass().getSimpleName();
        }
        if (op.cancelAfterMs() >= 0) {
            timer.schedule(() -> calls.forEach(call -> call.cancel(true)), op.cancelAfterMs(), TimeUnit.MILLISECONDS);
        }
        int acquired = 0;
        long entry = Long.MAX_VALUE;
        List<LeaseCall> leaseCalls = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            CompletableFuture<Boolean> call = calls.get(i);
            try {
                if (call.get(op.waitMs() + CheckerSettings.WAIT_SLACK_MS + 10_000, TimeUnit.MILLISECONDS)) {
                    acquired++;
                    // its own grant: stamped when its future completed, or now if that stamp is not in yet
                    grantedAt.compareAndSet(i, 0, System.nanoTime());
                    entry = Math.min(entry, grantedAt.get(i));
                    leaseCalls.add(new LeaseCall(starts.get(i), grantedAt.get(i)));
                }
            } catch (CancellationException e) {
                failure = failure == null ? Outcome.CANCELLED : failure;
            } catch (ExecutionException e) {
                failure = failure == null ? Outcome.ERROR : failure;
                error = e.getCause().getClass().getSimpleName();
            } catch (TimeoutException e) {
                failure = Outcome.NO_ANSWER;
                call.cancel(true);  // the library gives back what arrives later
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("worker thread interrupted from outside", e);
            }
        }
        long callEnd = System.nanoTime();
        long queued = reports.firstWaiting(op.names(), holder::equals, callStart, callEnd);
        if (acquired == 0) {
            Outcome outcome = failure == null ? Outcome.NOT_ACQUIRED : failure;
            String release = error;
            if (outcome == Outcome.CANCELLED && stillHeld(() -> lock.isHeldBy(holder))) {
                release = "HELD_AFTER_CANCEL";
                releaseAsync(lock, op, holder, 1);
            }
            return record(op, holder, callStart, callEnd, outcome, 0, -1, Section.none(release), -1, false,
                    List.of(new LeaseCall(callStart, callEnd)), queued);
        }
        inFlight = new InFlight(op, holder, callStart, entry);
        long token = op.kind() != LockKind.FENCED ? -1 : token(() -> ((FencedLock) lock).getToken(holder));
        Section section = criticalSection(op, acquired, times -> releaseAsync(lock, op, holder, times));
        boolean lost = "LOST".equals(section.release())
                || reports.lostReported(op.names(), holder::equals, callStart, System.nanoTime());
        return record(op, holder, callStart, callEnd, Outcome.ACQUIRED, acquired, entry, section, token, lost,
                leaseCalls, queued);
    }

    /**
     * The critical section of a holder with {@code holds} holds: half the hold time, the releases
     * of all but one hold (after which the holder still holds the lock), the other half, the exit,
     * and the last release. A release that wrongly ends the whole hold early thus shows as an
     * overlap.
     */
    private static Section criticalSection(Operation op, int holds, IntFunction<String> release) {
        pause(op.holdMs() / 2);
        long innerRelease = holds > 1 ? System.nanoTime() : -1;
        String inner = holds > 1 ? release.apply(holds - 1) : "OK";
        pause(op.holdMs() - op.holdMs() / 2);
        long exit = System.nanoTime();
        return new Section(innerRelease, exit, worse(inner, release.apply(1)));
    }

    private static boolean acquire(RedisLock lock, Operation op) throws InterruptedException {
        if (op.call() == Operation.Call.LOCK) {
            if (op.leaseMs() < 0) {
                lock.lock();
            } else {
                lock.lock(op.leaseMs(), TimeUnit.MILLISECONDS);
            }
            return true;
        }
        return op.leaseMs() < 0 ? lock.tryLock(op.waitMs(), TimeUnit.MILLISECONDS)
                : lock.tryLock(op.waitMs(), op.leaseMs(), TimeUnit.MILLISECONDS);
    }

    /** A re-entry the same way as the first acquisition; a failure (fault) just ends the re-entries. */
    private static boolean reenter(RedisLock lock, Operation op) {
        try {
            return acquire(lock, op);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("worker thread interrupted from outside", e);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Releases {@code times} holds, innermost first; a single lock's release that failed on Redis is sent again. */
    private String releaseOnThread(RedisLock lock, Operation op, int times) {
        String outcome = "OK";
        for (int i = 0; i < times; i++) {
            String release = "?";
            for (int attempt = 0; attempt < RELEASE_ATTEMPTS; attempt++) {
                try {
                    lock.unlock();
                    release = "OK";
                } catch (RuntimeException e) {
                    release = describe(e);
                }
                if (!retries(op, release)) {
                    break;
                }
            }
            outcome = worse(outcome, release);
        }
        return outcome;
    }

    private String releaseAsync(RedisLock lock, Operation op, String holder, int times) {
        String outcome = "OK";
        for (int i = 0; i < times; i++) {
            String release = "?";
            for (int attempt = 0; attempt < RELEASE_ATTEMPTS; attempt++) {
                try {
                    lock.unlockAsync(holder).get(CheckerSettings.WAIT_SLACK_MS + 10_000, TimeUnit.MILLISECONDS);
                    release = "OK";
                } catch (ExecutionException e) {
                    release = describe(e.getCause());
                } catch (TimeoutException e) {
                    release = "NO_ANSWER";
                } catch (RuntimeException e) {
                    release = describe(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("worker thread interrupted from outside", e);
                }
                if (!retries(op, release)) {
                    break;
                }
            }
            outcome = worse(outcome, release);
        }
        return outcome;
    }

    /** A single lock's release is safe to repeat; a MultiLock's or RedLock's failed release must not be. */
    private static boolean retries(Operation op, String release) {
        return "LockException".equals(release) && op.kind() != LockKind.MULTI && op.kind() != LockKind.RED;
    }

    private static String worse(String current, String next) {
        return "LOST".equals(current) || "OK".equals(next) ? current : next;
    }

    /** {@code LOST} if the library said the lease was lost (also as a suppressed or cause), else the class name. */
    private static String describe(Throwable error) {
        return mentionsLost(error) ? "LOST" : error.getClass().getSimpleName();
    }

    private static boolean mentionsLost(Throwable error) {
        if (error == null) {
            return false;
        }
        if (error instanceof LockLostException) {
            return true;
        }
        for (Throwable suppressed : error.getSuppressed()) {
            if (mentionsLost(suppressed)) {
                return true;
            }
        }
        return error.getCause() != error && mentionsLost(error.getCause());
    }

    /**
     * @return whether the holder still holds the lock after the clean-up time: a give-up that
     *         left the lock held. Unknown (Redis failing) counts as not held.
     */
    private static boolean stillHeld(BooleanSupplier held) {
        return !Polling.within(GIVE_BACK_LIMIT, () -> {
            try {
                return !held.getAsBoolean();
            } catch (LockException e) {
                return true;
            }
        });
    }

    private static long token(LongSupplier token) {
        try {
            return token.getAsLong();
        } catch (IllegalMonitorStateException e) {
            return -1; // the hold is already lost: no token to check
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("worker thread interrupted from outside", e);
        }
    }

    private boolean skipsLock(Operation op) {
        return op.kind() != LockKind.MULTI && op.kind() != LockKind.RED && op.names().get(0).equals(unlockedName);
    }

    private OpRecord record(Operation op, String holder, long callStart, long callEnd, Outcome outcome, int depth,
                            long entry, Section section, long token, boolean lost, List<LeaseCall> leaseCalls,
                            long queued) {
        return new OpRecord("w" + worker + ".t" + thread + "." + op.index(), worker, holder, op.call(), op.kind(),
                WorkerLocks.coverage(op), op.waitMs(), op.leaseMs(), callStart, callEnd, outcome, depth, entry,
                section.exit(), token, lost, section.release(), op.toString(), leaseCalls, op.client(),
                outcome == Outcome.UNFINISHED ? -1 : System.nanoTime(), queued, section.innerRelease());
    }
}
