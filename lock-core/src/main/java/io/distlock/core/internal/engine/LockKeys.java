package io.distlock.core.internal.engine;

/**
 * Redis names of one lock. Every key and channel of a lock starts with
 * {@code <prefix>{<name>}}, so they share one hash tag, land in one cluster slot, and a script
 * may touch all of them: lock hash {@code distlock:{order:42}}, channel
 * {@code distlock:{order:42}:ch}, and further keys as {@link #derived(String)} of the hash.
 *
 * @param lockKey the lock's hash key
 * @param channel the channel its waiters are woken on
 */
public record LockKeys(String lockKey, String channel) {

    /**
     * @param prefix key prefix of the client (no braces, checked by the client builder)
     * @param name   lock name (not blank)
     * @return the lock's keys
     */
    public static LockKeys of(String prefix, String name) {
        String lockKey = prefix + "{" + name + "}";
        return new LockKeys(lockKey, lockKey + ":ch");
    }

    /**
     * @param prefix key prefix of the client (no braces, checked by the client builder)
     * @param name   semaphore name (not blank)
     * @return the semaphore's keys: hash {@code <prefix>{<name>}:sem}, channel
     *         {@code <prefix>{<name>}:sem:ch}, in the slot of the lock of that name but apart from it
     */
    public static LockKeys semaphore(String prefix, String name) {
        String hashKey = prefix + "{" + name + "}:sem";
        return new LockKeys(hashKey, hashKey + ":ch");
    }

    /**
     * @param suffix what the key is for, e.g. {@code "queue"}
     * @return {@code <lockKey>:<suffix>}, in the lock's slot
     */
    public String derived(String suffix) {
        return lockKey + ":" + suffix;
    }

    /**
     * @param callId a force-unlock call's unique id
     * @return the key that keeps that call's answer, so that running it again changes nothing
     *         (see {@code force_unlock.lua})
     */
    public String forceUnlockAnswer(String callId) {
        return derived("forced:" + callId);
    }

    /**
     * @return the lock's answer book: the hash in which each release of the lock keeps its answer
     *         for a while, under its hold id, so that the same release run again answers "released
     *         before" (see {@code release_answer.lua})
     */
    public String answerBook() {
        return derived("released");
    }

    /** @return the lock's previous answer book, where answers not acknowledged age out (see {@link #answerBook}) */
    public String previousAnswerBook() {
        return derived("released:before");
    }
}
