package mpi;

/**
 * The struct of {@code MPI.SHORT_INT} items, {@code MPI.shortInt}:
 * a short value at byte 0 and an int index at byte 4 (as C's struct of the
 * two), for {@code MPI.MINLOC} and {@code MPI.MAXLOC}. Its type is {@code MPI.SHORT_INT}.
 */
public final class ShortInt extends Struct {
    private final int valueOffset;
    private final int indexOffset;

    ShortInt(Datatype type) {
        valueOffset = addShort();
        setOffset(4);
        indexOffset = addInt();
        fix(type);
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One value/index pair. */
    public final class Data extends Struct.Data {
        public short getValue() {
            return getShort(valueOffset);
        }

        public int getIndex() {
            return getInt(indexOffset);
        }

        public void putValue(short value) {
            putShort(valueOffset, value);
        }

        public void putIndex(int index) {
            putInt(indexOffset, index);
        }
    }
}
