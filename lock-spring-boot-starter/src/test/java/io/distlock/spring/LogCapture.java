package io.distlock.spring;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Captures what one class logs through {@link System.Logger} (which goes to
 * {@code java.util.logging} in these tests), from {@link #of} until {@link #close()}.
 */
public final class LogCapture implements AutoCloseable {

    private final Logger logger;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private LogCapture(Class<?> source) {
        this.logger = Logger.getLogger(source.getName());
        logger.addHandler(handler);
    }

    /**
     * @param source the class whose logger to capture
     * @return the capture, running
     */
    public static LogCapture of(Class<?> source) {
        return new LogCapture(source);
    }

    /** @return what was logged so far, in order */
    public List<LogRecord> records() {
        return List.copyOf(records);
    }

    /** @return the messages logged so far, in order */
    public List<String> messages() {
        return records.stream().map(LogRecord::getMessage).toList();
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
    }
}
