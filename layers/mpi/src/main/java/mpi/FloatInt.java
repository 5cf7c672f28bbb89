package mpi;

/**
 * The struct of {@code MPI.FLOAT_INT} items, {@code MPI.floatInt}:
 * a float value at byte 0 and an int index at byte 4 (as C's struct of the
 * two), for {@code MPI.MINLOC} and {@code MPI.MAXLOC}. Its type is {@code MPI.FLOAT_INT}.
 */
public final class FloatInt extends Struct {
    private final int valueOffset;
    private final int indexOffset;

    FloatInt(Datatype type) {
        valueOffset = addFloat();
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
        public float getValue() {
            return getFloat(valueOffset);
        }

        public int getIndex() {
            return getInt(indexOffset);
        }

        public void putValue(float value) {
            putFloat(valueOffset, value);
        }

        public void putIndex(int index) {
            putInt(indexOffset, index);
        }
    }
}
