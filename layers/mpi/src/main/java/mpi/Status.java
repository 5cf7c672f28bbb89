package mpi;

import org.portals3j.mpi.internal.TypeMap;

/**
 * The result of a receive, probe or completion: the source (rank in the operation's communicator), tag, error,
 * index (for the "any" and "some" forms) and whether it was cancelled; the count is kept in bytes and converted
 * when asked (mpi-java-api.md section 1.6).
 */
public final class Status {
    private final int source;
    private final int tag;
    private final int error;
    private int index;
    private boolean cancelled;
    private long bytes;

    Status(int source, int tag, int error, long bytes, boolean cancelled) {
        this.source = source;
        this.tag = tag;
        this.error = error;
        this.bytes = bytes;
        this.cancelled = cancelled;
        this.index = MPI.UNDEFINED;
    }

    /** MPI's empty status: source ANY_SOURCE, tag ANY_TAG, count 0 (an inactive or null request). */
    static Status empty() {
        return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.SUCCESS, 0, false);
    }

    Status withIndex(int i) {
        this.index = i;
        return this;
    }

    /** Whole items of {@code datatype} received, or {@code MPI.UNDEFINED} if the bytes are not a multiple. */
    public int getCount(Datatype datatype) throws MPIException {
        MPI.check();
        int size = datatype.byteSize();
        if (size == 0) {
            return bytes == 0 ? 0 : MPI.UNDEFINED;
        }
        return bytes % size != 0 || bytes / size > Integer.MAX_VALUE ? MPI.UNDEFINED : (int) (bytes / size);
    }

    /** Basic elements received: for a derived type, the elements of its type map that arrived, or UNDEFINED. */
    public int getElements(Datatype datatype) throws MPIException {
        long n = getElementsX(datatype).getCount();
        return n > Integer.MAX_VALUE ? MPI.UNDEFINED : (int) n;
    }

    /** {@link #getElements} as a {@code Count}. */
    public Count getElementsX(Datatype datatype) throws MPIException {
        MPI.check();
        TypeMap map = datatype.typeMap();
        long n = map == null ? (bytes == 0 ? 0 : -1) : map.elements(bytes);
        return new Count(n < 0 ? MPI.UNDEFINED : n);
    }

    /**
     * Sets the count to {@code count} basic elements of {@code datatype} (MPI 3.1 section 4.1.11): for a derived
     * type, the bytes of that many elements of its type map, so that {@link #getElements} answers {@code count} and
     * {@link #getCount} the whole items, or {@code MPI.UNDEFINED} if the last is partial.
     */
    public void setElements(Datatype datatype, int count) throws MPIException {
        setElementsX(datatype, new Count(count));
    }

    /** {@link #setElements} with a {@code Count}. */
    public void setElementsX(Datatype datatype, Count count) throws MPIException {
        MPI.check();
        long n = count.getCount();
        if (n < 0) {
            throw MPI.raise(MPI.process().world(), MPI.ERR_COUNT, "a count cannot be negative: " + n);
        }
        TypeMap map = datatype.typeMap();
        if (map == null || datatype.isNull()) {
            throw MPI.raise(MPI.process().world(), MPI.ERR_TYPE, "setElements needs a datatype with elements, not"
                    + " DATATYPE_NULL or a freed type");
        }
        long b = map.bytesOf(n);
        if (b < 0) {
            throw MPI.raise(MPI.process().world(), MPI.ERR_COUNT, "a datatype of no elements cannot hold " + n
                    + " elements: pass 0");
        }
        bytes = b;
    }

    public boolean isCancelled() throws MPIException {
        MPI.check();
        return cancelled;
    }

    public void setCancelled(boolean flag) throws MPIException {
        MPI.check();
        cancelled = flag;
    }

    public int getSource() {
        return source;
    }

    public int getTag() {
        return tag;
    }

    public int getError() {
        return error;
    }

    public int getIndex() {
        return index;
    }

    @Override
    public String toString() {
        return "Status[source=" + source + ", tag=" + tag + ", error=" + error + ", bytes=" + bytes
                + (cancelled ? ", cancelled" : "") + (index != MPI.UNDEFINED ? ", index=" + index : "") + "]";
    }
}
