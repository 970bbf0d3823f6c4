package io.distlock.benchmarks;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.OptionalLong;

/** What this JVM uses: CPU time of the whole process, JIT compilation time, used heap after a full GC. */
final class JvmUsage {

    private JvmUsage() {
    }

    /**
     * @return CPU time of the JVM process so far, all threads (also GC and JIT), in nanoseconds
     * @throws IllegalStateException on a JVM without {@code com.sun.management} (HotSpot and OpenJ9 have it)
     */
    static long processCpuNanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (!(os instanceof com.sun.management.OperatingSystemMXBean hotspot)) {
            throw new IllegalStateException("the watchdog scenario measures process CPU time through "
                    + "com.sun.management.OperatingSystemMXBean, which this JVM (" + System.getProperty("java.vm.name")
                    + ") does not provide; run it on a HotSpot-based JDK");
        }
        return hotspot.getProcessCpuTime();
    }

    /**
     * @return time the JIT compilers spent so far, in milliseconds (part of the process CPU time: a
     *         client measured in a cold JVM pays more of it), or empty if the JVM does not say
     */
    static OptionalLong jitMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported()
                ? OptionalLong.of(jit.getTotalCompilationTime()) : OptionalLong.empty();
    }

    /**
     * Asks for full collections (twice, so objects freed by finalization-like cleanups of the first
     * go too) and reads the used heap: approximate, as any GC-based measurement.
     *
     * @return bytes of heap in use after the collections
     */
    static long usedHeapAfterGc() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
