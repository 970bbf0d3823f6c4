package io.distlock.faults.checker;

/**
 * An overlap the oracle excused, with the excuse that allowed it.
 *
 * @param finding what was seen
 * @param excuse  why it is no defect; {@link Excuse#allowed()} holds
 */
public record Excused(Finding finding, Excuse excuse) {
}
