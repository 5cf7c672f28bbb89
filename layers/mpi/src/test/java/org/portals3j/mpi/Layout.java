package org.portals3j.mpi;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;

/**
 * A non-contiguous derived type under test and where its data lie in one extent of an int (or, for a struct, a
 * byte) buffer; buffers are built and read back as int images, every element not covered by the type a gap value.
 */
enum Layout {
    /** {@code createVector(2, 1, 3, INT)}: ints 0 and 3 of every four. */
    VECTOR(false, 4, 0, 3),
    /** {@code createIndexed({1, 2}, {0, 3}, INT)} resized to six ints: ints 0, 3 and 4 of every six. */
    INDEXED(false, 6, 0, 3, 4),
    /** {@code createStruct} of an INT at byte 0 and a DOUBLE at byte 8: bytes 0-3 and 8-15 of every 16. */
    STRUCT(true, 16, 0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15);

    private final boolean bytes;
    /** The elements of the buffer one item spans. */
    final int extent;
    /** Which elements of an item's extent hold its data. */
    final int[] data;

    Layout(boolean bytes, int extent, int... data) {
        this.bytes = bytes;
        this.extent = extent;
        this.data = data;
    }

    /** The committed type (after {@code MPI.Init}). */
    Datatype type() throws MPIException {
        Datatype t = switch (this) {
            case VECTOR -> Datatype.createVector(2, 1, 3, MPI.INT);
            case INDEXED -> Datatype.createResized(Datatype.createIndexed(new int[] {1, 2}, new int[] {0, 3},
                    MPI.INT), 0, 24);
            case STRUCT -> Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8},
                    new Datatype[] {MPI.INT, MPI.DOUBLE});
        };
        t.commit();
        return t;
    }

    /** The contiguous basic type with the same elements as the packed data. */
    Datatype basic() {
        return bytes ? MPI.BYTE : MPI.INT;
    }

    /** The value of data element {@code j} of item {@code item} of {@code rank}'s data (never a gap value). */
    int value(int rank, int item, int j) {
        int v = 1000 * rank + 20 * item + j + 1;
        return bytes ? v % 113 + 1 : v;
    }

    /** {@code items} items of {@code rank}'s data (item k: {@code value(rank, first + k, j)}), gaps {@code gap}. */
    int[] items(int rank, int first, int items, int gap) {
        int[] image = new int[items * extent];
        Arrays.fill(image, gap);
        for (int k = 0; k < items; k++) {
            put(image, k, rank, first + k);
        }
        return image;
    }

    /** Writes {@code rank}'s item {@code item} into item slot {@code slot} of {@code image}. */
    void put(int[] image, int slot, int rank, int item) {
        for (int j = 0; j < data.length; j++) {
            image[slot * extent + data[j]] = value(rank, item, j);
        }
    }

    /** {@code items} items of gaps only. */
    int[] blank(int items, int gap) {
        int[] image = new int[items * extent];
        Arrays.fill(image, gap);
        return image;
    }

    /** {@code items} items of {@code rank}'s data packed contiguously (for the basic type). */
    int[] packed(int rank, int first, int items) {
        int[] p = new int[items * data.length];
        for (int k = 0; k < items; k++) {
            for (int j = 0; j < data.length; j++) {
                p[k * data.length + j] = value(rank, first + k, j);
            }
        }
        return p;
    }

    /** A heap buffer holding {@code image}: an {@code IntBuffer}, or a {@code ByteBuffer} for a struct. */
    Buffer wrap(int[] image) {
        if (!bytes) {
            return IntBuffer.wrap(image.clone());
        }
        byte[] b = new byte[image.length];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) image[i];
        }
        return ByteBuffer.wrap(b);
    }

    /** The whole contents of a buffer made by {@link #wrap}. */
    static int[] image(Buffer buf) {
        if (buf instanceof IntBuffer ints) {
            return ints.array().clone();
        }
        byte[] b = ((ByteBuffer) buf).array();
        int[] image = new int[b.length];
        for (int i = 0; i < b.length; i++) {
            image[i] = b[i];
        }
        return image;
    }
}
