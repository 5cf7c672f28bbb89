package mpi;

/**
 * The struct of {@code MPI.LONG_INT} items, {@code MPI.longInt}:
 * a long value at byte 0 and an int index at byte 8 (as C's struct of the
 * two), for {@code MPI.MINLOC} and {@code MPI.MAXLOC}. Its type is {@code MPI.LONG_INT}.
 */
public final class LongInt extends Struct {
    private final int valueOffset;
    private final int indexOffset;

    LongInt(Datatype type) {
        valueOffset = addLong();
        setOffset(8);
        indexOffset = addInt();
        fix(type);
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One value/index pair. */
    public final class Data extends Struct.Data {
        public long getValue() {
            return getLong(valueOffset);
        }

        public int getIndex() {
            return getInt(indexOffset);
        }

        public void putValue(long value) {
            putLong(valueOffset, value);
        }

        public void putIndex(int index) {
            putInt(indexOffset, index);
        }
    }
}
