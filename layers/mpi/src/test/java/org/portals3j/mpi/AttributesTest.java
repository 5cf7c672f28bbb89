package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import mpi.Comm;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Attribute caching on communicators and datatypes: user keyvals (values kept serialised, copied by dup, dropped
 * by free and deleteAttr), the predefined keys, and wrong use (ERR_KEYVAL).
 */
class AttributesTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4, 8})
    void valuesAreCopiedByDupButNotBySplitAndDroppedByFree(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            int key = Comm.createKeyval();
            assertThat(world.getAttr(key)).isNull();
            List<String> value = new ArrayList<>(List.of("rank", String.valueOf(rank)));
            world.setAttr(key, value);
            Object got = world.getAttr(key);
            assertThat(got).isEqualTo(value).isNotSameAs(value);
            value.add("changed later");
            assertThat(world.getAttr(key)).isEqualTo(List.of("rank", String.valueOf(rank)));
            Intracomm dup = world.dup();
            Intracomm idup = world.iDup();
            MpiJob.present(idup.getRequest()).waitFor();
            assertThat(dup.getAttr(key)).isEqualTo(List.of("rank", String.valueOf(rank)));
            assertThat(idup.getAttr(key)).isEqualTo(List.of("rank", String.valueOf(rank)));
            assertThat(world.split(0, rank).getAttr(key)).isNull();
            dup.setAttr(key, 7);
            assertThat(world.getAttr(key)).isInstanceOf(List.class);
            dup.deleteAttr(key);
            assertThat(dup.getAttr(key)).isNull();
            dup.deleteAttr(key); // none there: nothing happens
            idup.free();
            assertThat(world.getAttr(key)).isNotNull();
            world.setAttr(key, null);
            assertThat(world.getAttr(key)).isNull();
            world.deleteAttr(key);
            Comm.freeKeyval(key);
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void predefinedKeysGiveMpisValuesOnWorldAndItsDups(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            for (Comm c : new Comm[] {world, world.dup()}) {
                assertThat(c.getAttr(MPI.TAG_UB)).isEqualTo(Integer.MAX_VALUE);
                assertThat(c.getAttr(MPI.HOST)).isEqualTo(MPI.PROC_NULL);
                assertThat(c.getAttr(MPI.IO)).isEqualTo(MPI.ANY_SOURCE);
                assertThat(c.getAttr(MPI.WTIME_IS_GLOBAL)).isEqualTo(Boolean.FALSE);
                assertThat(c.getAttr(MPI.APPNUM)).isEqualTo(0);
                assertThat(c.getAttr(MPI.LASTUSEDCODE)).isEqualTo(MPI.ERR_LASTCODE);
                assertThat(c.getAttr(MPI.UNIVERSE_SIZE)).isEqualTo(size);
            }
            assertThat(world.split(0, 0).getAttr(MPI.TAG_UB)).isNull();
            assertThat(MPI.COMM_SELF.getAttr(MPI.TAG_UB)).isNull();
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void wrongUseIsErrKeyval(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            int key = Comm.createKeyval();
            world.setAttr(key, "v");
            Comm.freeKeyval(key);
            assertThat(MpiErrors.errorClassOf(() -> world.getAttr(key))).isEqualTo(MPI.ERR_KEYVAL);
            assertThat(MpiErrors.errorClassOf(() -> world.setAttr(key, "w"))).isEqualTo(MPI.ERR_KEYVAL);
            assertThat(MpiErrors.errorClassOf(() -> world.deleteAttr(key))).isEqualTo(MPI.ERR_KEYVAL);
            assertThat(MpiErrors.errorClassOf(() -> Comm.freeKeyval(key))).isEqualTo(MPI.ERR_KEYVAL);
            assertThat(MpiErrors.errorClassOf(() -> world.getAttr(MPI.KEYVAL_INVALID))).isEqualTo(MPI.ERR_KEYVAL);
            assertThat(MpiErrors.errorClassOf(() -> world.setAttr(MPI.TAG_UB, 5))).isEqualTo(MPI.ERR_KEYVAL);
            assertThat(MpiErrors.errorClassOf(() -> world.deleteAttr(MPI.HOST))).isEqualTo(MPI.ERR_KEYVAL);
            assertThat(MpiErrors.errorClassOf(() -> Comm.freeKeyval(MPI.TAG_UB))).isEqualTo(MPI.ERR_KEYVAL);
            assertThat(MpiErrors.errorClassOf(() -> world.getAttr(MPI.WIN_BASE))).isEqualTo(MPI.ERR_KEYVAL);
            int typeKey = Datatype.createKeyval();
            assertThat(MpiErrors.errorClassOf(() -> world.setAttr(typeKey, 1))).isEqualTo(MPI.ERR_KEYVAL);
            int commKey = Comm.createKeyval();
            assertThat(MpiErrors.errorClassOf(() -> MPI.INT.setAttr(commKey, 1))).isEqualTo(MPI.ERR_KEYVAL);
            // a value that cannot be serialised: MPIException whatever the handler, as in Open MPI
            try {
                world.setAttr(commKey, new Object());
                throw new AssertionError("setAttr of a non-serializable value did not fail");
            } catch (MPIException e) {
                assertThat(e.getCause() != null).isTrue();
            }
            assertThat(world.getAttr(commKey)).isNull();
            Intracomm freed = world.dup();
            freed.free();
            assertThat(MpiErrors.errorClassOf(() -> freed.getAttr(commKey))).isEqualTo(MPI.ERR_COMM);
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void datatypesCacheValuesPerRank(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            int key = Datatype.createKeyval();
            assertThat(MPI.INT.getAttr(key)).isNull();
            MPI.INT.setAttr(key, "int of rank " + rank);
            MPI.DOUBLE.setAttr(key, rank);
            MPI.COMM_WORLD.barrier(); // every rank has set its values: each still reads its own
            assertThat(MPI.INT.getAttr(key)).isEqualTo("int of rank " + rank);
            assertThat(MPI.DOUBLE.getAttr(key)).isEqualTo(rank);
            Datatype pair = Datatype.createContiguous(2, MPI.INT);
            pair.setAttr(key, "pair of rank " + rank);
            Datatype copy = pair.dup();
            assertThat(copy.getAttr(key)).as("dup copies the values").isEqualTo("pair of rank " + rank);
            pair.free();
            assertThat(copy.getAttr(key)).as("the copy outlives the original").isEqualTo("pair of rank " + rank);
            copy.free();
            MPI.INT.deleteAttr(key);
            assertThat(MPI.INT.getAttr(key)).isNull();
            Datatype.freeKeyval(key);
            assertThat(MpiErrors.errorClassOf(() -> MPI.DOUBLE.getAttr(key))).isEqualTo(MPI.ERR_KEYVAL);
            MPI.Finalize();
        });
    }
}
