package mpi;

import static mpi.CommArgs.blocks;
import static mpi.CommArgs.contributes;
import static mpi.CommArgs.isRoot;
import static mpi.CommArgs.receives;
import static mpi.CommArgs.present;
import static mpi.CommArgs.reduction;

import java.nio.Buffer;
import java.util.function.Consumer;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.Buffers;
import org.portals3j.mpi.internal.CollectiveSchedule;
import org.portals3j.mpi.internal.MpiError;
import org.portals3j.mpi.internal.CollectiveSteps;
import org.portals3j.mpi.internal.Collectives;
import org.portals3j.mpi.internal.CommState;
import org.portals3j.mpi.internal.NeighbourCollectives;
import org.portals3j.mpi.internal.Reduction;
import org.portals3j.mpi.internal.Neighbours;
import org.portals3j.mpi.internal.ReductionCollectives;
import org.portals3j.mpi.internal.RootedCollectives;
import org.portals3j.mpi.internal.RootedForm;
import org.portals3j.mpi.internal.Staged;

/**
 * The nonblocking collectives of {@link Comm}: the blocking algorithms laid down in a {@link CollectiveSchedule}
 * that the rank's progress advances; argument errors through the communicator's handler, before anything is sent.
 */
final class CommNonblockingCollectives {
    private CommNonblockingCollectives() {
    }

    /**
     * Starts the nonblocking collective {@code plan} on {@code c}, its argument errors through the error handler
     * (nothing has been sent then); {@code buffers}: the {@code Buffer} arguments, checked against the strict-buffer
     * switch.
     */
    static Request start(CommState c, Consumer<CollectiveSteps> plan, @Nullable Buffer... buffers)
            throws MPIException {
        boolean strict = c.engine().config().strictBuffers();
        for (Buffer b : buffers) {
            if (b != null) {
                Buffers.checkNonblocking(b, strict);
            }
        }
        try {
            return new Request(c, CollectiveSchedule.start(c, plan));
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
    }

    static Request iBarrier(CommState c) throws MPIException {
        return start(c, s -> Collectives.barrier(s));
    }

    /*
     * The data-movement collectives below take every datatype the blocking ones take: a non-contiguous one is staged
     * by a Side when the call is made (data it sends packed then, MPI 3.1 section 5.12 forbids changing it until
     * completion), the schedule moves the packed elements, and its last local step unpacks what it received into
     * the user's buffer, leaving the bytes the type map does not reach untouched.
     */

    static Request iBcast(CommState c, @Nullable Buffer buf, int count, @Nullable Datatype type,
            int root) throws MPIException {
        return start(c, s -> {
            Side b = isRoot(c, root) ? Side.of(buf, count, type, true, false)
                    : receives(c, root) ? Side.of(buf, count, type, false, true) : Side.unused(type);
            RootedCollectives.bcast(s, b.buf, b.elements, b.base, root);
            s.local(b::done);
        }, buf);
    }

    static Request iGather(CommState c, @Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Buffer recvbuf, int recvcount, @Nullable Datatype recvtype, int root) throws MPIException {
        return start(c, s -> {
            Side in = contributes(c, root) ? Side.of(sendbuf, sendcount, sendtype, true, false)
                    : Side.unused(sendtype);
            Side out = isRoot(c, root) ? Side.blocks(recvbuf, blocks(recvcount, c), null, recvtype, false, true)
                    : Side.of(null, 0, null, false, false);
            RootedCollectives.gatherv(s, in.buf, in.elements, in.base, out.buf, out.counts, out.displs, out.base,
                    root, RootedForm.FULL);
            s.local(out::done);
        }, sendbuf, recvbuf);
    }

    static Request iGather(CommState c, @Nullable Buffer buf, int count, @Nullable Datatype type,
            int root) throws MPIException {
        return start(c, s -> {
            if (!isRoot(c, root)) {
                Side in = contributes(c, root) ? Side.of(buf, count, type, true, false)
                        : Side.unused(type);
                RootedCollectives.gatherv(s, in.buf, in.elements, in.base, null, null, null, null, root,
                        RootedForm.IN_PLACE);
                return;
            }
            Side b = Side.blocks(buf, blocks(count, c), null, type, true, true);
            int own = b.counts == null || c.isInter() ? 0 : b.counts[root];
            RootedCollectives.gatherv(s, b.buf, own, b.base, b.buf, b.counts, b.displs, b.base, root,
                    RootedForm.IN_PLACE);
            s.local(b::done);
        }, buf);
    }

    static Request iGatherv(CommState c, @Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Buffer recvbuf, int @Nullable [] recvcount, int @Nullable [] displs,
            @Nullable Datatype recvtype, int root) throws MPIException {
        return start(c, s -> {
            Side in = contributes(c, root) ? Side.of(sendbuf, sendcount, sendtype, true, false)
                    : Side.unused(sendtype);
            Side out = isRoot(c, root) ? Side.blocks(recvbuf, recvcount, displs, recvtype, false, true)
                    : Side.of(null, 0, null, false, false);
            RootedCollectives.gatherv(s, in.buf, in.elements, in.base, out.buf, out.counts, out.displs, out.base,
                    root, RootedForm.FULL);
            s.local(out::done);
        }, sendbuf, recvbuf);
    }

    static Request iGatherv(CommState c, @Nullable Buffer recvbuf, int @Nullable [] recvcount,
            int @Nullable [] displs, @Nullable Datatype recvtype, int root) throws MPIException {
        return start(c, s -> {
            Side out = isRoot(c, root) ? Side.blocks(recvbuf, recvcount, displs, recvtype, true, true)
                    : Side.of(null, 0, null, false, false);
            RootedCollectives.gatherv(s, null, 0, null, out.buf, out.counts, out.displs, out.base, root,
                    RootedForm.ROOT_ONLY);
            s.local(out::done);
        }, recvbuf);
    }

    static Request iGatherv(CommState c, @Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            int root) throws MPIException {
        return start(c, s -> {
            Side in = contributes(c, root) ? Side.of(sendbuf, sendcount, sendtype, true, false)
                    : Side.unused(sendtype);
            RootedCollectives.gatherv(s, in.buf, in.elements, in.base, null, null, null, null, root,
                    RootedForm.NON_ROOT);
        }, sendbuf);
    }

    static Request iScatter(CommState c, @Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Buffer recvbuf, int recvcount, @Nullable Datatype recvtype, int root) throws MPIException {
        return start(c, s -> {
            Side in = isRoot(c, root) ? Side.blocks(sendbuf, blocks(sendcount, c), null, sendtype, true, false)
                    : Side.of(null, 0, null, false, false);
            Side out = receives(c, root) ? Side.of(recvbuf, recvcount, recvtype, false, true)
                    : Side.unused(recvtype);
            RootedCollectives.scatterv(s, in.buf, in.counts, in.displs, in.base, out.buf, out.elements, out.base,
                    root, RootedForm.FULL);
            s.local(out::done);
        }, sendbuf, recvbuf);
    }

    static Request iScatter(CommState c, @Nullable Buffer buf, int count, @Nullable Datatype type,
            int root) throws MPIException {
        return start(c, s -> {
            if (isRoot(c, root)) {
                Side in = Side.blocks(buf, blocks(count, c), null, type, true, false);
                RootedCollectives.scatterv(s, in.buf, in.counts, in.displs, in.base, in.buf,
                        in.counts == null || c.isInter() ? 0 : in.counts[root], in.base, root, RootedForm.IN_PLACE);
                return;
            }
            Side out = receives(c, root) ? Side.of(buf, count, type, false, true)
                    : Side.unused(type);
            RootedCollectives.scatterv(s, null, null, null, null, out.buf, out.elements, out.base, root,
                    RootedForm.IN_PLACE);
            s.local(out::done);
        }, buf);
    }

    static Request iScatterv(CommState c, @Nullable Buffer sendbuf, int @Nullable [] sendcount,
            int @Nullable [] displs, @Nullable Datatype sendtype, @Nullable Buffer recvbuf, int recvcount,
            @Nullable Datatype recvtype, int root) throws MPIException {
        return start(c, s -> {
            Side in = isRoot(c, root) ? Side.blocks(sendbuf, sendcount, displs, sendtype, true, false)
                    : Side.of(null, 0, null, false, false);
            Side out = receives(c, root) ? Side.of(recvbuf, recvcount, recvtype, false, true)
                    : Side.unused(recvtype);
            RootedCollectives.scatterv(s, in.buf, in.counts, in.displs, in.base, out.buf, out.elements, out.base,
                    root, RootedForm.FULL);
            s.local(out::done);
        }, sendbuf, recvbuf);
    }

    static Request iScatterv(CommState c, @Nullable Buffer sendbuf, int @Nullable [] sendcount,
            int @Nullable [] displs, @Nullable Datatype sendtype, int root) throws MPIException {
        return start(c, s -> {
            Side in = isRoot(c, root) ? Side.blocks(sendbuf, sendcount, displs, sendtype, true, false)
                    : Side.of(null, 0, null, false, false);
            RootedCollectives.scatterv(s, in.buf, in.counts, in.displs, in.base, null, 0, null, root,
                    RootedForm.ROOT_ONLY);
        }, sendbuf);
    }

    static Request iScatterv(CommState c, @Nullable Buffer recvbuf, int recvcount, @Nullable Datatype recvtype,
            int root) throws MPIException {
        return start(c, s -> {
            Side out = receives(c, root) ? Side.of(recvbuf, recvcount, recvtype, false, true)
                    : Side.unused(recvtype);
            RootedCollectives.scatterv(s, null, null, null, null, out.buf, out.elements, out.base, root,
                    RootedForm.NON_ROOT);
            s.local(out::done);
        }, recvbuf);
    }

    static Request iAllGather(CommState c, @Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Buffer recvbuf, int recvcount, @Nullable Datatype recvtype) throws MPIException {
        return start(c, s -> {
            Side in = Side.of(sendbuf, sendcount, sendtype, true, false);
            Side out = Side.blocks(recvbuf, blocks(recvcount, c), null, recvtype, false, true);
            Collectives.allGatherv(s, in.buf, in.elements, in.base, out.buf, out.counts, out.displs, out.base, false);
            s.local(out::done);
        }, sendbuf, recvbuf);
    }

    static Request iAllGather(CommState c, @Nullable Buffer buf, int count,
            @Nullable Datatype type) throws MPIException {
        return start(c, s -> {
            Side b = Side.blocks(buf, blocks(count, c), null, type, true, true);
            Collectives.allGatherv(s, null, 0, null, b.buf, b.counts, b.displs, b.base, true);
            s.local(b::done);
        }, buf);
    }

    static Request iAllGatherv(CommState c, @Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Buffer recvbuf, int @Nullable [] recvcount, int @Nullable [] displs,
            @Nullable Datatype recvtype) throws MPIException {
        return start(c, s -> {
            Side in = Side.of(sendbuf, sendcount, sendtype, true, false);
            Side out = Side.blocks(recvbuf, recvcount, displs, recvtype, false, true);
            Collectives.allGatherv(s, in.buf, in.elements, in.base, out.buf, out.counts, out.displs, out.base, false);
            s.local(out::done);
        }, sendbuf, recvbuf);
    }

    static Request iAllGatherv(CommState c, @Nullable Buffer buf, int @Nullable [] count, int @Nullable [] displs,
            @Nullable Datatype type) throws MPIException {
        return start(c, s -> {
            Side b = Side.blocks(buf, count, displs, type, true, true);
            Collectives.allGatherv(s, null, 0, null, b.buf, b.counts, b.displs, b.base, true);
            s.local(b::done);
        }, buf);
    }

    static Request iAllToAll(CommState c, @Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Buffer recvbuf, int recvcount, @Nullable Datatype recvtype) throws MPIException {
        return start(c, s -> {
            Side in = Side.blocks(sendbuf, blocks(sendcount, c), null, sendtype, true, false);
            Side out = Side.blocks(recvbuf, blocks(recvcount, c), null, recvtype, false, true);
            Collectives.allToAllv(s, in.buf, in.counts, in.displs, in.base, out.buf, out.counts, out.displs,
                    out.base);
            s.local(out::done);
        }, sendbuf, recvbuf);
    }

    static Request iAllToAllv(CommState c, @Nullable Buffer sendbuf, int @Nullable [] sendcount,
            int @Nullable [] sdispls, @Nullable Datatype sendtype, @Nullable Buffer recvbuf,
            int @Nullable [] recvcount, int @Nullable [] rdispls, @Nullable Datatype recvtype) throws MPIException {
        return start(c, s -> {
            Side in = Side.blocks(sendbuf, sendcount, sdispls, sendtype, true, false);
            Side out = Side.blocks(recvbuf, recvcount, rdispls, recvtype, false, true);
            Collectives.allToAllv(s, in.buf, in.counts, in.displs, in.base, out.buf, out.counts, out.displs,
                    out.base);
            s.local(out::done);
        }, sendbuf, recvbuf);
    }

    /*
     * The reductions below take any datatype: a non-contiguous one is packed into a scratch Side when the call is
     * made (the input read then, MPI 3.1 section 5.12 forbids changing it until completion), the schedule runs on the
     * packed elements, and its last local step unpacks the result into the user's buffer.
     */

    static Request iReduce(CommState c, @Nullable Buffer sendbuf, @Nullable Buffer recvbuf, int count,
            @Nullable Datatype type, @Nullable Op op, int root) throws MPIException {
        return start(c, s -> {
            Reduction r = reduction(op, type);
            Side in = contributes(c, root) ? Side.of(sendbuf, count, type, true, false)
                    : Side.unused(type);
            Side out = isRoot(c, root) ? Side.of(recvbuf, count, type, false, true)
                    : Side.of(recvbuf, 0, null, false, false);
            int elements = contributes(c, root) ? in.elements : out.elements; // the root of an intercommunicator
            ReductionCollectives.reduce(s, in.buf, out.buf, elements, in.base, r, root, false);
            s.local(out::done);
        }, sendbuf, recvbuf);
    }

    static Request iReduce(CommState c, @Nullable Buffer buf, int count, @Nullable Datatype type, @Nullable Op op,
            int root) throws MPIException {
        return start(c, s -> {
            Reduction r = reduction(op, type);
            Side b = Side.of(buf, count, type, true, isRoot(c, root));
            ReductionCollectives.reduce(s, null, b.buf, b.elements, b.base, r, root, true);
            s.local(b::done);
        }, buf);
    }

    static Request iAllReduce(CommState c, @Nullable Buffer sendbuf, @Nullable Buffer recvbuf, int count,
            @Nullable Datatype type, @Nullable Op op) throws MPIException {
        return start(c, s -> {
            Reduction r = reduction(op, type);
            Side in = Side.of(sendbuf, count, type, true, false);
            Side out = Side.of(recvbuf, count, type, false, true);
            ReductionCollectives.allReduce(s, in.buf, out.buf, in.elements, in.base, r, false);
            s.local(out::done);
        }, sendbuf, recvbuf);
    }

    static Request iAllReduce(CommState c, @Nullable Buffer buf, int count, @Nullable Datatype type,
            @Nullable Op op) throws MPIException {
        return start(c, s -> {
            Reduction r = reduction(op, type);
            Side b = Side.of(buf, count, type, true, true);
            ReductionCollectives.allReduce(s, null, b.buf, b.elements, b.base, r, true);
            s.local(b::done);
        }, buf);
    }

    static Request iReduceScatter(CommState c, @Nullable Buffer sendbuf, @Nullable Buffer recvbuf,
            int @Nullable [] recvcounts, @Nullable Datatype type, @Nullable Op op) throws MPIException {
        return start(c, s -> CommCollectives.reduceScatter(c, s, sendbuf, recvbuf, recvcounts, 0, type, op, false),
                sendbuf, recvbuf);
    }

    static Request iReduceScatter(CommState c, @Nullable Buffer buf, int @Nullable [] counts, @Nullable Datatype type,
            @Nullable Op op) throws MPIException {
        return start(c, s -> CommCollectives.reduceScatter(c, s, null, buf, counts, 0, type, op, true), buf);
    }

    static Request iReduceScatterBlock(CommState c, @Nullable Buffer sendbuf, @Nullable Buffer recvbuf, int recvcount,
            @Nullable Datatype type, @Nullable Op op) throws MPIException {
        return start(c, s -> CommCollectives.reduceScatter(c, s, sendbuf, recvbuf, null, recvcount, type, op, false),
                sendbuf, recvbuf);
    }

    static Request iReduceScatterBlock(CommState c, @Nullable Buffer buf, int count, @Nullable Datatype type,
            @Nullable Op op) throws MPIException {
        return start(c, s -> CommCollectives.reduceScatter(c, s, null, buf, null, count, type, op, true), buf);
    }

    /** An inclusive or exclusive scan laid down in {@code s}; a non-contiguous type packed, unpacked at the end. */
    static void scan(CollectiveSteps s, @Nullable Buffer sendbuf, @Nullable Buffer recvbuf, int count,
            @Nullable Datatype type, @Nullable Op op, boolean inPlace, boolean exclusive) {
        Reduction r = reduction(op, type);
        Side out = Side.of(recvbuf, count, type, inPlace || exclusive, true);
        Side in = inPlace ? out : Side.of(sendbuf, count, type, true, false);
        ReductionCollectives.scan(s, inPlace ? null : in.buf, out.buf, out.elements, out.base, r, inPlace, exclusive);
        s.local(out::done);
    }

    /** Lays a neighbourhood collective's steps down for this rank's neighbourhood {@code n}. */
    @FunctionalInterface
    interface NeighbourSchedule {
        void record(CollectiveSteps steps, Neighbours n);
    }

    /** Starts the neighbourhood collective {@code plan} on this rank's neighbourhood in {@code comm}. */
    static Request startNeighbourhood(Comm comm, NeighbourSchedule plan, @Nullable Buffer sendbuf,
            @Nullable Buffer recvbuf) throws MPIException {
        CommState c = comm.state();
        return start(c, s -> plan.record(s, CommCollectives.topology(comm, c)), sendbuf, recvbuf);
    }

    static Request iNeighborAllGather(Comm comm, @Nullable Buffer sendbuf, int sendcount,
            @Nullable Datatype sendtype, @Nullable Buffer recvbuf, int recvcount, @Nullable Datatype recvtype)
            throws MPIException {
        return startNeighbourhood(comm, (s, n) -> {
            Side in = Side.of(sendbuf, sendcount, sendtype, true, false);
            Side out = CommCollectives.neighbourReceive(n, recvbuf, blocks(recvcount, n.sources().length), null,
                    recvtype);
            NeighbourCollectives.schedule(s, n, in.buf, in.elements, null, null, in.base, out.buf,
                    present(out.counts), out.displs, out.base);
            s.local(out::done);
        }, sendbuf, recvbuf);
    }

    static Request iNeighborAllGatherv(Comm comm, @Nullable Buffer sendbuf, int sendcount,
            @Nullable Datatype sendtype, @Nullable Buffer recvbuf, int[] recvcount, int[] displs,
            @Nullable Datatype recvtype) throws MPIException {
        return startNeighbourhood(comm, (s, n) -> {
            Side in = Side.of(sendbuf, sendcount, sendtype, true, false);
            Side out = CommCollectives.neighbourReceive(n, recvbuf, recvcount, displs, recvtype);
            NeighbourCollectives.schedule(s, n, in.buf, in.elements, null, null, in.base, out.buf,
                    present(out.counts), out.displs, out.base);
            s.local(out::done);
        }, sendbuf, recvbuf);
    }

    static Request iNeighborAllToAll(Comm comm, @Nullable Buffer sendbuf, int sendcount, @Nullable Datatype sendtype,
            @Nullable Buffer recvbuf, int recvcount, @Nullable Datatype recvtype)
            throws MPIException {
        return startNeighbourhood(comm, (s, n) -> {
            Side in = Side.blocks(sendbuf, blocks(sendcount, n.destinations().length), null, sendtype, true, false);
            Side out = CommCollectives.neighbourReceive(n, recvbuf, blocks(recvcount, n.sources().length), null,
                    recvtype);
            NeighbourCollectives.schedule(s, n, in.buf, 0, present(in.counts), in.displs, in.base, out.buf,
                    present(out.counts), out.displs, out.base);
            s.local(out::done);
        }, sendbuf, recvbuf);
    }

    static Request iNeighborAllToAllv(Comm comm, @Nullable Buffer sendbuf, int[] sendcount, int[] sdispls,
            @Nullable Datatype sendtype, @Nullable Buffer recvbuf, int[] recvcount, int[] rdispls,
            @Nullable Datatype recvtype) throws MPIException {
        return startNeighbourhood(comm, (s, n) -> {
            Side in = Side.blocks(sendbuf, present(sendcount), sdispls, sendtype, true, false);
            Side out = CommCollectives.neighbourReceive(n, recvbuf, recvcount, rdispls, recvtype);
            NeighbourCollectives.schedule(s, n, in.buf, 0, present(in.counts), in.displs, in.base, out.buf,
                    present(out.counts), out.displs, out.base);
            s.local(out::done);
        }, sendbuf, recvbuf);
    }

    static Request iAllToAllw(CommState c, @Nullable Buffer sendBuf, int[] sendCount, int[] sDispls,
            Datatype[] sendTypes, @Nullable Buffer recvBuf, int[] recvCount, int[] rDispls,
            Datatype[] recvTypes) throws MPIException {
        return start(c, steps -> {
            Staged s = CommCollectives.stagedSend(c, sendBuf, sendCount, sDispls, sendTypes, recvCount);
            Staged r = Staged.typed(recvBuf, recvCount, rDispls, CommCollectives.maps(recvTypes, recvCount), false,
                    true);
            Collectives.allToAllv(steps, s.array(), s.counts(), s.displs(), s.wireBase(), r.array(), r.counts(),
                    r.displs(), r.wireBase());
            steps.local(r::scatter);
        }, sendBuf, recvBuf);
    }
}
