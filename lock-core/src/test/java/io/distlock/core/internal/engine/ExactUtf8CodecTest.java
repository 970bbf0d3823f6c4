package io.distlock.core.internal.engine;

import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.CommandArgs;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The codec puts on the wire exactly what Lettuce's UTF-8 codec puts there, for every kind of
 * string a lock name, hold id or argument can be: its size claim is what lets Lettuce skip the
 * temporary buffer, and a wrong claim would corrupt the command.
 */
class ExactUtf8CodecTest {

    @ParameterizedTest
    @ValueSource(strings = {"", "order:42", "zürich", "€ 10", "日本語のロック", "emoji-\uD83D\uDE00-end",
            "unpaired-high-\uD800-end", "unpaired-low-\uDC00-end", "high-at-end-\uD800", "\uD800\uD800\uDC00",
            "x\uD800é", "\uD800€"})
    void encodesKeysAndValuesAsLettucesUtf8CodecDoes(String text) {
        assertThat(wire(ExactUtf8Codec.INSTANCE, text)).isEqualTo(wire(StringCodec.UTF8, text));
    }

    private static String wire(StringCodec codec, String text) {
        ByteBuf buffer = Unpooled.buffer();
        try {
            new CommandArgs<>(codec).addKey(text).addValue(text).encode(buffer);
            return ByteBufUtil.hexDump(buffer);
        } finally {
            buffer.release();
        }
    }
}
