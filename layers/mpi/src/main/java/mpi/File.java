package mpi;

import java.nio.Buffer;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.OutOfScope;

/**
 * A file of MPI-IO ({@code MPI_File}), with Open MPI's signatures (mpi-java-api.md section 2.14). MPI-IO is out of
 * scope for this layer (section 3): each constructor raises {@code MPI.ERR_UNSUPPORTED_OPERATION} through the error
 * handler of its communicator, so no file is ever opened; the other members, which need a file, raise it through
 * {@code COMM_WORLD}'s (the static ones included), but {@link #getView()}, which has no {@code throws} clause. They
 * are here so that every program written for Open MPI's bindings compiles. Like Open MPI's, the name clashes with
 * {@code java.io.File} in a program that imports both packages on demand.
 */
public final class File {
    /** {@code MPI_FILE_OPEN} with {@code MPI.INFO_NULL}. */
    public File(Comm comm, String filename, int amode) throws MPIException {
        throw comm.unsupported("MPI_File_open", OutOfScope.IO);
    }

    /** {@code MPI_FILE_OPEN}. */
    public File(Comm comm, String filename, int amode, Info info) throws MPIException {
        throw comm.unsupported("MPI_File_open", OutOfScope.IO);
    }

    /** The view of a file just opened: displacement 0, {@code BYTE} as etype and filetype, {@code "native"}. */
    public FileView getView() {
        return new FileView(0, MPI.BYTE, MPI.BYTE, "native");
    }

    public void close() throws MPIException {
        throw unsupported("MPI_File_close");
    }

    public static void delete(String filename) throws MPIException {
        throw unsupported("MPI_File_delete");
    }

    public static void delete(String filename, Info info) throws MPIException {
        throw unsupported("MPI_File_delete");
    }

    public void setSize(long size) throws MPIException {
        throw unsupported("MPI_File_set_size");
    }

    public void preallocate(long size) throws MPIException {
        throw unsupported("MPI_File_preallocate");
    }

    public long getSize() throws MPIException {
        throw unsupported("MPI_File_get_size");
    }

    public Group getGroup() throws MPIException {
        throw unsupported("MPI_File_get_group");
    }

    public int getAMode() throws MPIException {
        throw unsupported("MPI_File_get_amode");
    }

    public void setInfo(Info info) throws MPIException {
        throw unsupported("MPI_File_set_info");
    }

    public Info getInfo() throws MPIException {
        throw unsupported("MPI_File_get_info");
    }

    public void setView(long disp, Datatype etype, Datatype filetype, String datarep) throws MPIException {
        throw unsupported("MPI_File_set_view");
    }

    public void setView(long disp, Datatype etype, Datatype filetype, String datarep, Info info) throws MPIException {
        throw unsupported("MPI_File_set_view");
    }

    public Status readAt(long offset, @Nullable Object buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_read_at");
    }

    public Status readAtAll(long offset, @Nullable Object buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_read_at_all");
    }

    public Status writeAt(long offset, @Nullable Object buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_write_at");
    }

    public Status writeAtAll(long offset, @Nullable Object buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_write_at_all");
    }

    public Request iReadAt(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_iread_at");
    }

    public Request iReadAtAll(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_iread_at_all");
    }

    public Request iWriteAt(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_iwrite_at");
    }

    public Request iWriteAtAll(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_iwrite_at_all");
    }

    public Status read(@Nullable Object buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_read");
    }

    public Status readAll(@Nullable Object buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_read_all");
    }

    public Status write(@Nullable Object buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_write");
    }

    public Status writeAll(@Nullable Object buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_write_all");
    }

    public Request iRead(Buffer buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_iread");
    }

    public Request iReadAll(Buffer buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_iread_all");
    }

    public Request iWrite(Buffer buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_iwrite");
    }

    public Request iWriteAll(Buffer buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_iwrite_all");
    }

    public void seek(long offset, int whence) throws MPIException {
        throw unsupported("MPI_File_seek");
    }

    public long getPosition() throws MPIException {
        throw unsupported("MPI_File_get_position");
    }

    public long getByteOffset(long offset) throws MPIException {
        throw unsupported("MPI_File_get_byte_offset");
    }

    public Status readShared(@Nullable Object buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_read_shared");
    }

    public Status writeShared(@Nullable Object buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_write_shared");
    }

    public Request iReadShared(Buffer buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_iread_shared");
    }

    public Request iWriteShared(Buffer buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_iwrite_shared");
    }

    public Status readOrdered(@Nullable Object buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_read_ordered");
    }

    public Status writeOrdered(@Nullable Object buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_write_ordered");
    }

    public void seekShared(long offset, int whence) throws MPIException {
        throw unsupported("MPI_File_seek_shared");
    }

    public long getPositionShared() throws MPIException {
        throw unsupported("MPI_File_get_position_shared");
    }

    public void readAtAllBegin(long offset, @Nullable Object buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_read_at_all_begin");
    }

    public Status readAtAllEnd(@Nullable Object buf) throws MPIException {
        throw unsupported("MPI_File_read_at_all_end");
    }

    public void writeAtAllBegin(long offset, @Nullable Object buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_write_at_all_begin");
    }

    public Status writeAtAllEnd(@Nullable Object buf) throws MPIException {
        throw unsupported("MPI_File_write_at_all_end");
    }

    public void readAllBegin(@Nullable Object buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_read_all_begin");
    }

    public Status readAllEnd(@Nullable Object buf) throws MPIException {
        throw unsupported("MPI_File_read_all_end");
    }

    public void writeAllBegin(@Nullable Object buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_write_all_begin");
    }

    public Status writeAllEnd(@Nullable Object buf) throws MPIException {
        throw unsupported("MPI_File_write_all_end");
    }

    public void readOrderedBegin(@Nullable Object buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_read_ordered_begin");
    }

    public Status readOrderedEnd(@Nullable Object buf) throws MPIException {
        throw unsupported("MPI_File_read_ordered_end");
    }

    public void writeOrderedBegin(@Nullable Object buf, int count, Datatype type) throws MPIException {
        throw unsupported("MPI_File_write_ordered_begin");
    }

    public Status writeOrderedEnd(@Nullable Object buf) throws MPIException {
        throw unsupported("MPI_File_write_ordered_end");
    }

    public int getTypeExtent(Datatype type) throws MPIException {
        throw unsupported("MPI_File_get_type_extent");
    }

    public void setAtomicity(boolean atomicity) throws MPIException {
        throw unsupported("MPI_File_set_atomicity");
    }

    public boolean getAtomicity() throws MPIException {
        throw unsupported("MPI_File_get_atomicity");
    }

    public void sync() throws MPIException {
        throw unsupported("MPI_File_sync");
    }

    public void setErrhandler(Errhandler errhandler) throws MPIException {
        throw unsupported("MPI_File_set_errhandler");
    }

    public Errhandler getErrhandler() throws MPIException {
        throw unsupported("MPI_File_get_errhandler");
    }

    public void callErrhandler(int errorCode) throws MPIException {
        throw unsupported("MPI_File_call_errhandler");
    }

    private static MPIException unsupported(String call) throws MPIException {
        return MPI.unsupported(call, OutOfScope.IO);
    }
}
