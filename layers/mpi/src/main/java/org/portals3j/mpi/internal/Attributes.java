package org.portals3j.mpi.internal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The attributes cached on one communicator or datatype (mpi-java-api.md sections 2.7 and 4.6): user keyval to
 * value, kept Java-serialised as Open MPI's bindings keep them, so that {@code getAttr} gives an equal copy, never
 * the object that was set, and a value must be {@code Serializable}. The keyvals of the Java API copy every value on
 * {@code dup} (a copy of the bytes) and drop it on {@code free} or {@code deleteAttr}: the copy and delete callbacks
 * the bindings give every keyval. Thread-safe.
 */
public final class Attributes {
    private final Map<Integer, byte[]> values = new HashMap<>();

    public synchronized void set(int keyval, byte[] value) {
        values.put(keyval, value);
    }

    public synchronized byte @Nullable [] get(int keyval) {
        return values.get(keyval);
    }

    /** Removes the value of {@code keyval}; whether there was one. */
    public synchronized boolean delete(int keyval) {
        return values.remove(keyval) != null;
    }

    /** Drops every value (the communicator or datatype is freed). */
    public synchronized void clear() {
        values.clear();
    }

    /** Copies every value to {@code target} ({@code dup}). */
    public void copyTo(Attributes target) {
        Map<Integer, byte[]> copy;
        synchronized (this) {
            copy = new HashMap<>(values);
        }
        synchronized (target) {
            target.values.putAll(copy);
        }
    }

    /**
     * {@code value} serialised.
     *
     * @throws UncheckedIOException if it cannot be (not {@code Serializable})
     */
    public static byte[] serialize(@Nullable Object value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * The object {@code bytes} hold.
     *
     * @throws UncheckedIOException if they cannot be read back (its class is gone)
     */
    public static @Nullable Object deserialize(byte[] bytes) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            return in.readObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException e) {
            throw new UncheckedIOException(new IOException(e));
        }
    }
}
