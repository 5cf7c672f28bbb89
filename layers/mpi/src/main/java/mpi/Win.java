package mpi;

import java.nio.Buffer;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.OutOfScope;

/**
 * A window for one-sided communication ({@code MPI_Win}), with Open MPI's signatures (mpi-java-api.md section
 * 2.14). One-sided communication is out of scope for this layer (section 3): each constructor raises
 * {@code MPI.ERR_UNSUPPORTED_OPERATION} through the error handler of its communicator, so no window is ever made;
 * the other members, which need a window, raise it through {@code COMM_WORLD}'s (the static ones included). They are
 * here so that every program written for Open MPI's bindings compiles.
 */
public final class Win implements Freeable {
    public static final int WIN_NULL = 0;
    public static final int FLAVOR_PRIVATE = 0;
    public static final int FLAVOR_SHARED = 1;

    /** {@code MPI_WIN_CREATE}. */
    public Win(Buffer base, int size, int dispUnit, Info info, Comm comm) throws MPIException {
        throw comm.unsupported("MPI_Win_create", OutOfScope.RMA);
    }

    /** {@code MPI_WIN_ALLOCATE} ({@code FLAVOR_PRIVATE}) or {@code MPI_WIN_ALLOCATE_SHARED} ({@code FLAVOR_SHARED}). */
    public Win(int size, int dispUnit, Info info, Comm comm, Buffer base, int flavor) throws MPIException {
        throw comm.unsupported(flavor == FLAVOR_SHARED ? "MPI_Win_allocate_shared" : "MPI_Win_allocate",
                OutOfScope.RMA);
    }

    /** {@code MPI_WIN_CREATE_DYNAMIC}. */
    public Win(Info info, Comm comm) throws MPIException {
        throw comm.unsupported("MPI_Win_create_dynamic", OutOfScope.RMA);
    }

    public void attach(Buffer base, int size) throws MPIException {
        throw unsupported("MPI_Win_attach");
    }

    public void detach(Buffer base) throws MPIException {
        throw unsupported("MPI_Win_detach");
    }

    public Group getGroup() throws MPIException {
        throw unsupported("MPI_Win_get_group");
    }

    public void put(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp, int targetCount,
            Datatype targetType) throws MPIException {
        throw unsupported("MPI_Put");
    }

    public void get(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp, int targetCount,
            Datatype targetType) throws MPIException {
        throw unsupported("MPI_Get");
    }

    public void accumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
            int targetCount, Datatype targetType, Op op) throws MPIException {
        throw unsupported("MPI_Accumulate");
    }

    public void fence(int assertion) throws MPIException {
        throw unsupported("MPI_Win_fence");
    }

    public void start(Group group, int assertion) throws MPIException {
        throw unsupported("MPI_Win_start");
    }

    public void complete() throws MPIException {
        throw unsupported("MPI_Win_complete");
    }

    public void post(Group group, int assertion) throws MPIException {
        throw unsupported("MPI_Win_post");
    }

    public void waitFor() throws MPIException {
        throw unsupported("MPI_Win_wait");
    }

    public boolean test() throws MPIException {
        throw unsupported("MPI_Win_test");
    }

    public void lock(int lockType, int rank, int assertion) throws MPIException {
        throw unsupported("MPI_Win_lock");
    }

    public void unlock(int rank) throws MPIException {
        throw unsupported("MPI_Win_unlock");
    }

    public void setErrhandler(Errhandler errhandler) throws MPIException {
        throw unsupported("MPI_Win_set_errhandler");
    }

    public Errhandler getErrhandler() throws MPIException {
        throw unsupported("MPI_Win_get_errhandler");
    }

    public void callErrhandler(int errorCode) throws MPIException {
        throw unsupported("MPI_Win_call_errhandler");
    }

    public static int createKeyval() throws MPIException {
        throw unsupported("MPI_Win_create_keyval");
    }

    public static void freeKeyval(int keyval) throws MPIException {
        throw unsupported("MPI_Win_free_keyval");
    }

    public void setAttr(int keyval, Object value) throws MPIException {
        throw unsupported("MPI_Win_set_attr");
    }

    public @Nullable Object getAttr(int keyval) throws MPIException {
        throw unsupported("MPI_Win_get_attr");
    }

    public void deleteAttr(int keyval) throws MPIException {
        throw unsupported("MPI_Win_delete_attr");
    }

    @Override
    public void free() throws MPIException {
        throw unsupported("MPI_Win_free");
    }

    public Info getInfo() throws MPIException {
        throw unsupported("MPI_Win_get_info");
    }

    public void setInfo(Info info) throws MPIException {
        throw unsupported("MPI_Win_set_info");
    }

    public final Request rPut(Buffer origin_addr, int origin_count, Datatype origin_datatype, int target_rank,
            int target_disp, int target_count, Datatype target_datatype) throws MPIException {
        throw unsupported("MPI_Rput");
    }

    public final Request rGet(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
            int targetCount, Datatype targetType) throws MPIException {
        throw unsupported("MPI_Rget");
    }

    public Request rAccumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
            int targetCount, Datatype targetType, Op op) throws MPIException {
        throw unsupported("MPI_Raccumulate");
    }

    public void getAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr, int resultCount,
            Datatype resultType, int targetRank, int targetDisp, int targetCount, Datatype targetType, Op op)
            throws MPIException {
        throw unsupported("MPI_Get_accumulate");
    }

    public Request rGetAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr,
            int resultCount, Datatype resultType, int targetRank, int targetDisp, int targetCount,
            Datatype targetType, Op op) throws MPIException {
        throw unsupported("MPI_Rget_accumulate");
    }

    public void lockAll(int assertion) throws MPIException {
        throw unsupported("MPI_Win_lock_all");
    }

    public void unlockAll() throws MPIException {
        throw unsupported("MPI_Win_unlock_all");
    }

    public void sync() throws MPIException {
        throw unsupported("MPI_Win_sync");
    }

    public void flush(int targetRank) throws MPIException {
        throw unsupported("MPI_Win_flush");
    }

    public void flushAll() throws MPIException {
        throw unsupported("MPI_Win_flush_all");
    }

    public void compareAndSwap(Buffer origin, Buffer compareAddr, Buffer resultAddr, Datatype targetType,
            int targetRank, int targetDisp) throws MPIException {
        throw unsupported("MPI_Compare_and_swap");
    }

    public void fetchAndOp(Buffer origin, Buffer resultAddr, Datatype dataType, int targetRank, int targetDisp,
            Op op) throws MPIException {
        throw unsupported("MPI_Fetch_and_op");
    }

    public void flushLocal(int targetRank) throws MPIException {
        throw unsupported("MPI_Win_flush_local");
    }

    public void flushLocalAll() throws MPIException {
        throw unsupported("MPI_Win_flush_local_all");
    }

    public String getName() throws MPIException {
        throw unsupported("MPI_Win_get_name");
    }

    public void setName(String name) throws MPIException {
        throw unsupported("MPI_Win_set_name");
    }

    private static MPIException unsupported(String call) throws MPIException {
        return MPI.unsupported(call, OutOfScope.RMA);
    }
}
