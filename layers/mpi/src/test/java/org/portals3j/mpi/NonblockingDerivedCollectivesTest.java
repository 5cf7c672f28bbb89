package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.Buffer;
import java.util.stream.Stream;
import mpi.CartComm;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The nonblocking data-movement collectives (iBcast, iGather(v), iScatter(v), iAllGather(v), iAllToAll(v) and the
 * neighbourhood ones, with their in-place and root-only forms) on a vector, an indexed and a struct type, on 1 to 4
 * ranks over inmem and 3 over udp (the vector on 8 over inmem too), several outstanding at once: every element of
 * every buffer checked, the data where the type puts it and each gap of a written buffer as it was; the blocking
 * neighbourhood collectives on the same types.
 */
class NonblockingDerivedCollectivesTest {
    /** The gaps of a buffer a call writes. */
    private static final int GAP = -7;
    /** The gaps of a buffer a call only reads. */
    private static final int SENT_GAP = -9;

    /** Every layout on 1 to 4 ranks over inmem and on 3 over udp; the vector on 8 over inmem. */
    static Stream<Arguments> layoutsAndSizes() {
        return Stream.concat(Stream.of(Layout.values()).flatMap(l -> Stream.of(
                Arguments.of(l, "inmem", 1), Arguments.of(l, "inmem", 2), Arguments.of(l, "inmem", 3),
                Arguments.of(l, "inmem", 4), Arguments.of(l, "udp", 3))),
                Stream.of(Arguments.of(Layout.VECTOR, "inmem", 8)));
    }

    /** Counts of 1, 2, 1, 2 ... items per rank. */
    private static int[] counts(int n) {
        int[] counts = new int[n];
        for (int r = 0; r < n; r++) {
            counts[r] = r % 2 + 1;
        }
        return counts;
    }

    /** Displacements of {@code counts}' blocks in reversed rank order (the last rank's block first). */
    private static int[] reversed(int[] counts) {
        int[] displs = new int[counts.length];
        int at = 0;
        for (int r = counts.length - 1; r >= 0; r--) {
            displs[r] = at;
            at += counts[r];
        }
        return displs;
    }

    private static int total(int[] counts) {
        int t = 0;
        for (int c : counts) {
            t += c;
        }
        return t;
    }

    private static void waitAll(Request... requests) throws Exception {
        for (int i = requests.length - 1; i >= 0; i--) {
            requests[i].waitFor();
        }
    }

    @ParameterizedTest
    @MethodSource("layoutsAndSizes")
    void rootedCollectives(Layout l, String transport, int n) throws Exception {
        MpiJob.run(transport, n, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            Datatype t = l.type();
            int root = n - 1;
            boolean atRoot = rank == root;
            int per = l.data.length;
            int[] counts = counts(n);
            int[] displs = reversed(counts);
            int total = total(counts);

            Buffer bcast = l.wrap(atRoot ? l.items(root, 0, 2, SENT_GAP) : l.blank(2, GAP));
            Buffer gathered = l.wrap(l.blank(2 * n, GAP));
            Buffer gatheredFromBasic = l.wrap(l.blank(2 * n, GAP));
            int[] ownBlock = l.blank(2 * n, GAP);
            l.put(ownBlock, 2 * rank, rank, 0);
            l.put(ownBlock, 2 * rank + 1, rank, 1);
            Buffer gatheredInPlace = l.wrap(atRoot ? ownBlock : l.items(rank, 0, 2, SENT_GAP));
            Buffer gatheredV = l.wrap(l.blank(total + 1, GAP));
            int[] ownV = l.blank(total + 1, GAP);
            for (int k = 0; k < counts[rank]; k++) {
                l.put(ownV, displs[rank] + k, rank, k);
            }
            Buffer gatheredVRootOnly = l.wrap(atRoot ? ownV : l.items(rank, 0, counts[rank], SENT_GAP));

            int[] scatterImage = l.blank(2 * n, SENT_GAP);
            int[] scatterVImage = l.blank(total + 1, SENT_GAP);
            for (int r = 0; r < n; r++) {
                for (int k = 0; k < 2; k++) {
                    l.put(scatterImage, 2 * r + k, r, 10 + k);
                }
                for (int k = 0; k < counts[r]; k++) {
                    l.put(scatterVImage, displs[r] + k, r, 20 + k);
                }
            }
            Buffer scattered = l.wrap(l.blank(2, GAP));
            Buffer scatteredToBasic = l.wrap(new int[2 * per]);
            Buffer scatteredInPlace = l.wrap(atRoot ? scatterImage : l.blank(2, GAP));
            Buffer scatteredV = l.wrap(l.blank(counts[rank], GAP));
            Buffer scatteredVRootOnly = l.wrap(atRoot ? scatterVImage : l.blank(counts[rank], GAP));

            Request[] outstanding = {
                world.iBcast(bcast, 2, t, root),
                world.iGather(l.wrap(l.items(rank, 0, 2, SENT_GAP)), 2, t, gathered, 2, t, root),
                world.iGather(l.wrap(l.packed(rank, 0, 2)), 2 * per, l.basic(), gatheredFromBasic, 2, t, root),
                world.iGather(gatheredInPlace, 2, t, root),
                world.iGatherv(l.wrap(l.items(rank, 0, counts[rank], SENT_GAP)), counts[rank], t, gatheredV, counts,
                        displs, t, root),
                atRoot ? world.iGatherv(gatheredVRootOnly, counts, displs, t, root)
                        : world.iGatherv(gatheredVRootOnly, counts[rank], t, root),
                world.iScatter(l.wrap(scatterImage), 2, t, scattered, 2, t, root),
                world.iScatter(l.wrap(scatterImage), 2, t, scatteredToBasic, 2 * per, l.basic(), root),
                world.iScatter(scatteredInPlace, 2, t, root),
                world.iScatterv(l.wrap(scatterVImage), counts, displs, t, scatteredV, counts[rank], t, root),
                atRoot ? world.iScatterv(scatteredVRootOnly, counts, displs, t, root)
                        : world.iScatterv(scatteredVRootOnly, counts[rank], t, root),
            };
            waitAll(outstanding);

            assertThat(Layout.image(bcast)).as("bcast").containsExactly(l.items(root, 0, 2,
                    atRoot ? SENT_GAP : GAP));
            int[] all = l.blank(2 * n, GAP);
            for (int r = 0; r < n; r++) {
                l.put(all, 2 * r, r, 0);
                l.put(all, 2 * r + 1, r, 1);
            }
            int[] allV = l.blank(total + 1, GAP);
            for (int r = 0; r < n; r++) {
                for (int k = 0; k < counts[r]; k++) {
                    l.put(allV, displs[r] + k, r, k);
                }
            }
            if (atRoot) {
                assertThat(Layout.image(gathered)).as("gather").containsExactly(all);
                assertThat(Layout.image(gatheredFromBasic)).as("gather of a basic type").containsExactly(all);
                assertThat(Layout.image(gatheredInPlace)).as("gather in place").containsExactly(all);
                assertThat(Layout.image(gatheredV)).as("gatherv").containsExactly(allV);
                assertThat(Layout.image(gatheredVRootOnly)).as("gatherv at the root").containsExactly(allV);
                assertThat(Layout.image(scatteredInPlace)).as("the root's scatter buffer is only read")
                        .containsExactly(scatterImage);
                assertThat(Layout.image(scatteredVRootOnly)).as("the root's scatterv buffer is only read")
                        .containsExactly(scatterVImage);
            } else {
                assertThat(Layout.image(gathered)).as("a non-root's receive buffer").containsExactly(l.blank(2 * n,
                        GAP));
                assertThat(Layout.image(gatheredInPlace)).as("a non-root's in-place buffer is only read")
                        .containsExactly(l.items(rank, 0, 2, SENT_GAP));
                assertThat(Layout.image(gatheredVRootOnly)).as("a non-root's gatherv buffer is only read")
                        .containsExactly(l.items(rank, 0, counts[rank], SENT_GAP));
                assertThat(Layout.image(scatteredInPlace)).as("scatter in place")
                        .containsExactly(l.items(rank, 10, 2, GAP));
                assertThat(Layout.image(scatteredVRootOnly)).as("scatterv at a non-root")
                        .containsExactly(l.items(rank, 20, counts[rank], GAP));
            }
            assertThat(Layout.image(scattered)).as("scatter").containsExactly(l.items(rank, 10, 2, GAP));
            assertThat(Layout.image(scatteredToBasic)).as("scatter to a basic type")
                    .containsExactly(l.packed(rank, 10, 2));
            assertThat(Layout.image(scatteredV)).as("scatterv").containsExactly(l.items(rank, 20, counts[rank], GAP));
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @MethodSource("layoutsAndSizes")
    void allGatherAndAllToAll(Layout l, String transport, int n) throws Exception {
        MpiJob.run(transport, n, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            Datatype t = l.type();
            int per = l.data.length;
            int[] counts = counts(n);
            int[] displs = reversed(counts);
            int total = total(counts);

            Buffer gathered = l.wrap(l.blank(2 * n, GAP));
            int[] own = l.blank(2 * n, GAP);
            l.put(own, 2 * rank, rank, 0);
            l.put(own, 2 * rank + 1, rank, 1);
            Buffer gatheredInPlace = l.wrap(own);
            Buffer gatheredV = l.wrap(l.blank(total + 1, GAP));
            int[] ownV = l.blank(total + 1, GAP);
            for (int k = 0; k < counts[rank]; k++) {
                l.put(ownV, displs[rank] + k, rank, k);
            }
            Buffer gatheredVInPlace = l.wrap(ownV);

            // allToAll: item 2 j + k of this rank's data goes to rank j
            int[] toAll = l.blank(2 * n, SENT_GAP);
            for (int j = 0; j < n; j++) {
                l.put(toAll, 2 * j, rank, 2 * j);
                l.put(toAll, 2 * j + 1, rank, 2 * j + 1);
            }
            Buffer exchanged = l.wrap(l.blank(2 * n, GAP));
            Buffer exchangedToBasic = l.wrap(new int[2 * n * per]);
            // allToAllv from the basic type: items 5 j ... 5 j + counts[j] - 1 to rank j, packed one after another
            int[] basicOut = new int[total * per];
            int[] basicCounts = new int[n];
            int[] basicDispls = new int[n];
            for (int j = 0, at = 0; j < n; j++) {
                System.arraycopy(l.packed(rank, 5 * j, counts[j]), 0, basicOut, at, counts[j] * per);
                basicCounts[j] = counts[j] * per;
                basicDispls[j] = at;
                at += counts[j] * per;
            }
            int mine = counts[rank];
            int[] fromEach = new int[n];
            int[] reversedBlocks = new int[n];
            for (int s = 0; s < n; s++) {
                fromEach[s] = mine;
                reversedBlocks[s] = (n - 1 - s) * mine;
            }
            Buffer exchangedV = l.wrap(l.blank(n * mine + 1, GAP));

            Request[] outstanding = {
                world.iAllGather(l.wrap(l.items(rank, 0, 2, SENT_GAP)), 2, t, gathered, 2, t),
                world.iAllGather(gatheredInPlace, 2, t),
                world.iAllGatherv(l.wrap(l.items(rank, 0, counts[rank], SENT_GAP)), counts[rank], t, gatheredV,
                        counts, displs, t),
                world.iAllGatherv(gatheredVInPlace, counts, displs, t),
                world.iAllToAll(l.wrap(toAll), 2, t, exchanged, 2, t),
                world.iAllToAll(l.wrap(toAll), 2, t, exchangedToBasic, 2 * per, l.basic()),
                world.iAllToAllv(l.wrap(basicOut), basicCounts, basicDispls, l.basic(), exchangedV, fromEach,
                        reversedBlocks, t),
            };
            waitAll(outstanding);

            int[] all = l.blank(2 * n, GAP);
            int[] allV = l.blank(total + 1, GAP);
            int[] fromAll = l.blank(2 * n, GAP);
            int[] fromAllPacked = new int[2 * n * per];
            int[] fromAllV = l.blank(n * mine + 1, GAP);
            for (int r = 0; r < n; r++) {
                for (int k = 0; k < 2; k++) {
                    l.put(all, 2 * r + k, r, k);
                    l.put(fromAll, 2 * r + k, r, 2 * rank + k);
                }
                for (int k = 0; k < counts[r]; k++) {
                    l.put(allV, displs[r] + k, r, k);
                }
                System.arraycopy(l.packed(r, 2 * rank, 2), 0, fromAllPacked, 2 * r * per, 2 * per);
                for (int k = 0; k < mine; k++) {
                    l.put(fromAllV, reversedBlocks[r] + k, r, 5 * rank + k);
                }
            }
            assertThat(Layout.image(gathered)).as("allGather").containsExactly(all);
            assertThat(Layout.image(gatheredInPlace)).as("allGather in place").containsExactly(all);
            assertThat(Layout.image(gatheredV)).as("allGatherv").containsExactly(allV);
            assertThat(Layout.image(gatheredVInPlace)).as("allGatherv in place").containsExactly(allV);
            assertThat(Layout.image(exchanged)).as("allToAll").containsExactly(fromAll);
            assertThat(Layout.image(exchangedToBasic)).as("allToAll to a basic type").containsExactly(fromAllPacked);
            assertThat(Layout.image(exchangedV)).as("allToAllv from a basic type").containsExactly(fromAllV);
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @MethodSource("layoutsAndSizes")
    void neighbourhoodOnALine(Layout l, String transport, int n) throws Exception {
        MpiJob.run(transport, n, rank -> {
            MPI.Init(new String[0]);
            Datatype t = l.type();
            // a non-periodic line: the ends have a PROC_NULL neighbour, whose blocks must stay as they were
            CartComm line = MPI.COMM_WORLD.createCart(new int[] {n}, new boolean[] {false}, false);
            int left = rank - 1;
            int right = rank + 1 < n ? rank + 1 : -1;
            int junk = 9;
            int[] expectedGather = l.items(junk, 0, 4, GAP);
            int[] expectedGatherV = l.items(junk, 0, 5, GAP);
            int[] expectedToAll = l.items(junk, 0, 2, GAP);
            int[] expectedToAllV = l.items(junk, 0, 4, GAP);
            for (int k = 0; k < 2; k++) {
                if (left >= 0) {
                    l.put(expectedGather, k, left, k);
                    l.put(expectedGatherV, 2 + k, left, k);
                    l.put(expectedToAllV, 1 + k, left, 1 + k);
                }
                if (right >= 0) {
                    l.put(expectedGather, 2 + k, right, k);
                    l.put(expectedGatherV, k, right, k);
                }
            }
            if (left >= 0) {
                l.put(expectedToAll, 0, left, 1);
            }
            if (right >= 0) {
                l.put(expectedToAll, 1, right, 0);
                l.put(expectedToAllV, 3, right, 0);
            }
            int[] twoItems = l.items(rank, 0, 2, SENT_GAP);
            int[] threeItems = l.items(rank, 0, 3, SENT_GAP);
            int[] countsV = {1, 2};
            int[] sendDisplsV = {0, 1};
            int[] recvCountsV = {2, 1};
            int[] recvDisplsV = {1, 3};
            for (boolean nonblocking : new boolean[] {true, false}) {
                Buffer gathered = l.wrap(l.items(junk, 0, 4, GAP));
                Buffer gatheredV = l.wrap(l.items(junk, 0, 5, GAP));
                Buffer toAll = l.wrap(l.items(junk, 0, 2, GAP));
                Buffer toAllV = l.wrap(l.items(junk, 0, 4, GAP));
                if (nonblocking) {
                    waitAll(line.iNeighborAllGather(l.wrap(twoItems), 2, t, gathered, 2, t),
                            line.iNeighborAllGatherv(l.wrap(twoItems), 2, t, gatheredV, new int[] {2, 2},
                                    new int[] {2, 0}, t),
                            line.iNeighborAllToAll(l.wrap(twoItems), 1, t, toAll, 1, t),
                            line.iNeighborAllToAllv(l.wrap(threeItems), countsV, sendDisplsV, t, toAllV,
                                    recvCountsV, recvDisplsV, t));
                } else {
                    line.neighborAllGather(l.wrap(twoItems), 2, t, gathered, 2, t);
                    line.neighborAllGatherv(l.wrap(twoItems), 2, t, gatheredV, new int[] {2, 2}, new int[] {2, 0},
                            t);
                    line.neighborAllToAll(l.wrap(twoItems), 1, t, toAll, 1, t);
                    line.neighborAllToAllv(l.wrap(threeItems), countsV, sendDisplsV, t, toAllV, recvCountsV,
                            recvDisplsV, t);
                }
                String form = nonblocking ? "nonblocking " : "blocking ";
                assertThat(Layout.image(gathered)).as(form + "neighborAllGather").containsExactly(expectedGather);
                assertThat(Layout.image(gatheredV)).as(form + "neighborAllGatherv")
                        .containsExactly(expectedGatherV);
                assertThat(Layout.image(toAll)).as(form + "neighborAllToAll").containsExactly(expectedToAll);
                assertThat(Layout.image(toAllV)).as(form + "neighborAllToAllv").containsExactly(expectedToAllV);
            }
            MPI.Finalize();
        });
    }
}
