package mpi;

/**
 * The struct of {@code MPI.DOUBLE_INT} items, {@code MPI.doubleInt}:
 * a double value at byte 0 and an int index at byte 8 (as C's struct of the
 * two), for {@code MPI.MINLOC} and {@code MPI.MAXLOC}. Its type is {@code MPI.DOUBLE_INT}.
 */
public final class DoubleInt extends Struct {
    private final int valueOffset;
    private final int indexOffset;

    DoubleInt(Datatype type) {
        valueOffset = addDouble();
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
        public double getValue() {
            return getDouble(valueOffset);
        }

        public int getIndex() {
            return getInt(indexOffset);
        }

        public void putValue(double value) {
            putDouble(valueOffset, value);
        }

        public void putIndex(int index) {
            putInt(indexOffset, index);
        }
    }
}
