package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.Buffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import mpi.Datatype;
import mpi.Intercomm;
import mpi.MPI;
import mpi.Request;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * gatherv, scatterv, allGatherv, allToAllv, allToAllw, reduce, allReduce, reduceScatter and reduceScatterBlock on an
 * intercommunicator (the even and the odd world ranks), blocking and nonblocking, on derived types (strided,
 * indexed, struct; counts differing per rank, displacements leaving a gap item between blocks), 2 to 8 ranks over
 * inmem and 3 over udp: every element of every buffer checked, gaps and holes as they were, every buffer of the
 * root's group that MPI leaves insignificant untouched (and null accepted where it is insignificant).
 */
class InterDerivedVectorCollectivesTest {
    /** The gaps of a buffer a call writes. */
    private static final int GAP = -7;
    /** The gaps of a buffer a call only reads. */
    private static final int SENT_GAP = -9;
    /** The rank whose items fill the buffers that no call may write. */
    private static final int JUNK = 9;

    /** Block r of a v-collective: {@code r % 3 + 1} items. */
    private static int count(int r) {
        return r % 3 + 1;
    }

    /** The items of the blocks before block {@code r}, with one gap item after each. */
    private static int displ(int r) {
        int d = 0;
        for (int i = 0; i < r; i++) {
            d += count(i) + 1;
        }
        return d;
    }

    private static int[] counts(int n) {
        int[] c = new int[n];
        for (int r = 0; r < n; r++) {
            c[r] = count(r);
        }
        return c;
    }

    private static int[] displs(int n) {
        int[] d = new int[n];
        for (int r = 0; r < n; r++) {
            d[r] = displ(r);
        }
        return d;
    }

    /** The counts of the allToAll(v/w) block between local rank {@code a} of one group and {@code b} of the other. */
    private static int pair(int a, int b) {
        return (a + b) % 3 + 1;
    }

    @ParameterizedTest
    @CsvSource({"VECTOR,inmem,2", "VECTOR,inmem,3", "INDEXED,inmem,5", "VECTOR,inmem,8", "STRUCT,inmem,4",
        "STRUCT,udp,3", "INDEXED,udp,3"})
    void vectorCollectivesOfDerivedTypesBetweenTheGroups(Layout l, String transport, int size) throws Exception {
        MpiJob.run(transport, size, rank -> {
            MPI.Init(new String[0]);
            Intercomm inter = EvenOddGroups.intercomm(rank, 83);
            Datatype t = l.type();
            int colour = rank % 2;
            int me = rank / 2;
            int remote = EvenOddGroups.size(size, 1 - colour);
            int[] rc = counts(remote);
            int[] rd = displs(remote);
            int span = displ(remote);
            for (boolean nonblocking : new boolean[] {false, true}) {
                String form = nonblocking ? "nonblocking " : "blocking ";
                // gatherv to world rank 1 (the odd group's root) from the even group; scatterv from world rank 0
                int gatherRoot = EvenOddGroups.root(rank, 1);
                int scatterRoot = EvenOddGroups.root(rank, 0);
                int[] junk = l.items(JUNK, 0, 2, GAP);
                Buffer gatherSource = colour == 0 ? l.wrap(l.items(rank, 0, count(me), SENT_GAP)) : l.wrap(junk);
                Buffer gathered = gatherRoot == MPI.ROOT ? l.wrap(l.blank(span, GAP)) : l.wrap(junk);
                int[] scatterImage = l.blank(span, SENT_GAP);
                for (int r = 0; r < remote; r++) {
                    for (int k = 0; k < count(r); k++) {
                        l.put(scatterImage, displ(r) + k, 2 * r + 1, 10 + k);
                    }
                }
                @Nullable Buffer scatterSource = scatterRoot == MPI.ROOT ? l.wrap(scatterImage) : null;
                Buffer scattered = colour == 1 ? l.wrap(l.blank(count(me) + 1, GAP)) : l.wrap(junk);
                Buffer allSource = l.wrap(l.items(rank, 0, count(me), SENT_GAP));
                Buffer all = l.wrap(l.blank(span, GAP));
                // allToAllv: block j (pair(me, j) items) to rank j of the other group, a gap item after each
                int[] sc = new int[remote];
                int[] sd = new int[remote];
                int at = 0;
                for (int j = 0; j < remote; j++) {
                    sc[j] = pair(me, j);
                    sd[j] = at;
                    at += sc[j] + 1;
                }
                int[] toAll = l.blank(at, SENT_GAP);
                for (int j = 0; j < remote; j++) {
                    for (int k = 0; k < sc[j]; k++) {
                        l.put(toAll, sd[j] + k, rank, 3 * j + k);
                    }
                }
                Buffer exchanged = l.wrap(l.blank(at, GAP));
                // allToAllw: the same blocks, byte displacements; the odd group receives odd ranks' blocks packed
                int itemBytes = l == Layout.STRUCT ? l.extent : 4 * l.extent;
                int packedBytes = l == Layout.STRUCT ? l.data.length : 4 * l.data.length;
                int[] sdBytes = new int[remote];
                int[] rdBytes = new int[remote];
                Datatype[] sendTypes = new Datatype[remote];
                Datatype[] recvTypes = new Datatype[remote];
                int wAt = 0;
                for (int j = 0; j < remote; j++) {
                    sdBytes[j] = sd[j] * itemBytes;
                    sendTypes[j] = t;
                    boolean packed = colour == 1 && j % 2 == 1;
                    recvTypes[j] = packed ? l.basic() : t;
                    rdBytes[j] = wAt;
                    wAt += packed ? sc[j] * packedBytes : (sc[j] + 1) * itemBytes;
                }
                int[] wCounts = sc.clone();
                for (int j = 0; j < remote; j++) {
                    if (recvTypes[j] != t) {
                        wCounts[j] = sc[j] * l.data.length;
                    }
                }
                int wLength = wAt / (l == Layout.STRUCT ? 1 : 4);
                int[] wBlank = new int[wLength];
                Arrays.fill(wBlank, GAP);
                Buffer exchangedW = l.wrap(wBlank);
                if (nonblocking) {
                    Request[] rs = {
                        inter.iGatherv(gatherSource, count(me), t, gathered, rc, rd, t, gatherRoot),
                        inter.iScatterv(scatterSource, rc, rd, t, scattered, count(me), t, scatterRoot),
                        inter.iAllGatherv(allSource, count(me), t, all, rc, rd, t),
                        inter.iAllToAllv(l.wrap(toAll), sc, sd, t, exchanged, sc, sd, t),
                        inter.iAllToAllw(l.wrap(toAll), sc, sdBytes, sendTypes, exchangedW, wCounts, rdBytes,
                                recvTypes),
                    };
                    Request.waitAll(rs);
                } else {
                    inter.gatherv(gatherSource, count(me), t, gathered, rc, rd, t, gatherRoot);
                    inter.scatterv(scatterSource, rc, rd, t, scattered, count(me), t, scatterRoot);
                    inter.allGatherv(allSource, count(me), t, all, rc, rd, t);
                    inter.allToAllv(l.wrap(toAll), sc, sd, t, exchanged, sc, sd, t);
                    inter.allToAllw(l.wrap(toAll), sc, sdBytes, sendTypes, exchangedW, wCounts, rdBytes, recvTypes);
                }

                int[] gatherExpected = junk;
                if (gatherRoot == MPI.ROOT) {
                    gatherExpected = l.blank(span, GAP);
                    for (int r = 0; r < remote; r++) {
                        for (int k = 0; k < count(r); k++) {
                            l.put(gatherExpected, displ(r) + k, 2 * r, k);
                        }
                    }
                }
                assertThat(Layout.image(gathered)).as(form + "gatherv (written at the root only)")
                        .containsExactly(gatherExpected);
                assertThat(Layout.image(gatherSource)).as(form + "gatherv: the send buffer is only read")
                        .containsExactly(colour == 0 ? l.items(rank, 0, count(me), SENT_GAP) : junk);
                if (colour == 1) {
                    int[] expected = l.blank(count(me) + 1, GAP);
                    for (int k = 0; k < count(me); k++) {
                        l.put(expected, k, rank, 10 + k);
                    }
                    assertThat(Layout.image(scattered)).as(form + "scatterv").containsExactly(expected);
                } else {
                    assertThat(Layout.image(scattered)).as(form + "scatterv: the root's group receives nothing")
                            .containsExactly(junk);
                }
                if (scatterSource != null) {
                    assertThat(Layout.image(scatterSource)).as(form + "the scatterv buffer is only read")
                            .containsExactly(scatterImage);
                }
                int[] allExpected = l.blank(span, GAP);
                int[] exchangedExpected = l.blank(at, GAP);
                int[] wExpected = wBlank.clone();
                for (int r = 0; r < remote; r++) {
                    int from = 2 * r + 1 - colour;
                    for (int k = 0; k < count(r); k++) {
                        l.put(allExpected, displ(r) + k, from, k);
                    }
                    for (int k = 0; k < sc[r]; k++) {
                        l.put(exchangedExpected, sd[r] + k, from, 3 * me + k);
                    }
                    int[] block = l.items(from, 3 * me, sc[r], GAP);
                    if (recvTypes[r] != t) {
                        block = l.packed(from, 3 * me, sc[r]);
                    } else {
                        block = Arrays.copyOf(block, block.length + l.extent);
                        Arrays.fill(block, block.length - l.extent, block.length, GAP);
                    }
                    System.arraycopy(block, 0, wExpected, rdBytes[r] / (l == Layout.STRUCT ? 1 : 4), block.length);
                }
                assertThat(Layout.image(all)).as(form + "allGatherv").containsExactly(allExpected);
                assertThat(Layout.image(exchanged)).as(form + "allToAllv").containsExactly(exchangedExpected);
                assertThat(Layout.image(exchangedW)).as(form + "allToAllw").containsExactly(wExpected);
            }
            MPI.Finalize();
        });
    }

    /**
     * reduce (to the odd group's root, null buffers where insignificant), allReduce, reduceScatter and
     * reduceScatterBlock of a strided type between the groups, blocking and nonblocking: each group gets the sums of
     * the other's items (local rank r contributing {@link StridedInts#strided} of r), its gaps as they were.
     */
    @ParameterizedTest
    @CsvSource({"inmem,2", "inmem,3", "inmem,5", "inmem,8", "udp,3"})
    void reductionsOfAStridedTypeBetweenTheGroups(String transport, int size) throws Exception {
        MpiJob.run(transport, size, rank -> {
            MPI.Init(new String[0]);
            Intercomm inter = EvenOddGroups.intercomm(rank, 83);
            Datatype t = StridedInts.ends();
            int colour = rank % 2;
            int me = rank / 2;
            int local = EvenOddGroups.size(size, colour);
            int remote = EvenOddGroups.size(size, 1 - colour);
            // reduceScatter: both groups reduce local * remote items; local rank i gets counts[i] of the other's
            int total = local * remote;
            int[] counts = new int[local];
            for (int i = 0; i < local; i++) {
                counts[i] = i == 0 ? remote + local - 1 : remote - 1;
            }
            int first = 0;
            for (int i = 0; i < me; i++) {
                first += counts[i];
            }
            for (boolean nonblocking : new boolean[] {false, true}) {
                String form = nonblocking ? "nonblocking " : "blocking ";
                int reduceRoot = EvenOddGroups.root(rank, 1);
                @Nullable IntBuffer reduceIn = reduceRoot == 0 ? IntBuffer.wrap(StridedInts.strided(me, 3)) : null;
                @Nullable IntBuffer reduceOut = reduceRoot == MPI.ROOT
                        ? IntBuffer.wrap(StridedInts.strided(JUNK, 3)) : null;
                IntBuffer allOut = IntBuffer.wrap(StridedInts.strided(JUNK, 2));
                IntBuffer scatterIn = IntBuffer.wrap(StridedInts.strided(me, total));
                IntBuffer scatterOut = IntBuffer.wrap(StridedInts.strided(JUNK, counts[me] + 1));
                IntBuffer blockIn = IntBuffer.wrap(StridedInts.strided(me, total));
                IntBuffer blockOut = IntBuffer.wrap(StridedInts.strided(JUNK, remote + 1));
                if (nonblocking) {
                    Request[] rs = {
                        inter.iReduce(reduceIn, reduceOut, 3, t, MPI.SUM, reduceRoot),
                        inter.iAllReduce(IntBuffer.wrap(StridedInts.strided(me, 2)), allOut, 2, t, MPI.SUM),
                        inter.iReduceScatter(scatterIn, scatterOut, counts, t, MPI.SUM),
                        inter.iReduceScatterBlock(blockIn, blockOut, remote, t, MPI.SUM),
                    };
                    Request.waitAll(rs);
                } else {
                    inter.reduce(reduceIn, reduceOut, 3, t, MPI.SUM, reduceRoot);
                    inter.allReduce(StridedInts.strided(me, 2), allOut, 2, t, MPI.SUM);
                    inter.reduceScatter(scatterIn, scatterOut, counts, t, MPI.SUM);
                    inter.reduceScatterBlock(blockIn, blockOut, remote, t, MPI.SUM);
                }
                if (reduceOut != null) {
                    assertThat(reduceOut.array()).as(form + "reduce at the root")
                            .containsExactly(StridedInts.sums(remote, 3));
                }
                if (reduceIn != null) {
                    assertThat(reduceIn.array()).as(form + "reduce: the input is only read")
                            .containsExactly(StridedInts.strided(me, 3));
                }
                assertThat(allOut.array()).as(form + "allReduce").containsExactly(StridedInts.sums(remote, 2));
                assertThat(scatterOut.array()).as(form + "reduceScatter")
                        .containsExactly(expectedSums(remote, first, counts[me], counts[me] + 1));
                assertThat(scatterIn.array()).as(form + "reduceScatter: the input is only read")
                        .containsExactly(StridedInts.strided(me, total));
                assertThat(blockOut.array()).as(form + "reduceScatterBlock")
                        .containsExactly(expectedSums(remote, me * remote, remote, remote + 1));
            }
            MPI.Finalize();
        });
    }

    /**
     * Wrong uses on an intercommunicator with derived types, each giving the reference's error class and leaving the
     * communicator usable: a root that is neither MPI.ROOT, PROC_NULL nor a remote rank (ERR_ROOT), a count array
     * shorter than the remote group (ERR_ARG), an uncommitted type (ERR_TYPE), a sender giving more items than the
     * root expects (ERR_TRUNCATE at the root), and any collective on the freed
     * intercommunicator (ERR_COMM).
     */
    @ParameterizedTest
    @CsvSource({"inmem,4", "udp,3"})
    void wrongUsesGiveTheReferenceErrorClasses(String transport, int size) throws Exception {
        MpiJob.run(transport, size, rank -> {
            MPI.Init(new String[0]);
            Intercomm inter = EvenOddGroups.intercomm(rank, 83);
            Datatype t = StridedInts.ends();
            int colour = rank % 2;
            int remote = EvenOddGroups.size(size, 1 - colour);
            int[] buf = StridedInts.strided(rank, 2 * size);
            assertThat(MpiErrors.errorClassOf(() -> inter.gatherv(buf, 1, t, buf, counts(remote), displs(remote), t,
                    remote))).as("a root beyond the remote group").isEqualTo(MPI.ERR_ROOT);
            assertThat(MpiErrors.errorClassOf(() -> inter.allGatherv(buf, 1, t, buf, new int[remote - 1],
                    new int[remote - 1], t))).as("a short count array").isEqualTo(MPI.ERR_ARG);
            Datatype loose = Datatype.createVector(2, 1, 3, MPI.INT);
            assertThat(MpiErrors.errorClassOf(() -> inter.allGatherv(buf, 1, loose, buf, counts(remote),
                    displs(remote), loose))).as("an uncommitted type").isEqualTo(MPI.ERR_TYPE);
            assertThat(MpiErrors.errorClassOf(() -> inter.iReduceScatterBlock(IntBuffer.wrap(buf),
                    IntBuffer.wrap(buf), 1, loose, MPI.SUM))).as("an uncommitted type, nonblocking")
                    .isEqualTo(MPI.ERR_TYPE);
            // the odd group's root expects one item from each even rank; each sends two
            int gatherRoot = EvenOddGroups.root(rank, 1);
            if (gatherRoot == MPI.ROOT) {
                int[] got = StridedInts.strided(JUNK, remote);
                int[] ones = new int[remote];
                Arrays.fill(ones, 1);
                int[] at = new int[remote];
                for (int r = 0; r < remote; r++) {
                    at[r] = r;
                }
                assertThat(MpiErrors.errorClassOf(() -> inter.gatherv(null, 0, t, got, ones, at, t, gatherRoot)))
                        .as("more items than the root's count").isEqualTo(MPI.ERR_TRUNCATE);
            } else if (gatherRoot == 0) {
                inter.gatherv(StridedInts.strided(rank, 2), 2, t, null, null, null, t, gatherRoot);
            }
            inter.barrier();
            int[] sum = StridedInts.strided(0, 1);
            inter.allReduce(StridedInts.strided(1, 1), sum, 1, t, MPI.SUM);
            assertThat(sum).as("the communicator goes on").containsExactly(100 * remote, GAP, GAP, 101 * remote);
            inter.free();
            assertThat(MpiErrors.errorClassOf(() -> inter.allGatherv(buf, 1, t, buf, counts(remote),
                    displs(remote), t))).as("a freed intercommunicator").isEqualTo(MPI.ERR_COMM);
            assertThat(MpiErrors.errorClassOf(() -> inter.iReduce(IntBuffer.wrap(buf), IntBuffer.wrap(buf), 1, t,
                    MPI.SUM, 0))).as("a freed intercommunicator, nonblocking").isEqualTo(MPI.ERR_COMM);
            MPI.Finalize();
        });
    }

    /**
     * {@code slots} strided items: the first {@code items} the sums over {@code n} ranks of items {@code first..},
     * the rest as {@link StridedInts#strided} of {@link #JUNK} left them.
     */
    private static int[] expectedSums(int n, int first, int items, int slots) {
        int[] b = StridedInts.strided(JUNK, slots);
        for (int k = 0; k < items; k++) {
            b[4 * k] = StridedInts.sum(n, first + k, 0);
            b[4 * k + 3] = StridedInts.sum(n, first + k, 1);
        }
        return b;
    }
}
