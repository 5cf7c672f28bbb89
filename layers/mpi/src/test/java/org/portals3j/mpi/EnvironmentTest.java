package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteOrder;
import java.nio.IntBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;
import org.junit.jupiter.api.Test;

/** Init, Finalize, thread levels, timers, names, versions and the buffer helpers. */
class EnvironmentTest {

    @Test
    void callsBeforeInitAndAfterFinalizeThrowAndInitTwiceThrows() throws Exception {
        MpiJob.run(1, rank -> {
            assertThat(MPI.isInitialized()).isFalse();
            assertThatThrownBy(() -> MPI.COMM_WORLD.getRank()).isInstanceOf(MPIException.class)
                    .hasMessageContaining("not initialized");
            assertThatThrownBy(MPI::wtime).isInstanceOf(MPIException.class);
            MPI.Init(new String[] {"a"});
            assertThat(MPI.isInitialized()).isTrue();
            assertThat(MPI.isFinalized()).isFalse();
            assertThatThrownBy(() -> MPI.Init(new String[0])).isInstanceOf(MPIException.class)
                    .hasMessageContaining("already initialized");
            MPI.Finalize();
            assertThat(MPI.isFinalized()).isTrue();
            assertThatThrownBy(() -> MPI.COMM_WORLD.getSize()).isInstanceOf(MPIException.class)
                    .hasMessageContaining("finalized");
        });
    }

    @Test
    void initThreadProvidesTheLevelAskedForAndKnowsTheMainThread() throws Exception {
        MpiJob.run(2, rank -> {
            int provided = MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE);
            assertThat(provided).isEqualTo(MPI.THREAD_MULTIPLE);
            assertThat(MPI.queryThread()).isEqualTo(MPI.THREAD_MULTIPLE);
            assertThat(MPI.isThreadMain()).isTrue();
            boolean[] inOther = new boolean[1];
            Thread t = Thread.ofPlatform().start(() -> {
                try {
                    inOther[0] = MPI.isThreadMain();
                } catch (MPIException e) {
                    throw new AssertionError(e);
                }
            });
            t.join();
            assertThat(inOther[0]).isFalse();
            MPI.Finalize();
        });
    }

    @Test
    void timersNamesAndVersions() throws Exception {
        MpiJob.run(1, rank -> {
            MPI.Init(new String[0]);
            double t0 = MPI.wtime();
            double t1 = MPI.wtime();
            assertThat(t1).isGreaterThanOrEqualTo(t0);
            assertThat(MPI.wtick()).isPositive();
            assertThat(MPI.getProcessorName()).isNotBlank();
            assertThat(MPI.getVersion().getVersion()).isEqualTo(3);
            assertThat(MPI.getVersion().getSubVersion()).isEqualTo(1);
            assertThat(MPI.getLibVersion()).contains("Portals3J");
            MPI.pControl(1, null);
            assertThat(MPI.COMM_WORLD.getName()).isEqualTo("MPI_COMM_WORLD");
            MPI.COMM_WORLD.setName("world");
            assertThat(MPI.COMM_WORLD.getName()).isEqualTo("world");
            assertThat(MPI.COMM_SELF.getName()).isEqualTo("MPI_COMM_SELF");
            assertThat(MPI.COMM_SELF.getSize()).isEqualTo(1);
            assertThat(MPI.INT.getExtent()).isEqualTo(1);
            assertThat(MPI.DOUBLE.getSize()).isEqualTo(1);
            assertThat(MPI.INT.getLb()).isZero();
            assertThat(MPI.INT.getName()).isEqualTo("MPI_INT");
            assertThat(MPI.DATATYPE_NULL.isNull()).isTrue();
            assertThat(MPI.REQUEST_NULL.isNull()).isTrue();
            assertThat(MPI.INFO_NULL.isNull()).isTrue();
            assertThat(MPI.COMM_WORLD.isNull()).isFalse();
            assertThat(MPI.COMM_WORLD.isInter()).isFalse();
            assertThat(MPI.COMM_WORLD.getTopology()).isEqualTo(MPI.UNDEFINED);
            MPI.Finalize();
        });
    }

    @Test
    void newBuffersAreDirectInNativeOrderAndSliceClearsTheOriginal() {
        IntBuffer b = MPI.newIntBuffer(10);
        assertThat(b.isDirect()).isTrue();
        assertThat(b.order()).isEqualTo(ByteOrder.nativeOrder());
        assertThat(b.capacity()).isEqualTo(10);
        assertThat(MPI.newDoubleBuffer(3).capacity()).isEqualTo(3);
        assertThat(MPI.newByteBuffer(5).order()).isEqualTo(ByteOrder.nativeOrder());
        b.put(0, 10).put(4, 14).limit(2).position(1);
        IntBuffer s = MPI.slice(b, 4);
        assertThat(s.get(0)).isEqualTo(14);
        assertThat(b.position()).isEqualTo(4);
        assertThat(b.limit()).isEqualTo(10);
        int[] a = {1, 2, 3, 4};
        assertThat(MPI.slice(a, 2).get(0)).isEqualTo(3);
    }

    @Test
    void constantsHaveOpenMpisValues() {
        assertThat(MPI.ANY_SOURCE).isEqualTo(-1);
        assertThat(MPI.PROC_NULL).isEqualTo(-2);
        assertThat(MPI.UNDEFINED).isEqualTo(-32766);
        assertThat(MPI.ERR_TRUNCATE).isEqualTo(15);
        assertThat(MPI.ERR_IN_STATUS).isEqualTo(18);
        assertThat(MPI.ERR_UNSUPPORTED_OPERATION).isEqualTo(52);
        assertThat(MPI.BSEND_OVERHEAD).isEqualTo(128);
        assertThat(Status.class.getConstructors()).isEmpty();
    }
}
