package io.distlock.spring.autoconfigure;

/**
 * A {@code distlock.*} (or {@code spring.data.redis.*}) setting that cannot work. Thrown at
 * startup; {@link InvalidLockPropertyFailureAnalyzer} turns it into Spring Boot's
 * "APPLICATION FAILED TO START" report naming the property and the fix.
 */
public class InvalidLockPropertyException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String property;
    private final String action;

    /**
     * @param property the full property name, e.g. {@code distlock.key-prefix}
     * @param problem  what is wrong with its value
     * @param action   how to fix it
     */
    public InvalidLockPropertyException(String property, String problem, String action) {
        super("Invalid " + property + ": " + problem + ". " + action);
        this.property = property;
        this.action = action;
    }

    /** @return the full property name */
    public String getProperty() {
        return property;
    }

    /** @return how to fix it */
    public String getAction() {
        return action;
    }
}
