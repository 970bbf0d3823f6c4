package io.distlock.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs a loop body on a number of threads for a fixed time and counts the completed steps. All
 * threads start together on one signal; each stops at the first step boundary past the deadline
 * (or at the first failure of any thread), and the elapsed time runs until the last one stopped, so
 * steps finishing after the deadline are counted against the time they took. Threads are joined
 * with a bound: a thread stuck in a step is reported as a failure, never waited for forever.
 */
final class TimedLoad {

    /** How long past the deadline a step may still run before the load counts as hung. */
    static final Duration STOP_GRACE = Duration.ofSeconds(20);

    private static final Duration START_TIMEOUT = Duration.ofSeconds(10);

    /** One iteration of a worker thread's loop. */
    @FunctionalInterface
    interface Step {
        /**
         * @param latencies where the step records latencies it measures, if any
         * @throws Exception any failure; it ends the whole load
         */
        void perform(LatencyBuffer latencies) throws Exception;
    }

    /** Creates the loop body of each worker thread. */
    @FunctionalInterface
    interface StepFactory {
        /**
         * @param worker index of the worker thread, from 0
         * @return its loop body
         */
        Step forWorker(int worker);
    }

    private TimedLoad() {
    }

    /**
     * @param label    names the threads and error messages
     * @param threads  number of worker threads, at least 1
     * @param duration how long the threads loop
     * @param steps    the loop body of each thread
     * @return what the threads achieved together
     * @throws InterruptedException  if the calling thread is interrupted
     * @throws IllegalStateException if a step failed or a thread did not stop in time
     */
    static Measurement run(String label, int threads, Duration duration, StepFactory steps)
            throws InterruptedException {
        Run run = new Run(threads);
        List<Worker> workers = new ArrayList<>(threads);
        List<Thread> started = new ArrayList<>(threads);
        boolean released = false;
        try {
            for (int i = 0; i < threads; i++) {
                Worker worker = new Worker(run, steps.forWorker(i));
                Thread thread = new Thread(worker, "bench-" + label + "-" + i);
                thread.setDaemon(true);
                workers.add(worker);
                started.add(thread);
                thread.start();
            }
            if (!run.ready.await(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException(label + ": worker threads did not start within " + START_TIMEOUT);
            }
            run.startNanos = System.nanoTime();
            run.deadlineNanos = run.startNanos + duration.toNanos();
            released = true;
        } finally {
            // On failure, the threads already started are released into a stopped load and end at once.
            run.failed = !released;
            run.go.countDown();
        }
        joinBounded(label, started, run.deadlineNanos + STOP_GRACE.toNanos());
        return collect(label, run, workers);
    }

    private static void joinBounded(String label, List<Thread> threads, long limitNanos)
            throws InterruptedException {
        int stuck = 0;
        for (Thread thread : threads) {
            long leftMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(limitNanos - System.nanoTime()));
            thread.join(leftMillis);
            if (thread.isAlive()) {
                thread.interrupt();
                stuck++;
            }
        }
        if (stuck > 0) {
            throw new IllegalStateException(label + ": " + stuck + " worker thread(s) still inside a step "
                    + STOP_GRACE.toSeconds() + " s after the deadline; interrupted and abandoned");
        }
    }

    private static Measurement collect(String label, Run run, List<Worker> workers) {
        long operations = 0;
        long endNanos = run.startNanos;
        int samples = 0;
        Throwable failure = null;
        for (Worker worker : workers) {
            operations += worker.operations;
            endNanos = Math.max(endNanos, worker.endNanos);
            samples += worker.latencies.size();
            if (failure == null) {
                failure = worker.failure;
            }
        }
        if (failure != null) {
            throw new IllegalStateException(label + ": a worker thread failed: " + failure, failure);
        }
        long[] merged = new long[samples];
        int offset = 0;
        for (Worker worker : workers) {
            worker.latencies.copyTo(merged, offset);
            offset += worker.latencies.size();
        }
        Optional<Latency> latency = samples == 0 ? Optional.empty() : Optional.of(Latency.of(merged));
        return new Measurement(operations, endNanos - run.startNanos, latency);
    }

    /** State shared by the threads of one load; the latches order the writes before the reads. */
    private static final class Run {
        final CountDownLatch ready;
        final CountDownLatch go = new CountDownLatch(1);
        volatile boolean failed;
        long startNanos;
        long deadlineNanos;

        Run(int threads) {
            this.ready = new CountDownLatch(threads);
        }
    }

    /** One worker thread's loop and results; the results are read after the thread ended. */
    private static final class Worker implements Runnable {
        private final Run run;
        private final Step step;
        final LatencyBuffer latencies = new LatencyBuffer();
        long operations;
        long endNanos;
        Throwable failure;

        Worker(Run run, Step step) {
            this.run = run;
            this.step = step;
        }

        @Override
        public void run() {
            try {
                run.ready.countDown();
                run.go.await();
                long deadline = run.deadlineNanos;
                while (!run.failed && System.nanoTime() - deadline < 0) {
                    step.perform(latencies);
                    operations++;
                }
            } catch (Throwable e) {
                failure = e;
                run.failed = true;
            } finally {
                endNanos = System.nanoTime();
            }
        }
    }
}
