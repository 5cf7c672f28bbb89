package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.mpi.StridedInts.GAP;
import static org.portals3j.mpi.StridedInts.ends;
import static org.portals3j.mpi.StridedInts.strided;
import static org.portals3j.mpi.StridedInts.sum;
import static org.portals3j.mpi.StridedInts.sums;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Op;
import mpi.UserFunction;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * reduceScatter, reduceScatterBlock, scan, exScan and reduceLocal on a strided type (two ints of every four): the
 * packed elements reduced, the results scattered into the strided layout with the gaps untouched; a user-defined
 * operation on a strided type gets the packed ints as {@code MPI.INT}; any operation on a strided struct type is
 * ERR_OP.
 */
class DerivedReductionsTest {
    @ParameterizedTest
    @CsvSource({"inmem,1", "inmem,3", "inmem,4", "inmem,8", "udp,3"})
    void reduceScatterOfAStridedType(String transport, int n) throws Exception {
        MpiJob.run(transport, n, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            Datatype t = ends();
            int[] block = {GAP, GAP, GAP, GAP};
            world.reduceScatterBlock(strided(rank, n), block, 1, t, MPI.SUM);
            assertThat(block).containsExactly(sum(n, rank, 0), GAP, GAP, sum(n, rank, 1));

            int[] counts = new int[n];
            int total = 0;
            int first = 0;
            for (int i = 0; i < n; i++) {
                counts[i] = i % 2 + 1;
                first += i < rank ? counts[i] : 0;
                total += counts[i];
            }
            int[] mine = new int[4 * counts[rank]];
            Arrays.fill(mine, GAP);
            world.reduceScatter(strided(rank, total), mine, counts, t, MPI.SUM);
            for (int k = 0; k < counts[rank]; k++) {
                assertThat(new int[] {mine[4 * k], mine[4 * k + 1], mine[4 * k + 2], mine[4 * k + 3]})
                        .containsExactly(sum(n, first + k, 0), GAP, GAP, sum(n, first + k, 1));
            }

            int[] inPlace = strided(rank, n);
            world.reduceScatterBlock(inPlace, 1, t, MPI.SUM);
            int[] expected = strided(rank, n);
            expected[0] = sum(n, rank, 0);
            expected[3] = sum(n, rank, 1);
            assertThat(inPlace).as("this rank's block written, the rest of the buffer as it was")
                    .containsExactly(expected);
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @CsvSource({"inmem,1", "inmem,4", "inmem,8", "udp,3"})
    void scansOfAStridedType(String transport, int n) throws Exception {
        MpiJob.run(transport, n, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            Datatype t = ends();
            int[] in = strided(rank + 1, 2);
            int prefix = 100 * (rank + 1) * (rank + 2) / 2;
            int[] out = new int[8];
            Arrays.fill(out, GAP);
            world.scan(in, out, 2, t, MPI.SUM);
            assertThat(out).containsExactly(prefix, GAP, GAP, prefix + (rank + 1), prefix + 10 * (rank + 1), GAP,
                    GAP, prefix + 11 * (rank + 1));

            int[] inPlace = strided(rank + 1, 2);
            world.scan(inPlace, 2, t, MPI.SUM);
            assertThat(inPlace).containsExactly(out);

            int[] ex = new int[8];
            Arrays.fill(ex, 5);
            world.exScan(in, ex, 2, t, MPI.SUM);
            if (rank == 0) {
                assertThat(ex).as("rank 0's receive buffer left as it was").containsOnly(5);
            } else {
                int before = 100 * rank * (rank + 1) / 2;
                assertThat(ex).containsExactly(before, 5, 5, before + rank, before + 10 * rank, 5, 5,
                        before + 11 * rank);
            }
            MPI.Finalize();
        });
    }

    @Test
    void reduceLocalOfAStridedTypeOnABuffer() throws Exception {
        MpiJob.run(1, rank -> {
            MPI.Init(new String[0]);
            Datatype t = ends();
            int[] in = strided(1, 2);
            IntBuffer inOut = IntBuffer.wrap(strided(2, 2));
            Intracomm.reduceLocal(in, inOut, 2, t, MPI.PROD);
            assertThat(inOut.array()).containsExactly(100 * 200, GAP, GAP, 101 * 201, 110 * 210, GAP, GAP,
                    111 * 211);
            MPI.Finalize();
        });
    }

    /** A user-defined sum of ints that records a call whose arguments are not {@code count} packed ints. */
    private static Op userSum(AtomicReference<@Nullable String> wrong) {
        return new Op(new UserFunction() {
            @Override
            public void call(Object inVec, Object inOutVec, int count, Datatype datatype) {
                int[] in = (int[]) inVec;
                int[] inOut = (int[]) inOutVec;
                if (datatype != MPI.INT || in.length != count || inOut.length != count) {
                    wrong.compareAndSet(null, "called with " + count + " items of " + datatype + " in arrays of "
                            + in.length + " and " + inOut.length);
                }
                for (int i = 0; i < count; i++) {
                    inOut[i] += in[i];
                }
            }
        }, true);
    }

    @ParameterizedTest
    @CsvSource({"inmem,1", "inmem,3", "inmem,4", "inmem,8", "udp,3"})
    void userOperationsOnAStridedTypeGetThePackedInts(String transport, int n) throws Exception {
        MpiJob.run(transport, n, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            Datatype t = ends();
            AtomicReference<@Nullable String> wrong = new AtomicReference<>();
            Op sum = userSum(wrong);
            int[] expected = sums(n, 2);
            int[] all = new int[8];
            Arrays.fill(all, GAP);
            world.allReduce(strided(rank, 2), all, 2, t, sum);
            assertThat(all).containsExactly(expected);
            int[] atRoot = new int[8];
            Arrays.fill(atRoot, GAP);
            world.reduce(strided(rank, 2), atRoot, 2, t, sum, 0);
            if (rank == 0) {
                assertThat(atRoot).containsExactly(expected);
            }
            int[] block = {GAP, GAP, GAP, GAP};
            world.reduceScatterBlock(strided(rank, n), block, 1, t, sum);
            assertThat(block).containsExactly(sum(n, rank, 0), GAP, GAP, sum(n, rank, 1));
            int[] prefix = new int[8];
            Arrays.fill(prefix, GAP);
            world.scan(strided(rank, 2), prefix, 2, t, sum);
            assertThat(prefix[0]).isEqualTo(sum(rank + 1, 0, 0));
            assertThat(prefix[7]).isEqualTo(sum(rank + 1, 1, 1));
            assertThat(prefix[1]).isEqualTo(GAP);
            int[] nonblocking = strided(rank, 2);
            world.iAllReduce(IntBuffer.wrap(nonblocking), 2, t, sum).waitFor();
            assertThat(nonblocking).containsExactly(expected);
            int[] local = strided(2, 2);
            Intracomm.reduceLocal(strided(1, 2), local, 2, t, sum);
            assertThat(local).containsExactly(300, GAP, GAP, 302, 320, GAP, GAP, 322);
            assertThat(Objects.requireNonNullElse(wrong.get(), "")).as("the user function's arguments").isEmpty();
            MPI.Finalize();
        });
    }

    @Test
    void operationsOnAStridedStructTypeAreErrOp() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            Datatype t = ends();
            Op mine = new Op(new UserFunction() { }, true);
            int[] buf = strided(rank, 2);
            int[] out = new int[8];
            Datatype record = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8},
                    new Datatype[] {MPI.INT, MPI.DOUBLE});
            record.commit();
            byte[] bytes = new byte[32];
            assertThat(MpiErrors.errorClassOf(() -> world.reduceScatterBlock(bytes, new byte[16], 1, record,
                    MPI.SUM))).isEqualTo(MPI.ERR_OP);
            assertThat(MpiErrors.errorClassOf(() -> world.allReduce(bytes, new byte[32], 2, record, mine)))
                    .as("a user operation on a staged struct type").isEqualTo(MPI.ERR_OP);
            assertThat(MpiErrors.errorClassOf(() -> world.iAllReduce(ByteBuffer.wrap(bytes), 2, record, mine)))
                    .isEqualTo(MPI.ERR_OP);
            assertThat(MpiErrors.errorClassOf(() -> Intracomm.reduceLocal(bytes, new byte[32], 2, record, mine)))
                    .isEqualTo(MPI.ERR_OP);
            assertThat(MpiErrors.errorClassOf(() -> world.reduceScatter(buf, out, new int[] {1}, t, MPI.SUM)))
                    .as("a count per rank").isEqualTo(MPI.ERR_ARG);
            assertThat(MpiErrors.errorClassOf(() -> world.reduceScatterBlock(buf, out, -1, t, MPI.SUM)))
                    .isEqualTo(MPI.ERR_COUNT);
            world.barrier();
            MPI.Finalize();
        });
    }
}
