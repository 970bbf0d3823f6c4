package io.distlock.faults.checker;

/**
 * The defects the mutation self-test plants in a copy of the engine, each a realistic mistake the
 * checker must catch: the file it breaks (a Lua script resource or a Java source of lock-core), an
 * exact snippet of it and its replacement, the kind of violation the checker must report, and the
 * load that shows it within a short run. Snippets are small and aimed at the line that expresses
 * the defect, so that edits elsewhere in the engine leave them applicable.
 */
enum PlantedDefect {

    /** unlock.lua deletes the lock for a caller that holds nothing (a late release, an undo of an attempt that got nothing). */
    RELEASE_DELETES_LOCK_NOT_HELD("io/distlock/core/internal/scripts/unlock.lua",
            "if not count then\n    return not_here(answers, nil)\nend",
            "if not count then\n    redis.call('del', KEYS[1])\n    return not_here(answers, nil)\nend",
            "OVERLAP", LoadProfile.EXCLUSIVE, false),

    /** lock.lua takes a lock over from another holder that still holds it with lease left. */
    TAKEOVER_OF_A_HELD_LOCK("io/distlock/core/internal/scripts/lock.lua",
            "    if yielder and yielder ~= ARGV[5] then",
            "    if yielder ~= ARGV[5] then",
            "OVERLAP", LoadProfile.EXCLUSIVE, false),

    /** renew.lua answers "renewed" without extending the lease. */
    RENEWAL_THAT_DOES_NOT_EXTEND("io/distlock/core/internal/scripts/renew.lua",
            "            redis.call('pexpire', KEYS[i], ARGV[1])",
            "            redis.call('pttl', KEYS[i])",
            "OVERLAP", LoadProfile.WATCHDOG, false),

    /** lock.lua reads the fence counter instead of advancing it. */
    FENCE_COUNTER_THAT_DOES_NOT_ADVANCE("io/distlock/core/internal/scripts/lock.lua",
            "    local taken = redis.call('incr', KEYS[2])",
            "    local taken = tonumber(redis.call('get', KEYS[2]) or '1')",
            "TOKEN", LoadProfile.FENCED, false),

    /** rw_lock.lua admits a writer while readers hold the lock. */
    WRITER_ADMITTED_AMONG_READERS("io/distlock/core/internal/scripts/rw_lock.lua",
            "if mode == 'read' then\n    -- Wait for the first reader's lease",
            "if mode == 'read' then\n    do return grant() end\n    -- Wait for the first reader's lease",
            "OVERLAP", LoadProfile.READ_WRITE, false),

    /** fair.lua hands a free lock to any caller, not to the head of the queue. */
    FAIR_LOCK_SERVED_OUT_OF_ORDER("io/distlock/core/internal/scripts/fair.lua",
            "    if not locked and (not head or head == caller) then",
            "    if not locked then",
            "FIFO", LoadProfile.FAIR, false),

    /**
     * MultiLock's tryLock returns true when at least one component, not all, was acquired. It shows
     * only when a later component is busy past the wait, a few times in 20 s: 40 s of load.
     */
    MULTI_LOCK_WITH_A_COMPONENT_MISSING("io/distlock/core/MultiLock.java",
            "        if (held < locks.size()) {\n            releaseFirst(held, null);",
            "        if (held == 0) {\n            releaseFirst(held, null);",
            "OVERLAP", LoadProfile.MULTI, false, 40),

    /** RedLock's quorum is half the masters (one of three), not a majority. */
    RED_LOCK_QUORUM_BELOW_A_MAJORITY("io/distlock/core/RedLock.java",
            "this.quorum = locks.size() / 2 + 1;",
            "this.quorum = locks.size() / 2;",
            "OVERLAP", LoadProfile.RED, true),

    /** A release hands the lock, inside the JVM, to a sleeping waiter of another kind (a fenced one, which gets no token). */
    HAND_OFF_TO_A_WAITER_OF_ANOTHER_KIND("io/distlock/core/internal/engine/Releases.java",
            "sleepers.claimFirst(waiter -> waiter.protocol() == hold.protocol())",
            "sleepers.claimFirst(waiter -> true)",
            "TOKEN", LoadProfile.HAND_OFF, false),

    /** sem_acquire.lua grants one permit more than the semaphore has. */
    SEMAPHORE_WITH_A_PERMIT_TOO_MANY("io/distlock/core/internal/scripts/sem_acquire.lua",
            "if tonumber(redis.call('hget', KEYS[1], '#used') or '0') >= tonumber(ARGV[5]) then",
            "if tonumber(redis.call('hget', KEYS[1], '#used') or '0') > tonumber(ARGV[5]) then",
            "PERMITS", LoadProfile.SEMAPHORE, false);

    private final String file;
    private final String snippet;
    private final String replacement;
    private final String expectedKind;
    private final LoadProfile profile;
    private final boolean faults;
    private final int loadSeconds;

    /** A defect that 20 s of load show. */
    PlantedDefect(String file, String snippet, String replacement, String expectedKind, LoadProfile profile,
                  boolean faults) {
        this(file, snippet, replacement, expectedKind, profile, faults, 20);
    }

    /**
     * @param file         path of the broken file under lock-core's resources or Java sources
     * @param snippet      text that must occur exactly once in it
     * @param replacement  what replaces the snippet
     * @param expectedKind the kind of violation the checker must report
     * @param profile      the load that shows the defect
     * @param faults       whether the run needs faults to show it
     * @param loadSeconds  how long the load runs: 20 s, more where the defect shows more rarely
     */
    PlantedDefect(String file, String snippet, String replacement, String expectedKind, LoadProfile profile,
                  boolean faults, int loadSeconds) {
        this.file = file;
        this.snippet = snippet;
        this.replacement = replacement;
        this.expectedKind = expectedKind;
        this.profile = profile;
        this.faults = faults;
        this.loadSeconds = loadSeconds;
    }

    /** @return the broken file's path, e.g. {@code io/distlock/core/internal/scripts/lock.lua} */
    String file() {
        return file;
    }

    /** @return whether the broken file is a Java source, compiled at test time */
    boolean inJava() {
        return file.endsWith(".java");
    }

    /** @return the kind of violation the checker must report */
    String expectedKind() {
        return expectedKind;
    }

    /** @return the load that shows the defect */
    LoadProfile profile() {
        return profile;
    }

    /** @return how long the load runs, in seconds */
    int loadSeconds() {
        return loadSeconds;
    }

    /** @return whether the run needs faults */
    boolean faults() {
        return faults;
    }

    /**
     * @param original the file's text in the engine
     * @return the text with the defect planted
     * @throws IllegalStateException naming this defect if the snippet is not there exactly once
     *                               (the engine changed under it: the snippet needs updating)
     */
    String plantIn(String original) {
        int at = original.indexOf(snippet);
        if (at < 0 || original.indexOf(snippet, at + 1) >= 0) {
            throw new IllegalStateException("Planted defect " + name() + ": its snippet occurs "
                    + (at < 0 ? "nowhere" : "more than once") + " in " + file + "; the engine changed, update the "
                    + "snippet in PlantedDefect. Snippet:\n" + snippet);
        }
        return original.substring(0, at) + replacement + original.substring(at + snippet.length());
    }
}
