package io.distlock.spring.aop;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.distlock.core.LockLostException;
import org.jspecify.annotations.Nullable;

import java.util.ArrayDeque;

/**
 * Interrupts the thread running a {@link io.distlock.spring.DistributedLock} method when the
 * call's lease is lost ({@link io.distlock.spring.OnLost#CANCEL}), only while the method runs: once
 * {@link #end()} returned, no interrupt can come, so a pooled thread that has moved on to other
 * work is never interrupted for this call. Nested calls on one thread each arm their own; the
 * thread keeps them innermost last, so that an inner call that clears its own interrupt can tell
 * whether an enclosing call's is pending too.
 */
final class LossInterrupt {

    /** The interrupts armed on this thread, innermost last. */
    private static final ThreadLocal<ArrayDeque<LossInterrupt>> ARMED = ThreadLocal.withInitial(ArrayDeque::new);

    private final Thread runner;
    @GuardedBy("this")
    private boolean running = true;
    @GuardedBy("this")
    private @Nullable LockLostException lost;

    private LossInterrupt(Thread runner) {
        this.runner = runner;
    }

    /**
     * @param call the call about to run its method on this thread, its locks held
     * @return interrupts this thread if the call's lease is lost before {@link #end()}
     */
    static LossInterrupt arm(LockedCall call) {
        LossInterrupt interrupt = new LossInterrupt(Thread.currentThread());
        ARMED.get().addLast(interrupt);
        try {
            call.whenLost().thenAccept(interrupt::lost);
        } catch (IllegalMonitorStateException notHeld) {
            // Not held any more (lost and forgotten already): the release reports it.
        }
        return interrupt;
    }

    private synchronized void lost(LockLostException loss) {
        if (running && lost == null) {
            lost = loss;
            runner.interrupt();
        }
    }

    /**
     * The method returned or threw: no interrupt from now on. Call it on the thread that armed it.
     *
     * @return the loss that interrupted the method, or {@code null} if none did
     */
    @Nullable LockLostException end() {
        ArrayDeque<LossInterrupt> armed = ARMED.get();
        armed.removeLastOccurrence(this);
        if (armed.isEmpty()) {
            ARMED.remove();
        }
        return stop();
    }

    private synchronized @Nullable LockLostException stop() {
        running = false;
        return lost;
    }

    private synchronized boolean fired() {
        return lost != null;
    }

    /**
     * Clears the interrupt this call's loss sent, unless something else still needs one: the
     * thread was interrupted before the call, or an enclosing call on this thread lost its lease
     * too. Call it on the thread, after {@link #end()}.
     *
     * @param interruptedBefore whether the thread was interrupted when the call began
     */
    static void clearAfterLoss(boolean interruptedBefore) {
        Thread.interrupted();
        ArrayDeque<LossInterrupt> enclosing = ARMED.get();
        boolean enclosingLost = enclosing.stream().anyMatch(LossInterrupt::fired);
        if (enclosing.isEmpty()) {
            ARMED.remove();
        }
        if (interruptedBefore || enclosingLost) {
            Thread.currentThread().interrupt();
        }
    }
}
