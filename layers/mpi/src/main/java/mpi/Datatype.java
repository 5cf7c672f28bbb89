package mpi;

import java.io.UncheckedIOException;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.Attributes;
import org.portals3j.mpi.internal.BaseType;
import org.portals3j.mpi.internal.Keyvals;
import org.portals3j.mpi.internal.MpiError;
import org.portals3j.mpi.internal.PairType;

/**
 * A datatype. This version has the predefined basic types ({@code MPI.BYTE} to {@code MPI.DOUBLE}, {@code PACKED})
 * and {@code DATATYPE_NULL}, each one element of its base type (mpi-java-api.md section 1.4), and the complex types
 * {@code FLOAT_COMPLEX} and {@code DOUBLE_COMPLEX}, each two elements of {@code FLOAT} or {@code DOUBLE} (real,
 * then imaginary part). Extents and sizes count base elements, as Open MPI does: 1 for a basic type, 2 for a complex
 * one; lower bounds are 0. A count of items of a type is {@code count * span} elements of its base type. The pair
 * types of MINLOC and MAXLOC ({@code INT2}, {@code SHORT_INT}, {@code LONG_INT}, {@code FLOAT_INT},
 * {@code DOUBLE_INT}) and the types of {@link Struct}s have base type BYTE: their extent and size are their bytes.
 */
public final class Datatype implements Freeable, Cloneable {
    private final @Nullable BaseType base;
    /** Base elements per item. */
    private final int span;
    private final boolean complex;
    /** The value/index pair of a MINLOC/MAXLOC type, or null. */
    private final @Nullable PairType pair;
    /** Whether this is a struct's type: bytes no predefined operation applies to. */
    private final boolean opaque;
    private final int alignment;
    private volatile String name;

    Datatype(@Nullable BaseType base, String name) {
        this(base, 1, false, null, false, base == null ? 1 : base.bytes(), name);
    }

    private Datatype(@Nullable BaseType base, int span, boolean complex, @Nullable PairType pair, boolean opaque,
            int alignment, String name) {
        this.base = base;
        this.span = span;
        this.complex = complex;
        this.pair = pair;
        this.opaque = opaque;
        this.alignment = alignment;
        this.name = name;
    }

    /** A value/index pair type ({@code MPI.INT2} ...): {@code pair.bytes()} bytes per item. */
    static Datatype pair(PairType pair, String name) {
        return new Datatype(BaseType.BYTE, pair.bytes(), false, pair, false, pair.alignment(), name);
    }

    /** The type of a {@link Struct}: {@code bytes} bytes per item, aligned to {@code alignment}. */
    static Datatype struct(int bytes, int alignment, String name) {
        return new Datatype(BaseType.BYTE, bytes, false, null, true, alignment, name);
    }

    /** The pair of a MINLOC/MAXLOC type, or null. */
    @Nullable PairType pair() {
        return pair;
    }

    /** Whether this is a struct's type (no predefined operation applies). */
    boolean isOpaque() {
        return opaque;
    }

    /** The alignment of an item in a struct, in bytes. */
    int alignment() {
        return alignment;
    }

    /** A complex type: two elements of {@code base} per item. */
    static Datatype complex(BaseType base, String name) {
        return new Datatype(base, 2, true, null, false, base.bytes(), name);
    }

    /** Base elements per item. */
    int span() {
        return span;
    }

    /** Whether this is {@code FLOAT_COMPLEX} or {@code DOUBLE_COMPLEX}. */
    boolean isComplex() {
        return complex;
    }

    /** The base type, or null for {@code DATATYPE_NULL}. */
    @Nullable BaseType base() {
        return base;
    }

    /** Bytes of one item of this type (0 for {@code DATATYPE_NULL}). */
    int byteSize() {
        BaseType b = base;
        return b == null ? 0 : b.bytes() * span;
    }

    /** The extent, in base elements. */
    public int getExtent() throws MPIException {
        return checked();
    }

    /** The true extent, in base elements. */
    public int getTrueExtent() throws MPIException {
        return checked();
    }

    /** The size (elements of data), in base elements. */
    public int getSize() throws MPIException {
        return checked();
    }

    /** The lower bound, in base elements. */
    public int getLb() throws MPIException {
        checked();
        return 0;
    }

    /** The true lower bound, in base elements. */
    public int getTrueLb() throws MPIException {
        checked();
        return 0;
    }

    /**
     * Freeing a predefined datatype is an error ({@code ERR_TYPE}): this version has no other datatypes.
     */
    @Override
    public void free() throws MPIException {
        MPI.check();
        throw MPI.raise(MPI.process().world(), MPI.ERR_TYPE, "a predefined datatype (" + name
                + ") cannot be freed");
    }

    /** Whether this is {@code DATATYPE_NULL}. */
    public boolean isNull() {
        return base == null;
    }

    /** The name: the MPI name of a predefined type ({@code MPI_INT}) until changed. */
    public String getName() throws MPIException {
        MPI.check();
        return name;
    }

    /** Sets the name (shared by the ranks of a JVM for these predefined objects). */
    public void setName(String name) throws MPIException {
        MPI.check();
        this.name = name;
    }

    // ---- attributes (mpi-java-api.md section 1.4; the machinery is org.portals3j.mpi.internal.Keyvals) --------
    // Kept per rank and per datatype object; errors go through COMM_WORLD's error handler.

    /** A new attribute keyval for datatypes. */
    public static int createKeyval() throws MPIException {
        try {
            return MPI.process().keyvals().create(Keyvals.Kind.DATATYPE);
        } catch (MpiError e) {
            throw MPI.raise(MPI.process().world(), e);
        }
    }

    /** Frees {@code keyval}; values already set stay until deleted. */
    public static void freeKeyval(int keyval) throws MPIException {
        try {
            MPI.process().keyvals().free(keyval, Keyvals.Kind.DATATYPE);
        } catch (MpiError e) {
            throw MPI.raise(MPI.process().world(), e);
        }
    }

    /** Caches {@code value} (serialised, as {@code Comm.setAttr}) under {@code keyval} on this datatype. */
    public void setAttr(int keyval, @Nullable Object value) throws MPIException {
        Attributes a = attributes(keyval);
        try {
            a.set(keyval, Attributes.serialize(value));
        } catch (UncheckedIOException e) {
            throw new MPIException(e.getCause());
        }
    }

    /** A copy of the value cached under {@code keyval} on this datatype, or null if none is. */
    public @Nullable Object getAttr(int keyval) throws MPIException {
        byte[] bytes = attributes(keyval).get(keyval);
        try {
            return bytes == null ? null : Attributes.deserialize(bytes);
        } catch (UncheckedIOException e) {
            throw new MPIException(e.getCause());
        }
    }

    /** Deletes the value cached under {@code keyval} on this datatype (nothing happens if none is). */
    public void deleteAttr(int keyval) throws MPIException {
        attributes(keyval).delete(keyval);
    }

    /** The calling rank's attributes of this datatype, once {@code keyval} is checked (ERR_KEYVAL). */
    private Attributes attributes(int keyval) throws MPIException {
        Keyvals keyvals = MPI.process().keyvals();
        try {
            keyvals.check(keyval, Keyvals.Kind.DATATYPE);
        } catch (MpiError e) {
            throw MPI.raise(MPI.process().world(), e);
        }
        return keyvals.ofDatatype(this);
    }

    private int checked() throws MPIException {
        MPI.check();
        if (base == null) {
            throw MPI.raise(MPI.process().world(), MPI.ERR_TYPE, "DATATYPE_NULL has no extent or size");
        }
        return span;
    }
}
