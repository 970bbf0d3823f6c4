package io.distlock.core.internal.scripts;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * One Lua script of the engine: its source, read once from a {@code .lua} resource next to this
 * class, and the SHA-1 digest that {@code EVALSHA} addresses it by.
 */
public final class LuaScript {

    private final String name;
    private final String source;
    private final String sha1;

    private LuaScript(String name, String source) {
        this.name = name;
        this.source = source;
        this.sha1 = sha1Hex(source);
    }

    /**
     * Loads {@code <name>.lua} from this package's resources, after the libraries it uses: Lua
     * files of local functions that several scripts share, prepended to its source (a script sent
     * to Redis is one text).
     *
     * @param name      the file name without {@code .lua}
     * @param libraries file names without {@code .lua} of the libraries, in order
     * @return the script
     * @throws IllegalStateException if a resource is missing (a packaging error)
     */
    public static LuaScript load(String name, String... libraries) {
        StringBuilder source = new StringBuilder();
        for (String library : libraries) {
            source.append(read(library));
        }
        return new LuaScript(name, source.append(read(name)).toString());
    }

    private static String read(String name) {
        String resource = name + ".lua";
        try (InputStream in = LuaScript.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("Lua script resource " + resource + " is missing from the distlock jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read Lua script " + resource, e);
        }
    }

    /** @return the script's name (its file name without {@code .lua}) */
    public String name() {
        return name;
    }

    /** @return the Lua source sent with {@code EVAL} when the server does not have it cached */
    public String source() {
        return source;
    }

    /** @return lowercase hex SHA-1 of the source, as {@code EVALSHA} expects */
    public String sha1() {
        return sha1;
    }

    private static String sha1Hex(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("The JVM has no SHA-1, which every Java platform must provide", e);
        }
    }

    @Override
    public String toString() {
        return name + ".lua";
    }
}
