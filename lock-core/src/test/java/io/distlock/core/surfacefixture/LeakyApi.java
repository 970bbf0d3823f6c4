package io.distlock.core.surfacefixture;

import io.distlock.core.internal.engine.Hold;
import io.distlock.core.internal.engine.LockKeys;
import io.distlock.core.internal.engine.ReleaseReply;

import java.util.ArrayList;
import java.util.List;

/**
 * An API type that shows internal types in each way {@code ApiSurface} looks for, for its own
 * test; and a package-private method that shows one without leaking it.
 *
 * @param <T> bounded by an internal type
 */
public class LeakyApi<T extends Hold> extends ArrayList<LockKeys> {

    private static final long serialVersionUID = 1L;

    /** @return names an internal type in a type argument */
    public List<ReleaseReply> replies() {
        return List.of();
    }

    List<Hold> notVisible() {
        return List.of();
    }
}
