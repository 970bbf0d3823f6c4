package io.distlock.core.internal.engine;

/**
 * One hold in Redis: a holder and the id of one of its acquisitions.
 *
 * @param holderId the holder
 * @param holdId   the acquisition's hold id
 */
public record HoldRef(String holderId, String holdId) {
}
