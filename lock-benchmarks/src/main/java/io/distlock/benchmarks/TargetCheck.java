package io.distlock.benchmarks;

/**
 * One performance target of the issue and whether the run met it.
 *
 * @param target what is required
 * @param actual what was measured
 * @param met    whether the measurement meets the target
 */
public record TargetCheck(String target, String actual, boolean met) {

    /** @return {@code "PASS"} or {@code "MISS"} */
    public String verdict() {
        return met ? "PASS" : "MISS";
    }

    /** @return {@code "PASS"} or {@code "FAIL"}: for checks of correctness rather than speed */
    public String passOrFail() {
        return met ? "PASS" : "FAIL";
    }
}
