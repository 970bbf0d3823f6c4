package io.distlock.faults.checker;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Appends a worker's {@link OpRecord}s to its history file, one line each, from any thread. */
final class HistoryWriter implements AutoCloseable {

    private final BufferedWriter out;
    private long written;

    /** @param file the history file, created or truncated */
    HistoryWriter(Path file) {
        try {
            this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot open the history file " + file, e);
        }
    }

    /** @param record a finished (or, at the end, unfinished) operation */
    synchronized void append(OpRecord record) {
        try {
            out.write(record.toLine());
            out.newLine();
            written++;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the history", e);
        }
    }

    /** @return how many records were written */
    synchronized long written() {
        return written;
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot close the history", e);
        }
    }
}
