package io.distlock.faults;

import java.util.LinkedHashMap;
import java.util.Map;

/** Reads the {@code KIND key=value key=value ...} lines the suite's child JVMs print. */
final class ChildReport {

    private ChildReport() {
    }

    /**
     * @param line e.g. {@code RESULT cycles=1200 overlaps=0}
     * @return the numeric values by key
     * @throws IllegalArgumentException if a value is not a whole number
     */
    static Map<String, Long> parse(String line) {
        Map<String, String> text = parseText(line);
        Map<String, Long> values = new LinkedHashMap<>();
        text.forEach((key, value) -> {
            try {
                values.put(key, Long.parseLong(value));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + key + "' is not a number in child output: " + line, e);
            }
        });
        return values;
    }

    /**
     * @param line e.g. {@code REPORT unlock=LockLostException lateWrite=false}
     * @return the values by key, as text
     */
    static Map<String, String> parseText(String line) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String part : line.trim().split("\\s+")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                values.put(part.substring(0, eq), part.substring(eq + 1));
            }
        }
        return values;
    }
}
