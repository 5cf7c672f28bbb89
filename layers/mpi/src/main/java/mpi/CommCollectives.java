package mpi;

import static mpi.CommArgs.items;
import static mpi.CommArgs.base;
import static mpi.CommArgs.blocks;
import static mpi.CommArgs.present;
import static mpi.CommArgs.contributes;
import static mpi.CommArgs.isRoot;
import static mpi.CommArgs.receives;
import static mpi.CommArgs.reduction;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.CollectiveSteps;
import org.portals3j.mpi.internal.Collectives;
import org.portals3j.mpi.internal.CommState;
import org.portals3j.mpi.internal.MpiError;
import org.portals3j.mpi.internal.NeighbourCollectives;
import org.portals3j.mpi.internal.Neighbours;
import org.portals3j.mpi.internal.Reduction;
import org.portals3j.mpi.internal.ReductionCollectives;
import org.portals3j.mpi.internal.RootedCollectives;
import org.portals3j.mpi.internal.RootedForm;
import org.portals3j.mpi.internal.Staged;
import org.portals3j.mpi.internal.TypeMap;

/**
 * The blocking collectives of {@link Comm} on the calling rank's state: buffers staged by {@link Side}, the
 * algorithms of the internal collectives, their errors through the communicator's handler.
 */
final class CommCollectives {
    private CommCollectives() {
    }

    /** Runs {@code body} (a collective on {@code c}); its {@code MpiError} goes through {@code c}'s error handler. */
    static void run(CommState c, Runnable body) throws MPIException {
        try {
            body.run();
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    static void barrier(CommState c) throws MPIException {
        try { // no closure: a barrier allocates nothing
            Collectives.barrier(c);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    static void bcast(CommState c, @Nullable Object buf, int count, @Nullable Datatype type,
            int root) throws MPIException {
        run(c, () -> {
            Side b = isRoot(c, root) ? Side.of(buf, count, type, true, false)
                    : receives(c, root) ? Side.of(buf, count, type, false, true) : Side.unused(type);
            RootedCollectives.bcast(c, b.buf, b.elements, b.base, root);
            b.done();
        });
    }

    static void gather(CommState c, @Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype, int root) throws MPIException {
        run(c, () -> {
            Side s = contributes(c, root) ? Side.of(sendbuf, sendcount, sendtype, true, false)
                    : Side.unused(sendtype);
            Side r = isRoot(c, root) ? Side.blocks(recvbuf, blocks(recvcount, c), null, recvtype, false, true)
                    : Side.of(null, 0, null, false, false);
            RootedCollectives.gatherv(c, s.buf, s.elements, s.base, r.buf, r.counts, r.displs, r.base, root,
                    RootedForm.FULL);
            r.done();
        });
    }

    static void gather(CommState c, @Nullable Object buf, int count, @Nullable Datatype type,
            int root) throws MPIException {
        run(c, () -> {
            if (!isRoot(c, root)) {
                Side s = contributes(c, root) ? Side.of(buf, count, type, true, false)
                        : Side.unused(type);
                RootedCollectives.gatherv(c, s.buf, s.elements, s.base, null, null, null, null, root,
                        RootedForm.IN_PLACE);
                return;
            }
            Side r = Side.blocks(buf, blocks(count, c), null, type, true, true);
            int own = r.counts == null || c.isInter() ? 0 : r.counts[root];
            RootedCollectives.gatherv(c, r.buf, own, r.base, r.buf, r.counts, r.displs, r.base, root,
                    RootedForm.IN_PLACE);
            r.done();
        });
    }

    static void gatherv(CommState c, @Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int @Nullable [] recvcount, int @Nullable [] displs,
            @Nullable Datatype recvtype, int root) throws MPIException {
        run(c, () -> {
            Side s = contributes(c, root) ? Side.of(sendbuf, sendcount, sendtype, true, false)
                    : Side.unused(sendtype);
            Side r = isRoot(c, root) ? Side.blocks(recvbuf, recvcount, displs, recvtype, false, true)
                    : Side.of(null, 0, null, false, false);
            RootedCollectives.gatherv(c, s.buf, s.elements, s.base, r.buf, r.counts, r.displs, r.base, root,
                    RootedForm.FULL);
            r.done();
        });
    }

    static void gatherv(CommState c, @Nullable Object recvbuf, int @Nullable [] recvcount, int @Nullable [] displs,
            @Nullable Datatype recvtype, int root) throws MPIException {
        run(c, () -> {
            Side r = isRoot(c, root) ? Side.blocks(recvbuf, recvcount, displs, recvtype, true, true)
                    : Side.of(null, 0, null, false, false);
            RootedCollectives.gatherv(c, null, 0, null, r.buf, r.counts, r.displs, r.base, root,
                    RootedForm.ROOT_ONLY);
            r.done();
        });
    }

    static void gatherv(CommState c, @Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            int root) throws MPIException {
        run(c, () -> {
            Side s = contributes(c, root) ? Side.of(sendbuf, sendcount, sendtype, true, false)
                    : Side.unused(sendtype);
            RootedCollectives.gatherv(c, s.buf, s.elements, s.base, null, null, null, null, root,
                    RootedForm.NON_ROOT);
        });
    }

    static void scatter(CommState c, @Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype, int root) throws MPIException {
        run(c, () -> {
            Side s = isRoot(c, root) ? Side.blocks(sendbuf, blocks(sendcount, c), null, sendtype, true, false)
                    : Side.of(null, 0, null, false, false);
            Side r = receives(c, root) ? Side.of(recvbuf, recvcount, recvtype, false, true)
                    : Side.unused(recvtype);
            RootedCollectives.scatterv(c, s.buf, s.counts, s.displs, s.base, r.buf, r.elements, r.base, root,
                    RootedForm.FULL);
            r.done();
        });
    }

    static void scatter(CommState c, @Nullable Object buf, int count, @Nullable Datatype type,
            int root) throws MPIException {
        run(c, () -> {
            if (isRoot(c, root)) {
                Side s = Side.blocks(buf, blocks(count, c), null, type, true, false);
                RootedCollectives.scatterv(c, s.buf, s.counts, s.displs, s.base, s.buf,
                        s.counts == null || c.isInter() ? 0 : s.counts[root], s.base, root, RootedForm.IN_PLACE);
                return;
            }
            Side r = receives(c, root) ? Side.of(buf, count, type, false, true)
                    : Side.unused(type);
            RootedCollectives.scatterv(c, null, null, null, null, r.buf, r.elements, r.base, root,
                    RootedForm.IN_PLACE);
            r.done();
        });
    }

    static void scatterv(CommState c, @Nullable Object sendbuf, int @Nullable [] sendcount, int @Nullable [] displs,
            @Nullable Datatype sendtype, @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype,
            int root) throws MPIException {
        run(c, () -> {
            Side s = isRoot(c, root) ? Side.blocks(sendbuf, sendcount, displs, sendtype, true, false)
                    : Side.of(null, 0, null, false, false);
            Side r = receives(c, root) ? Side.of(recvbuf, recvcount, recvtype, false, true)
                    : Side.unused(recvtype);
            RootedCollectives.scatterv(c, s.buf, s.counts, s.displs, s.base, r.buf, r.elements, r.base, root,
                    RootedForm.FULL);
            r.done();
        });
    }

    static void scatterv(CommState c, @Nullable Object sendbuf, int @Nullable [] sendcount, int @Nullable [] displs,
            @Nullable Datatype sendtype, int root) throws MPIException {
        run(c, () -> {
            Side s = isRoot(c, root) ? Side.blocks(sendbuf, sendcount, displs, sendtype, true, false)
                    : Side.of(null, 0, null, false, false);
            RootedCollectives.scatterv(c, s.buf, s.counts, s.displs, s.base, null, 0, null, root,
                    RootedForm.ROOT_ONLY);
        });
    }

    static void scatterv(CommState c, @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype,
            int root) throws MPIException {
        run(c, () -> {
            Side r = receives(c, root) ? Side.of(recvbuf, recvcount, recvtype, false, true)
                    : Side.unused(recvtype);
            RootedCollectives.scatterv(c, null, null, null, null, r.buf, r.elements, r.base, root,
                    RootedForm.NON_ROOT);
            r.done();
        });
    }

    static void allGather(CommState c, @Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype)
            throws MPIException {
        run(c, () -> {
            Side s = Side.of(sendbuf, sendcount, sendtype, true, false);
            Side r = Side.blocks(recvbuf, blocks(recvcount, c), null, recvtype, false, true);
            Collectives.allGatherv(c, s.buf, s.elements, s.base, r.buf, r.counts, r.displs, r.base, false);
            r.done();
        });
    }

    static void allGather(CommState c, @Nullable Object buf, int count, @Nullable Datatype type) throws MPIException {
        run(c, () -> {
            Side r = Side.blocks(buf, blocks(count, c), null, type, true, true);
            Collectives.allGatherv(c, null, 0, null, r.buf, r.counts, r.displs, r.base, true);
            r.done();
        });
    }

    static void allGatherv(CommState c, @Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int @Nullable [] recvcount, int @Nullable [] displs,
            @Nullable Datatype recvtype) throws MPIException {
        run(c, () -> {
            Side s = Side.of(sendbuf, sendcount, sendtype, true, false);
            Side r = Side.blocks(recvbuf, recvcount, displs, recvtype, false, true);
            Collectives.allGatherv(c, s.buf, s.elements, s.base, r.buf, r.counts, r.displs, r.base, false);
            r.done();
        });
    }

    static void allGatherv(CommState c, @Nullable Object recvbuf, int @Nullable [] recvcount, int @Nullable [] displs,
            @Nullable Datatype recvtype) throws MPIException {
        run(c, () -> {
            Side r = Side.blocks(recvbuf, recvcount, displs, recvtype, true, true);
            Collectives.allGatherv(c, null, 0, null, r.buf, r.counts, r.displs, r.base, true);
            r.done();
        });
    }

    static void allToAll(CommState c, @Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype)
            throws MPIException {
        run(c, () -> {
            Side s = Side.blocks(sendbuf, blocks(sendcount, c), null, sendtype, true, false);
            Side r = Side.blocks(recvbuf, blocks(recvcount, c), null, recvtype, false, true);
            Collectives.allToAllv(c, s.buf, s.counts, s.displs, s.base, r.buf, r.counts, r.displs, r.base);
            r.done();
        });
    }

    static void allToAllv(CommState c, @Nullable Object sendbuf, int @Nullable [] sendcount, int @Nullable [] sdispls,
            @Nullable Datatype sendtype, @Nullable Object recvbuf, int @Nullable [] recvcount,
            int @Nullable [] rdispls, @Nullable Datatype recvtype) throws MPIException {
        run(c, () -> {
            Side s = Side.blocks(sendbuf, sendcount, sdispls, sendtype, true, false);
            Side r = Side.blocks(recvbuf, recvcount, rdispls, recvtype, false, true);
            Collectives.allToAllv(c, s.buf, s.counts, s.displs, s.base, r.buf, r.counts, r.displs, r.base);
            r.done();
        });
    }

    static void reduce(CommState c, @Nullable Object sendbuf, @Nullable Object recvbuf, int count,
            @Nullable Datatype type, @Nullable Op op, int root) throws MPIException {
        run(c, () -> {
            Side s = contributes(c, root) ? Side.of(sendbuf, count, type, true, false)
                    : Side.unused(type);
            Side r = isRoot(c, root) ? Side.of(recvbuf, count, type, false, true) : Side.of(recvbuf, 0, null,
                    false, false);
            int elements = contributes(c, root) ? s.elements : r.elements; // the root of an intercommunicator
            ReductionCollectives.reduce(c, s.buf, r.buf, elements, s.base, reduction(op, type), root, false);
            r.done();
        });
    }

    static void reduce(CommState c, @Nullable Object buf, int count, @Nullable Datatype type, @Nullable Op op,
            int root) throws MPIException {
        run(c, () -> {
            Side b = Side.of(buf, count, type, true, isRoot(c, root));
            ReductionCollectives.reduce(c, null, b.buf, b.elements, b.base, reduction(op, type), root, true);
            b.done();
        });
    }

    static void allReduce(CommState c, @Nullable Object sendbuf, @Nullable Object recvbuf, int count,
            @Nullable Datatype type, @Nullable Op op) throws MPIException {
        if (type == null || !type.isStaged()) { // no closure, no Side: see ReductionCollectives.allReduce
            try {
                ReductionCollectives.allReduce(c, sendbuf, recvbuf, items(count, type), base(type),
                        reduction(op, type), false);
            } catch (MpiError e) {
                throw MPI.raise(c, e);
            }
            return;
        }
        run(c, () -> {
            Side s = Side.of(sendbuf, count, type, true, false);
            Side r = Side.of(recvbuf, count, type, false, true);
            ReductionCollectives.allReduce(c, s.buf, r.buf, s.elements, s.base, reduction(op, type), false);
            r.done();
        });
    }

    static void allReduce(CommState c, @Nullable Object buf, int count, @Nullable Datatype type,
            @Nullable Op op) throws MPIException {
        if (type == null || !type.isStaged()) {
            try {
                ReductionCollectives.allReduce(c, null, buf, items(count, type), base(type),
                        reduction(op, type), true);
            } catch (MpiError e) {
                throw MPI.raise(c, e);
            }
            return;
        }
        run(c, () -> {
            Side b = Side.of(buf, count, type, true, true);
            ReductionCollectives.allReduce(c, null, b.buf, b.elements, b.base, reduction(op, type), true);
            b.done();
        });
    }

    static void reduceScatter(CommState c, @Nullable Object sendbuf, @Nullable Object recvbuf,
            int @Nullable [] recvcounts, @Nullable Datatype type, @Nullable Op op) throws MPIException {
        run(c, () -> reduceScatter(c, null, sendbuf, recvbuf, recvcounts, 0, type, op, false));
    }

    static void reduceScatter(CommState c, @Nullable Object buf, int @Nullable [] counts, @Nullable Datatype type,
            @Nullable Op op) throws MPIException {
        run(c, () -> reduceScatter(c, null, null, buf, counts, 0, type, op, true));
    }

    static void reduceScatterBlock(CommState c, @Nullable Object sendbuf, @Nullable Object recvbuf, int recvcount,
            @Nullable Datatype type, @Nullable Op op) throws MPIException {
        run(c, () -> reduceScatter(c, null, sendbuf, recvbuf, null, recvcount, type, op, false));
    }

    static void reduceScatterBlock(CommState c, @Nullable Object buf, int count, @Nullable Datatype type,
            @Nullable Op op) throws MPIException {
        run(c, () -> reduceScatter(c, null, null, buf, null, count, type, op, true));
    }

    /**
     * A reduce-scatter of {@code counts[i]} items of {@code type} to rank {@code i} (null: {@code block} to each).
     * A non-contiguous derived type is staged: the whole input packed, reduced as its packed base elements (the
     * operations {@link CommArgs#reduction} allows), and this rank's block unpacked into the output; in place, only
     * that block of {@code recvbuf} is written. {@code steps} null: run now (the blocking call); else laid down in
     * {@code steps} (a nonblocking one's schedule), the unpacking its last local step.
     */
    static void reduceScatter(CommState c, @Nullable CollectiveSteps steps, @Nullable Object sendbuf,
            @Nullable Object recvbuf, int @Nullable [] counts, int block, @Nullable Datatype type, @Nullable Op op,
            boolean inPlace) {
        Reduction r = reduction(op, type);
        if (type == null || !type.isStaged()) {
            if (steps == null) {
                ReductionCollectives.reduceScatter(c, sendbuf, recvbuf, items(counts, type), items(block, type),
                        base(type), r, inPlace);
            } else {
                ReductionCollectives.reduceScatter(steps, sendbuf, recvbuf, items(counts, type), items(block, type),
                        base(type), r, inPlace);
            }
            return;
        }
        int ranks = c.isInter() ? c.localSize() : c.size(); // an intercommunicator's counts are its local group's
        int[] all = counts != null ? counts : blocks(block, ranks);
        if (all.length < ranks) {
            throw new MpiError(MPI.ERR_ARG, "reduceScatter needs a count for each of the " + ranks + " ranks, not "
                    + all.length);
        }
        long total = 0;
        for (int i = 0; i < ranks; i++) {
            if (all[i] < 0) {
                throw new MpiError(MPI.ERR_COUNT, "a count cannot be negative: " + all[i]);
            }
            total += all[i];
        }
        if (total > Integer.MAX_VALUE) {
            throw new MpiError(MPI.ERR_COUNT, "more than 2^31 items to reduce: " + total);
        }
        int mine = all[c.rank()];
        TypeMap map = Datatype.committedMap(type);
        Staged in = Staged.of(inPlace ? recvbuf : sendbuf, (int) total, map, true, inPlace);
        Staged out = inPlace ? in : Staged.of(recvbuf, mine, map, false, true);
        int per = total == 0 ? 0 : (int) (in.elements() / total);
        int[] packed = new int[ranks];
        for (int i = 0; i < ranks; i++) {
            packed[i] = all[i] * per;
        }
        long bytes = (long) mine * map.size();
        if (steps == null) {
            ReductionCollectives.reduceScatter(c, inPlace ? null : in.array(), out.array(), packed, 0,
                    in.wireBase(), r, inPlace);
            out.arrived(bytes);
        } else {
            ReductionCollectives.reduceScatter(steps, inPlace ? null : in.array(), out.array(), packed, 0,
                    in.wireBase(), r, inPlace);
            steps.local(() -> out.arrived(bytes));
        }
    }

    /** An inclusive or exclusive scan; a non-contiguous derived type staged (the output read too where kept). */
    static void scan(CommState c, @Nullable Object sendbuf, @Nullable Object recvbuf, int count,
            @Nullable Datatype type, @Nullable Op op, boolean inPlace, boolean exclusive) throws MPIException {
        run(c, () -> {
            Reduction r = reduction(op, type);
            Side out = Side.of(recvbuf, count, type, inPlace || exclusive, true);
            Side in = inPlace ? out : Side.of(sendbuf, count, type, true, false);
            ReductionCollectives.scan(c, inPlace ? null : in.buf, out.buf, out.elements, out.base, r, inPlace,
                    exclusive);
            out.done();
        });
    }

    static void reduceLocal(@Nullable Object inBuf, @Nullable Object inOutBuf, int count, @Nullable Datatype type,
            @Nullable Op op) throws MPIException {
        MPI.COMM_WORLD.collective(c -> {
            Reduction r = reduction(op, type);
            Side in = Side.of(inBuf, count, type, true, false);
            Side inOut = Side.of(inOutBuf, count, type, true, true);
            ReductionCollectives.local(in.buf, inOut.buf, inOut.elements, inOut.base, r);
            inOut.done();
        });
    }

    static void neighborAllGather(Comm comm, @Nullable Object sendbuf, int sendcount,
            @Nullable Datatype sendtype, @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype)
            throws MPIException {
        neighbourhood(comm, (c, n) -> {
            Side in = Side.of(sendbuf, sendcount, sendtype, true, false);
            Side out = neighbourReceive(n, recvbuf, blocks(recvcount, n.sources().length), null, recvtype);
            NeighbourCollectives.exchange(c, n, in.buf, in.elements, null, null, in.base, out.buf,
                    present(out.counts), out.displs, out.base);
            out.done();
        });
    }

    static void neighborAllGatherv(Comm comm, @Nullable Object sendbuf, int sendcount,
            @Nullable Datatype sendtype, @Nullable Object recvbuf, int[] recvcount, int[] displs,
            @Nullable Datatype recvtype) throws MPIException {
        neighbourhood(comm, (c, n) -> {
            Side in = Side.of(sendbuf, sendcount, sendtype, true, false);
            Side out = neighbourReceive(n, recvbuf, recvcount, displs, recvtype);
            NeighbourCollectives.exchange(c, n, in.buf, in.elements, null, null, in.base, out.buf,
                    present(out.counts), out.displs, out.base);
            out.done();
        });
    }

    static void neighborAllToAll(Comm comm, @Nullable Object sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Object recvbuf, int recvcount, @Nullable Datatype recvtype)
            throws MPIException {
        neighbourhood(comm, (c, n) -> {
            Side in = Side.blocks(sendbuf, blocks(sendcount, n.destinations().length), null, sendtype, true, false);
            Side out = neighbourReceive(n, recvbuf, blocks(recvcount, n.sources().length), null, recvtype);
            NeighbourCollectives.exchange(c, n, in.buf, 0, present(in.counts), in.displs, in.base, out.buf,
                    present(out.counts), out.displs, out.base);
            out.done();
        });
    }

    static void neighborAllToAllv(Comm comm, @Nullable Object sendbuf, int[] sendcount, int[] sdispls,
            @Nullable Datatype sendtype, @Nullable Object recvbuf, int[] recvcount, int[] rdispls,
            @Nullable Datatype recvtype) throws MPIException {
        neighbourhood(comm, (c, n) -> {
            Side in = Side.blocks(sendbuf, present(sendcount), sdispls, sendtype, true, false);
            Side out = neighbourReceive(n, recvbuf, recvcount, rdispls, recvtype);
            NeighbourCollectives.exchange(c, n, in.buf, 0, present(in.counts), in.displs, in.base, out.buf,
                    present(out.counts), out.displs, out.base);
            out.done();
        });
    }

    /**
     * The receive side of a neighbourhood collective: a staged copy also reads the user's blocks when an
     * in-neighbour is {@code PROC_NULL}, so that unpacking leaves the block nobody sent as it was.
     */
    static Side neighbourReceive(Neighbours n, @Nullable Object recvbuf, int @Nullable [] counts,
            int @Nullable [] displs, @Nullable Datatype type) {
        boolean keep = false;
        for (int source : n.sources()) {
            keep |= source == MPI.PROC_NULL;
        }
        return Side.blocks(recvbuf, present(counts), displs, type, keep, true);
    }

    /** A neighbourhood collective on this rank's neighbours; ERR_TOPOLOGY without a Cartesian or graph topology. */
    @FunctionalInterface
    interface NeighbourCall {
        void run(CommState c, Neighbours n);
    }

    /** Runs {@code call} on this rank's neighbourhood in {@code comm}'s topology. */
    static void neighbourhood(Comm comm, NeighbourCall call) throws MPIException {
        CommState c = comm.state();
        try {
            call.run(c, topology(comm, c));
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    /** This rank's neighbourhood; ERR_TOPOLOGY without a Cartesian or graph topology. */
    static Neighbours topology(Comm comm, CommState c) {
        Neighbours n = comm.neighbours(c.rank());
        if (n == null) {
            throw new MpiError(MPI.ERR_TOPOLOGY, "a neighbourhood collective needs a communicator with a"
                    + " Cartesian or graph topology (createCart, createGraph, createDistGraph): " + c.name()
                    + " has none");
        }
        return n;
    }

    static void allToAllw(CommState c, @Nullable Object sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes,
            @Nullable Object recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes) throws MPIException {
        run(c, () -> {
            Staged s = stagedSend(c, sendBuf, sendCount, sDispls, sendTypes, recvCount);
            Staged r = Staged.typed(recvBuf, recvCount, rDispls, maps(recvTypes, recvCount), false, true);
            Collectives.allToAllv(c, s.array(), s.counts(), s.displs(), s.wireBase(), r.array(), r.counts(),
                    r.displs(), r.wireBase());
            r.scatter();
        });
    }

    /** The packed send blocks of an {@code allToAllw}, once both count arrays have an entry for every rank. */
    static Staged stagedSend(CommState c, @Nullable Object sendBuf, int[] sendCount, int[] sDispls,
            Datatype[] sendTypes, int[] recvCount) {
        if (sendCount.length < c.size() || recvCount.length < c.size()) {
            throw new MpiError(MPI.ERR_ARG, "allToAllw needs a count, displacement and type for each of the "
                    + c.size() + " ranks");
        }
        return Staged.typed(sendBuf, sendCount, sDispls, maps(sendTypes, sendCount), true, false);
    }

    /** The type maps of {@code types}; an entry with a count of 0 may be any type (or null). */
    static TypeMap[] maps(Datatype[] types, int[] counts) {
        if (types.length != counts.length) {
            throw new MpiError(MPI.ERR_ARG, "allToAllw needs as many types as counts, not " + types.length
                    + " and " + counts.length);
        }
        TypeMap[] maps = new TypeMap[types.length];
        TypeMap any = null;
        for (int i = 0; i < types.length; i++) {
            if (counts[i] != 0) {
                maps[i] = Datatype.committedMap(types[i]);
                any = any == null ? maps[i] : any;
            }
        }
        for (int i = 0; i < types.length; i++) {
            if (maps[i] == null) {
                maps[i] = any != null ? any : Datatype.committedMap(MPI.BYTE);
            }
        }
        return maps;
    }
}
