package mpi;

import org.checkerframework.checker.nullness.qual.Nullable;

/** {@code MPI_Count}: a 64-bit count. */
public final class Count implements Comparable<Count> {
    private long count;

    public Count(long count) {
        this.count = count;
    }

    public long getCount() {
        return count;
    }

    public void setCount(long count) {
        this.count = count;
    }

    @Override
    public boolean equals(@Nullable Object obj) {
        return obj instanceof Count c && c.count == count;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(count);
    }

    @Override
    public int compareTo(Count other) {
        return Long.compare(count, other.count);
    }
}
