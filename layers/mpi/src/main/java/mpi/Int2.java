package mpi;

/**
 * The struct of {@code MPI.INT2} items, {@code MPI.int2}:
 * an int value at byte 0 and an int index at byte 4 (as C's struct of the
 * two), for {@code MPI.MINLOC} and {@code MPI.MAXLOC}. Its type is {@code MPI.INT2}.
 */
public final class Int2 extends Struct {
    private final int valueOffset;
    private final int indexOffset;

    Int2(Datatype type) {
        valueOffset = addInt();
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
        public int getValue() {
            return getInt(valueOffset);
        }

        public int getIndex() {
            return getInt(indexOffset);
        }

        public void putValue(int value) {
            putInt(valueOffset, value);
        }

        public void putIndex(int index) {
            putInt(indexOffset, index);
        }
    }
}
