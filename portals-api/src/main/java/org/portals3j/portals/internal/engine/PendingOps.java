package org.portals3j.portals.internal.engine;

import java.util.Arrays;
import java.util.function.Consumer;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The pool of {@link PendingOp}s. A token is {@code generation << 32 | index}; the generation (31 bits,
 * so a token is never {@link org.portals3j.transport.Transport#NO_NOTIFY}) changes when an op is
 * freed, so a late or forged token never names a reused op. Freeing an op gives back its staging buffer.
 * Runs under the engine lock.
 */
final class PendingOps {
    private final SendStaging staging;
    private @Nullable PendingOp[] ops = new PendingOp[64];
    private int created;
    private @Nullable PendingOp free;

    PendingOps(SendStaging staging) {
        this.staging = staging;
    }

    PendingOp allocate(PendingOp.Kind kind) {
        PendingOp op = free;
        if (op != null) {
            free = op.nextFree;
            op.nextFree = null;
        } else {
            if (created == ops.length) {
                ops = Arrays.copyOf(ops, ops.length * 2);
            }
            op = new PendingOp(created);
            ops[created++] = op;
        }
        op.inUse = true;
        op.kind = kind;
        op.token = ((long) op.generation << 32) | op.index;
        return op;
    }

    /** The op a token names, if it is still in flight. */
    @Nullable PendingOp lookup(long token) {
        if (token < 0) {
            return null;
        }
        int index = (int) token;
        int generation = (int) (token >>> 32);
        if (index < 0 || index >= created) {
            return null;
        }
        PendingOp op = ops[index];
        return op != null && op.inUse && op.generation == generation ? op : null;
    }

    void release(PendingOp op) {
        if (op.staging != SendStaging.NONE) {
            staging.give(op.staging);
            op.staging = SendStaging.NONE;
        }
        op.inUse = false;
        op.generation = (op.generation + 1) & 0x7FFF_FFFF;
        op.clear();
        op.nextFree = free;
        free = op;
    }

    /** Every op in flight (for peer failure and teardown); {@code action} may release it. */
    void forEachInUse(Consumer<PendingOp> action) {
        for (int i = 0; i < created; i++) {
            PendingOp op = ops[i];
            if (op != null && op.inUse) {
                action.accept(op);
            }
        }
    }
}
