package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The layout of a C-like struct in a {@code ByteBuffer} (mpi-java-api.md section 1.4): a subclass adds its fields
 * in order ({@code addInt()} and the others return each field's byte offset; {@link #setOffset} leaves a gap),
 * makes {@link #newData()} return its {@link Data} subclass, and reads and writes items of a buffer through
 * {@code getData(buffer, index)}. Item {@code i} starts at byte {@code i * getExtent()} of the buffer, whatever its
 * position.
 *
 * <p>The layout is fixed by the first {@code getExtent}, {@code getType} or {@code getData}: its extent is the end
 * of the last field rounded up to the largest alignment of its fields (a primitive's size; a nested struct's own
 * alignment), as MPI's struct types on the usual ABIs. {@link #getType()} is a datatype of that many bytes (base type
 * BYTE, so buffers are {@code byte[]} or {@code ByteBuffer}) that moves whole items, padding included (derived
 * datatypes, which would skip the gaps, are not in this version); predefined reduction operations do not apply to it
 * ({@code ERR_OP}), user ones get {@code byte[]} arrays. The pair structs {@code MPI.int2} to {@code MPI.doubleInt}
 * have the pair types ({@code MPI.INT2} ...) as their type.
 */
public abstract class Struct {
    private static final ByteBuffer NO_BUFFER = ByteBuffer.allocate(0);

    private int extent;
    private int alignment = 1;
    private @Nullable Datatype datatype;

    /** The datatype of this struct: its bytes moved as one item ({@code pairType} for the pair structs). */
    private Datatype commit() {
        Datatype t = datatype;
        if (t == null) {
            extent = align(extent, alignment);
            t = Datatype.struct(extent, alignment, getClass().getSimpleName());
            datatype = t;
        }
        return t;
    }

    /** Makes this struct's type the predefined pair type {@code type} (for {@code Int2} ... {@code DoubleInt}). */
    final void fix(Datatype type) {
        extent = align(extent, alignment);
        datatype = type;
    }

    private static int align(int offset, int to) {
        return (offset + to - 1) / to * to;
    }

    /** The extent in bytes: where item 1 starts. */
    public final int getExtent() throws MPIException {
        commit();
        return extent;
    }

    /** The datatype of one item. */
    public final Datatype getType() throws MPIException {
        return commit();
    }

    /** A new, unattached data object of this struct (the subclass's own {@code Data}). */
    protected abstract Data newData();

    @SuppressWarnings("unchecked") // the subclass's newData decides the type, as in Open MPI's signature
    private <T extends Data> T attach(ByteBuffer buffer, int offset) {
        Data d = newData();
        d.buffer = buffer;
        d.offset = offset;
        return (T) d;
    }

    /** Item 0 of {@code buffer}. */
    public final <T extends Data> T getData(ByteBuffer buffer) throws MPIException {
        return getData(buffer, 0);
    }

    /** Item {@code index} of {@code buffer}. */
    public final <T extends Data> T getData(ByteBuffer buffer, int index) throws MPIException {
        commit();
        return attach(buffer, Math.multiplyExact(index, extent));
    }

    /** Item 0 of {@code array}, in native byte order. */
    public final <T extends Data> T getData(byte[] array) throws MPIException {
        return getData(array, 0);
    }

    /** Item {@code index} of {@code array}, in native byte order. */
    public final <T extends Data> T getData(byte[] array, int index) throws MPIException {
        return getData(ByteBuffer.wrap(array).order(ByteOrder.nativeOrder()), index);
    }

    private int addField(int size, int align, int length) {
        if (datatype != null) {
            throw new IllegalStateException("the struct's layout is fixed once used: add every field first");
        }
        if (length < 0) {
            throw new IllegalArgumentException("a field cannot have a negative length: " + length);
        }
        int offset = extent;
        extent = Math.addExact(extent, Math.multiplyExact(size, length));
        alignment = Math.max(alignment, align);
        return offset;
    }

    /** Puts the next field at byte {@code offset}, which must not be below the end of the fields so far. */
    public final Struct setOffset(int offset) {
        if (datatype != null) {
            throw new IllegalStateException("the struct's layout is fixed once used: add every field first");
        }
        if (offset < extent) {
            throw new IllegalArgumentException("the offset " + offset + " is inside the fields so far (they end at "
                    + extent + ")");
        }
        extent = offset;
        return this;
    }

    public final int addByte() {
        return addByte(1);
    }

    public final int addByte(int length) {
        return addField(1, 1, length);
    }

    public final int addChar() {
        return addChar(1);
    }

    public final int addChar(int length) {
        return addField(2, 2, length);
    }

    public final int addShort() {
        return addShort(1);
    }

    public final int addShort(int length) {
        return addField(2, 2, length);
    }

    public final int addInt() {
        return addInt(1);
    }

    public final int addInt(int length) {
        return addField(4, 4, length);
    }

    public final int addLong() {
        return addLong(1);
    }

    public final int addLong(int length) {
        return addField(8, 8, length);
    }

    public final int addFloat() {
        return addFloat(1);
    }

    public final int addFloat(int length) {
        return addField(4, 4, length);
    }

    public final int addDouble() {
        return addDouble(1);
    }

    public final int addDouble(int length) {
        return addField(8, 8, length);
    }

    public final int addStruct(Struct struct) throws MPIException {
        return addStruct(struct, 1);
    }

    /** A field of {@code length} items of {@code struct} (whose layout this fixes). */
    public final int addStruct(Struct struct, int length) throws MPIException {
        struct.commit();
        return addField(struct.extent, struct.alignment, length);
    }

    public final int addData(Datatype type) throws MPIException {
        return addData(type, 1);
    }

    /** A field of {@code length} items of {@code type}, aligned as its base type. */
    public final int addData(Datatype type, int length) throws MPIException {
        MPI.check();
        int bytes = type.byteSize();
        if (bytes == 0) {
            throw MPI.raise(MPI.process().world(), MPI.ERR_TYPE, "DATATYPE_NULL cannot be a field");
        }
        return addField(bytes, type.alignment(), length);
    }

    /**
     * Reads and writes one item of a struct in a buffer: the subclass's accessors call the protected methods with
     * the field offsets the struct's {@code add*} methods returned.
     */
    public abstract class Data {
        private ByteBuffer buffer = NO_BUFFER;
        private int offset;

        /** The buffer from this item on (item 0: the buffer itself), to send or receive. */
        public final ByteBuffer getBuffer() {
            return offset == 0 ? buffer : from(offset);
        }

        private ByteBuffer from(int position) {
            return buffer.duplicate().clear().position(position).slice().order(buffer.order());
        }

        protected final byte getByte(int field) {
            return buffer.get(offset + field);
        }

        protected final byte getByte(int field, int index) {
            return buffer.get(offset + field + index);
        }

        protected final void putByte(int field, byte v) {
            buffer.put(offset + field, v);
        }

        protected final void putByte(int field, int index, byte v) {
            buffer.put(offset + field + index, v);
        }

        protected final char getChar(int field) {
            return buffer.getChar(offset + field);
        }

        protected final char getChar(int field, int index) {
            return buffer.getChar(offset + field + index * 2);
        }

        protected final void putChar(int field, char v) {
            buffer.putChar(offset + field, v);
        }

        protected final void putChar(int field, int index, char v) {
            buffer.putChar(offset + field + index * 2, v);
        }

        protected final short getShort(int field) {
            return buffer.getShort(offset + field);
        }

        protected final short getShort(int field, int index) {
            return buffer.getShort(offset + field + index * 2);
        }

        protected final void putShort(int field, short v) {
            buffer.putShort(offset + field, v);
        }

        protected final void putShort(int field, int index, short v) {
            buffer.putShort(offset + field + index * 2, v);
        }

        protected final int getInt(int field) {
            return buffer.getInt(offset + field);
        }

        protected final int getInt(int field, int index) {
            return buffer.getInt(offset + field + index * 4);
        }

        protected final void putInt(int field, int v) {
            buffer.putInt(offset + field, v);
        }

        protected final void putInt(int field, int index, int v) {
            buffer.putInt(offset + field + index * 4, v);
        }

        protected final long getLong(int field) {
            return buffer.getLong(offset + field);
        }

        protected final long getLong(int field, int index) {
            return buffer.getLong(offset + field + index * 8);
        }

        protected final void putLong(int field, long v) {
            buffer.putLong(offset + field, v);
        }

        protected final void putLong(int field, int index, long v) {
            buffer.putLong(offset + field + index * 8, v);
        }

        protected final float getFloat(int field) {
            return buffer.getFloat(offset + field);
        }

        protected final float getFloat(int field, int index) {
            return buffer.getFloat(offset + field + index * 4);
        }

        protected final void putFloat(int field, float v) {
            buffer.putFloat(offset + field, v);
        }

        protected final void putFloat(int field, int index, float v) {
            buffer.putFloat(offset + field + index * 4, v);
        }

        protected final double getDouble(int field) {
            return buffer.getDouble(offset + field);
        }

        protected final double getDouble(int field, int index) {
            return buffer.getDouble(offset + field + index * 8);
        }

        protected final void putDouble(int field, double v) {
            buffer.putDouble(offset + field, v);
        }

        protected final void putDouble(int field, int index, double v) {
            buffer.putDouble(offset + field + index * 8, v);
        }

        /** The nested struct item at {@code field}. */
        protected final <S extends Struct, D extends Struct.Data> D getData(S struct, int field) {
            return getData(struct, field, 0);
        }

        /** Item {@code index} of the nested struct array at {@code field}. */
        protected final <S extends Struct, D extends Struct.Data> D getData(S struct, int field, int index) {
            Struct s = struct;
            s.commit();
            return s.attach(buffer, offset + field + index * s.extent);
        }

        /** The buffer from the field at {@code field} on. */
        protected final ByteBuffer getBuffer(Datatype type, int field) {
            int position = offset + field;
            return position == 0 ? buffer : from(position);
        }

        /** The buffer from item {@code index} of the array of {@code type} at {@code field} on. */
        protected final ByteBuffer getBuffer(Datatype type, int field, int index) throws MPIException {
            MPI.check();
            int position = offset + field + index * type.byteSize();
            return position == 0 ? buffer : from(position);
        }
    }
}
