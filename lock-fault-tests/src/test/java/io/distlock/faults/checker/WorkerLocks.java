package io.distlock.faults.checker;

import io.distlock.core.LockClient;
import io.distlock.core.MultiLock;
import io.distlock.core.RedLock;
import io.distlock.core.RedisLock;

import java.util.ArrayList;
import java.util.List;

/**
 * Makes the lock an {@link Operation} asks for, from one worker's clients: two of the Redis under
 * test (one direct, one through the fault proxy) and one of each RedLock master.
 */
final class WorkerLocks {

    /** {@link Operation#client()} of the client that reaches the Redis under test through the fault proxy. */
    static final int PROXIED_CLIENT = 1;

    private final List<LockClient> main;
    private final List<LockClient> masters;

    /**
     * @param main    clients of the Redis under test, by {@link Operation#client()}
     * @param masters one client per RedLock master
     */
    WorkerLocks(List<LockClient> main, List<LockClient> masters) {
        this.main = List.copyOf(main);
        this.masters = List.copyOf(masters);
    }

    /**
     * @param op the operation
     * @return a fresh lock object for it
     */
    RedisLock of(Operation op) {
        LockClient client = main.get(op.client());
        return switch (op.kind()) {
            case MULTI -> {
                List<RedisLock> components = new ArrayList<>();
                for (int i = 0; i < op.names().size(); i++) {
                    components.add(single(client, op.componentKinds().get(i), op.names().get(i)));
                }
                yield new MultiLock(components);
            }
            case RED -> new RedLock(null, masters.stream().map(master -> master.getLock(op.names().get(0))).toList());
            default -> single(client, op.kind(), op.names().get(0));
        };
    }

    /**
     * @param op the operation
     * @return what a hold of it covers, for the oracle: {@code X:name} (exclusive), {@code S:name}
     *         (shared) or {@code P:name} (a permit of a semaphore) per lock
     */
    static List<String> coverage(Operation op) {
        List<String> covered = new ArrayList<>();
        for (int i = 0; i < op.names().size(); i++) {
            LockKind kind = op.componentKinds().get(i);
            covered.add((kind == LockKind.SEMAPHORE ? "P:" : kind.exclusive() ? "X:" : "S:") + op.names().get(i));
        }
        return covered;
    }

    private static RedisLock single(LockClient client, LockKind kind, String name) {
        return switch (kind) {
            case REENTRANT -> client.getLock(name);
            case FAIR -> client.getFairLock(name);
            case FENCED -> client.getFencedLock(name);
            case READ -> client.getReadWriteLock(name).readLock();
            case WRITE -> client.getReadWriteLock(name).writeLock();
            case SEMAPHORE -> client.getSemaphore(name, CheckerSettings.PERMITS).asLock();
            case MULTI, RED -> throw new IllegalArgumentException("not a single lock: " + kind);
        };
    }
}
