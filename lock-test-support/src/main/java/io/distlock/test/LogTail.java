package io.distlock.test;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** Reads the end of a server log for error messages. */
final class LogTail {

    private static final int MAX_BYTES = 8192;
    private static final int MAX_LINES = 30;

    private LogTail() {
    }

    static long size(Path log) {
        try {
            return Files.exists(log) ? Files.size(log) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    /** The last lines written to {@code log} after byte offset {@code from}. */
    static String since(Path log, long from) {
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
            long start = Math.max(from, file.length() - MAX_BYTES);
            byte[] data = new byte[(int) Math.max(0, file.length() - start)];
            file.seek(start);
            file.readFully(data);
            List<String> lines = Arrays.asList(new String(data, StandardCharsets.UTF_8).split("\\R"));
            List<String> tail = lines.subList(Math.max(0, lines.size() - MAX_LINES), lines.size());
            return String.join("\n", tail);
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }
}
