package io.distlock.core.internal.engine;

import io.lettuce.core.codec.StringCodec;
import io.netty.buffer.ByteBufUtil;

import java.nio.charset.StandardCharsets;

/**
 * Lettuce's UTF-8 string codec, telling Lettuce the exact encoded size of every key and argument.
 *
 * <p>With {@link StringCodec#UTF8} Lettuce only estimates a string's size, so it encodes each key
 * and argument into a temporary buffer of its own first, then copies it into the command: one
 * pooled buffer taken and given back per argument, for every lock script and twice per renewed
 * hold (its key and hold id). With an exact size it writes the length and then the string straight
 * into the command. The size is the one {@link ByteBufUtil#writeUtf8} writes, which is what this
 * codec encodes with, malformed text included (an unpaired surrogate is written as {@code '?'}, and
 * a high surrogate's next character then as one byte; the size counts the same).
 */
final class ExactUtf8Codec extends StringCodec {

    /** The one instance: it has no state. */
    static final ExactUtf8Codec INSTANCE = new ExactUtf8Codec();

    private ExactUtf8Codec() {
        super(StandardCharsets.UTF_8);
    }

    @Override
    public boolean isEstimateExact() {
        return true;
    }

    @Override
    public int estimateSize(Object keyOrValue) {
        return keyOrValue == null ? 0 : ByteBufUtil.utf8Bytes((CharSequence) keyOrValue);
    }
}
