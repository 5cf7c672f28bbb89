package mpi;

import java.io.UncheckedIOException;
import java.util.Arrays;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.Attributes;
import org.portals3j.mpi.internal.BaseType;
import org.portals3j.mpi.internal.Keyvals;
import org.portals3j.mpi.internal.MpiError;
import org.portals3j.mpi.internal.PairType;
import org.portals3j.mpi.internal.TypeMap;

/**
 * A datatype: the predefined basic types ({@code MPI.BYTE} to {@code MPI.DOUBLE}, {@code PACKED})
 * and {@code DATATYPE_NULL}, each one element of its base type (mpi-java-api.md section 1.4), and the complex types
 * {@code FLOAT_COMPLEX} and {@code DOUBLE_COMPLEX}, each two elements of {@code FLOAT} or {@code DOUBLE} (real,
 * then imaginary part). Extents and sizes count base elements, as Open MPI does: 1 for a basic type, 2 for a complex
 * one; lower bounds are 0. A count of items of a type is {@code count * span} elements of its base type. The pair
 * types of MINLOC and MAXLOC ({@code INT2}, {@code SHORT_INT}, {@code LONG_INT}, {@code FLOAT_INT},
 * {@code DOUBLE_INT}) and the types of {@link Struct}s have base type BYTE: their extent and size are their bytes.
 *
 * <p>Derived types ({@code create*}, {@code dup}) take their old type's base type ({@code createStruct}: BYTE) and
 * are flattened into a {@link TypeMap} when made; the units of the factories' arguments and every choice are in the
 * documentation of package {@code org.portals3j.mpi.internal}.
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
    /** The flattened type map (bytes), for every type but {@code DATATYPE_NULL}. */
    private final @Nullable TypeMap map;
    /** Whether this is a derived type ({@code create*}, {@code dup}): it must be committed, and may be freed. */
    private final boolean derived;
    private volatile boolean committed;
    private volatile boolean freed;
    /** Whether the predefined reduction operations apply to its base elements (no pair, complex or struct). */
    private final boolean reducible;

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
        this.map = base == null ? null : TypeMap.predefined(base, base.bytes() * span,
                pair != null || opaque ? base.bytes() * span : base.bytes());
        this.derived = false;
        this.committed = true;
        this.reducible = pair == null && !opaque && !complex;
    }

    /** A derived type of {@code map}; contiguous ones keep the predefined (uncopied) path with their span. */
    private Datatype(TypeMap map, boolean reducible, int alignment, boolean committed) {
        this.base = map.base();
        this.span = map.contiguous() ? (int) (map.size() / map.base().bytes()) : 0;
        this.complex = false;
        this.pair = null;
        this.opaque = !reducible;
        this.alignment = alignment;
        this.name = "";
        this.map = map;
        this.derived = true;
        this.committed = committed;
        this.reducible = reducible;
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

    /** Bytes of data in one item of this type (0 for {@code DATATYPE_NULL}). */
    int byteSize() {
        TypeMap m = map;
        return m == null ? 0 : (int) Math.min(Integer.MAX_VALUE, m.size());
    }

    /** The extent, in base elements (bytes for a struct type; a partial element is not counted). */
    public int getExtent() throws MPIException {
        return units(checkedMap().extent());
    }

    /** The true extent (from the first byte of data to the last), in base elements. */
    public int getTrueExtent() throws MPIException {
        return units(checkedMap().trueExtent());
    }

    /** The size (elements of data), in base elements. */
    public int getSize() throws MPIException {
        return units(checkedMap().size());
    }

    /** The lower bound, in base elements. */
    public int getLb() throws MPIException {
        return units(checkedMap().lb());
    }

    /** The true lower bound, in base elements. */
    public int getTrueLb() throws MPIException {
        return units(checkedMap().trueLb());
    }

    /** The type map, or null for {@code DATATYPE_NULL}. */
    @Nullable TypeMap typeMap() {
        return map;
    }

    /** Whether this is {@code DATATYPE_NULL}, or a derived type that has been freed (as in Open MPI). */
    public boolean isNull() {
        return base == null || freed;
    }

    /** The name: the MPI name of a predefined type ({@code MPI_INT}) until changed. */
    public String getName() throws MPIException {
        MPI.check();
        return name;
    }

    /** Sets the name (a predefined object's is shared by the ranks of a JVM). */
    public void setName(String name) throws MPIException {
        MPI.check();
        if (freed) {
            throw MPI.raise(MPI.process().world(), MPI.ERR_TYPE, "the datatype has been freed");
        }
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

    // ---- derived datatypes (mpi-java-api.md sections 1.4 and 3 tier 2 item 2; the engine is TypeMap) ----------
    // Units (Open MPI's, mpi-java-api.md section 1.4): createVector strides and createIndexed displacements count
    // extents of the old type; createHVector strides, createHIndexed and createStruct displacements, and
    // createResized's lower bound and extent are bytes. Every query answers in base elements.

    /** {@code count} copies of {@code oldType}, one after the other. */
    public static Datatype createContiguous(int count, Datatype oldType) throws MPIException {
        return derive(() -> {
            TypeMap old = usable(oldType);
            checkCount(count, "count");
            return vector(old, count, 1, old.extent());
        }, reducible(oldType));
    }

    /** {@code count} blocks of {@code blockLength} items of {@code oldType}, {@code stride} extents apart. */
    public static Datatype createVector(int count, int blockLength, int stride, Datatype oldType)
            throws MPIException {
        return derive(() -> {
            TypeMap old = usable(oldType);
            checkCount(count, "count");
            checkCount(blockLength, "block length");
            return vector(old, count, blockLength, (long) stride * old.extent());
        }, reducible(oldType));
    }

    /** {@link #createVector} with the stride in bytes. */
    public static Datatype createHVector(int count, int blockLength, int stride, Datatype oldType)
            throws MPIException {
        return derive(() -> {
            TypeMap old = usable(oldType);
            checkCount(count, "count");
            checkCount(blockLength, "block length");
            return vector(old, count, blockLength, stride);
        }, reducible(oldType));
    }

    /** Blocks of {@code blockLengths[i]} items of {@code oldType} at {@code displacements[i]} extents. */
    public static Datatype createIndexed(int[] blockLengths, int[] displacements, Datatype oldType)
            throws MPIException {
        return derive(() -> indexed(blockLengths, displacements, usable(oldType), true), reducible(oldType));
    }

    /** {@link #createIndexed} with the displacements in bytes. */
    public static Datatype createHIndexed(int[] blockLengths, int[] displacements, Datatype oldType)
            throws MPIException {
        return derive(() -> indexed(blockLengths, displacements, usable(oldType), false), reducible(oldType));
    }

    /**
     * Blocks of {@code blockLengths[i]} items of {@code types[i]} at byte {@code displacements[i]}. The base type
     * is BYTE whatever the types (mpi-java-api.md section 1.4): the buffer is a {@code byte[]} or
     * {@code ByteBuffer} holding the values in native byte order, as for {@link Struct}; the predefined reduction
     * operations do not apply to it.
     */
    public static Datatype createStruct(int[] blockLengths, int[] displacements, @Nullable Datatype[] types)
            throws MPIException {
        MPI.check();
        int align = 1;
        for (Datatype t : types) {
            align = Math.max(align, t == null ? 1 : t.alignment);
        }
        return derive(() -> {
            checkLengths(blockLengths.length, displacements.length, types.length);
            TypeMap[] members = new TypeMap[types.length];
            for (int i = 0; i < types.length; i++) {
                members[i] = usable(types[i]);
                checkCount(blockLengths[i], "block length " + i);
            }
            return TypeMap.of(BaseType.BYTE, sink -> {
                for (int i = 0; i < members.length; i++) {
                    for (int j = 0; j < blockLengths[i]; j++) {
                        sink.copy(members[i], displacements[i] + j * members[i].extent());
                    }
                }
            });
        }, false, align);
    }

    /** {@code oldType} with lower bound {@code lb} and extent {@code extent}, both in bytes (as Open MPI). */
    public static Datatype createResized(Datatype oldType, int lb, int extent) throws MPIException {
        return derive(() -> usable(oldType).resized(lb, extent), reducible(oldType));
    }

    /** Makes a derived type usable in communication; a predefined one is always committed. */
    public void commit() throws MPIException {
        MPI.check();
        if (base == null || freed) {
            throw MPI.raise(MPI.process().world(), MPI.ERR_TYPE, "cannot commit " + (freed ? "a freed datatype"
                    : "DATATYPE_NULL"));
        }
        committed = true;
    }

    /**
     * Frees a derived type: it can no longer be used ({@code ERR_TYPE}) and {@link #isNull()} becomes true; types
     * built from it and operations under way are not affected. Freeing a predefined type, or twice, is
     * {@code ERR_TYPE}.
     */
    @Override
    public void free() throws MPIException {
        MPI.check();
        if (!derived || freed) {
            throw MPI.raise(MPI.process().world(), MPI.ERR_TYPE, derived ? "the datatype has already been freed"
                    : "a predefined datatype (" + name + ") cannot be freed");
        }
        freed = true;
        MPI.process().keyvals().ofDatatype(this).clear();
    }

    /** A new derived type of the same type map, committed if this one is (MPI 4.1 section 5.1.10). */
    public Datatype dup() throws MPIException {
        MPI.check();
        TypeMap m = map;
        if (m == null || freed) {
            throw MPI.raise(MPI.process().world(), MPI.ERR_TYPE, "cannot duplicate " + (freed ? "a freed datatype"
                    : "DATATYPE_NULL"));
        }
        Datatype copy = new Datatype(m, reducible, alignment, committed);
        Keyvals keyvals = MPI.process().keyvals();
        keyvals.ofDatatype(this).copyTo(keyvals.ofDatatype(copy)); // MPI 4.1 section 7.7.4: dup copies attributes
        return copy;
    }

    /** {@link #dup()}, with a failure as a {@code RuntimeException} (the signature has no {@code throws}). */
    @Override
    public Datatype clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e.getMessage(), e);
        }
    }

    /**
     * The type map of a type given to communication: ERR_TYPE for null, {@code DATATYPE_NULL}, a freed or an
     * uncommitted type.
     */
    static TypeMap committedMap(@Nullable Datatype type) {
        if (type != null && type.derived && !type.committed && !type.freed) {
            throw new MpiError(MPI.ERR_TYPE, "the datatype has not been committed: call commit() before using it"
                    + " in communication");
        }
        return usable(type);
    }

    /** Whether items of this type must be gathered or scattered (a derived type that is not contiguous). */
    boolean isStaged() {
        return span == 0 && base != null;
    }

    /** Whether the predefined reduction operations apply to this type's base elements. */
    boolean isReducible() {
        return reducible;
    }

    /** The predefined datatype of base type {@code b}. */
    static Datatype basic(BaseType b) {
        return switch (b) {
            case BYTE -> MPI.BYTE;
            case CHAR -> MPI.CHAR;
            case SHORT -> MPI.SHORT;
            case BOOLEAN -> MPI.BOOLEAN;
            case INT -> MPI.INT;
            case LONG -> MPI.LONG;
            case FLOAT -> MPI.FLOAT;
            case DOUBLE -> MPI.DOUBLE;
        };
    }

    private static boolean reducible(@Nullable Datatype type) {
        return type != null && type.reducible;
    }

    private static TypeMap usable(@Nullable Datatype type) {
        if (type == null || type.map == null) {
            throw new MpiError(MPI.ERR_TYPE, "invalid datatype: DATATYPE_NULL (or null) carries no data");
        }
        if (type.freed) {
            throw new MpiError(MPI.ERR_TYPE, "the datatype has been freed");
        }
        return type.map;
    }

    private static void checkCount(int count, String what) {
        if (count < 0) {
            throw new MpiError(MPI.ERR_COUNT, "a " + what + " cannot be negative: " + count);
        }
    }

    private static void checkLengths(int... lengths) {
        for (int n : lengths) {
            if (n != lengths[0]) {
                throw new MpiError(MPI.ERR_ARG, "the block lengths, displacements (and types) must be arrays of"
                        + " the same length, not " + Arrays.toString(lengths));
            }
        }
    }

    private static TypeMap vector(TypeMap old, int count, int blockLength, long strideBytes) {
        return TypeMap.of(old.base(), sink -> {
            for (int i = 0; i < count; i++) {
                for (int j = 0; j < blockLength; j++) {
                    sink.copy(old, i * strideBytes + j * old.extent());
                }
            }
        });
    }

    private static TypeMap indexed(int[] blockLengths, int[] displacements, TypeMap old, boolean inExtents) {
        checkLengths(blockLengths.length, displacements.length);
        for (int i = 0; i < blockLengths.length; i++) {
            checkCount(blockLengths[i], "block length " + i);
        }
        return TypeMap.of(old.base(), sink -> {
            for (int i = 0; i < blockLengths.length; i++) {
                long start = inExtents ? displacements[i] * old.extent() : displacements[i];
                for (int j = 0; j < blockLengths[i]; j++) {
                    sink.copy(old, start + j * old.extent());
                }
            }
        });
    }

    /** Builds a type map for a factory; its {@code MpiError} goes through COMM_WORLD's handler. */
    @FunctionalInterface
    private interface MapMaker {
        TypeMap make();
    }

    private static Datatype derive(MapMaker maker, boolean reducible) throws MPIException {
        return derive(maker, reducible, 0);
    }

    private static Datatype derive(MapMaker maker, boolean reducible, int alignment) throws MPIException {
        MPI.check();
        try {
            TypeMap m = maker.make();
            return new Datatype(m, reducible, alignment == 0 ? m.base().bytes() : alignment, false);
        } catch (MpiError e) {
            throw MPI.raise(MPI.process().world(), e);
        }
    }

    private TypeMap checkedMap() throws MPIException {
        MPI.check();
        try {
            return usable(this);
        } catch (MpiError e) {
            throw MPI.raise(MPI.process().world(), e);
        }
    }

    /** {@code bytes} in base elements (a partial element is dropped, as Open MPI's division does). */
    private int units(long bytes) {
        BaseType b = base;
        return b == null ? 0 : (int) (bytes / b.bytes());
    }
}
