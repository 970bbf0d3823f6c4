package io.distlock.core;

/**
 * A {@link LockClient.Builder} setting that cannot work: thrown by the builder before it connects,
 * naming the setting, what is wrong with its value, and how to fix it.
 */
public final class InvalidLockSettingException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final LockSetting setting;
    private final String problem;
    private final String action;

    /**
     * @param setting the setting
     * @param problem what is wrong with its value, e.g. {@code "'50ms' is shorter than 100ms"}
     * @param action  how to fix it, as a sentence
     */
    InvalidLockSettingException(LockSetting setting, String problem, String action) {
        super("Invalid " + setting.builderName() + ": " + problem + ". " + action);
        this.setting = setting;
        this.problem = problem;
        this.action = action;
    }

    /** @return the setting whose value cannot work */
    public LockSetting getSetting() {
        return setting;
    }

    /** @return what is wrong with its value */
    public String getProblem() {
        return problem;
    }

    /** @return how to fix it */
    public String getAction() {
        return action;
    }
}
