package mpi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Key/value hints (mpi-java-api.md section 2.15): a local, ordered map. Keys are at most {@code MPI.MAX_INFO_KEY}
 * characters ({@code ERR_INFO_KEY}), values at most {@code MPI.MAX_INFO_VAL} ({@code ERR_INFO_VALUE}); deleting an
 * absent key is {@code ERR_INFO_NOKEY}. {@code MPI.INFO_NULL} is null; {@code MPI.INFO_ENV} cannot be changed
 * ({@code ERR_INFO}). Errors go through the calling rank's {@code COMM_WORLD} error handler.
 */
public final class Info implements Freeable, Cloneable {
    private final Map<String, String> entries;
    private final boolean predefined;
    private volatile boolean freed;

    public Info() throws MPIException {
        MPI.check();
        this.entries = new LinkedHashMap<>();
        this.predefined = false;
    }

    private Info(Map<String, String> entries, boolean predefined, boolean isNull) {
        this.entries = entries;
        this.predefined = predefined;
        this.freed = isNull;
    }

    static Info nullInfo() {
        return new Info(new LinkedHashMap<>(), true, true);
    }

    /** {@code MPI.INFO_ENV}: what the process was started with that does not need MPI to know. */
    static Info environment() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("host", MPI.hostName());
        env.put("arch", System.getProperty("os.arch", "unknown"));
        env.put("wdir", System.getProperty("user.dir", ""));
        env.put("command", System.getProperty("sun.java.command", "java").split(" ")[0]);
        return new Info(env, true, false);
    }

    public synchronized void set(String key, String value) throws MPIException {
        modifiable();
        checkKey(key);
        if (value.isEmpty() || value.length() > MPI.MAX_INFO_VAL) {
            throw error(MPI.ERR_INFO_VALUE, "an info value must be 1.." + MPI.MAX_INFO_VAL + " characters long");
        }
        entries.put(key, value);
    }

    /** The value of {@code key}, or null if it is not set. */
    public synchronized @Nullable String get(String key) throws MPIException {
        live();
        checkKey(key);
        return entries.get(key);
    }

    public synchronized void delete(String key) throws MPIException {
        modifiable();
        checkKey(key);
        if (entries.remove(key) == null) {
            throw error(MPI.ERR_INFO_NOKEY, "no info key '" + key + "' to delete");
        }
    }

    public synchronized int size() throws MPIException {
        live();
        return entries.size();
    }

    /** The {@code i}-th key, in the order keys were first set. */
    public synchronized String getKey(int i) throws MPIException {
        live();
        if (i < 0 || i >= entries.size()) {
            throw error(MPI.ERR_ARG, "key index " + i + " is not in 0.." + (entries.size() - 1));
        }
        List<String> keys = new ArrayList<>(entries.keySet());
        return keys.get(i);
    }

    public synchronized Info dup() throws MPIException {
        live();
        return new Info(new LinkedHashMap<>(entries), false, false);
    }

    /** A copy ({@link #dup()}); a failure becomes a {@code RuntimeException}, as the signature has no throws. */
    @Override
    public Info clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e);
        }
    }

    @Override
    public void free() throws MPIException {
        modifiable();
        freed = true;
    }

    public boolean isNull() {
        return freed;
    }

    // ---- communicator extras: the hints of a communicator (Comm.setInfo, getInfo, dupWithInfo) ---------------

    /** A new info object with {@code hints}. */
    static Info of(Map<String, String> hints) {
        return new Info(new LinkedHashMap<>(hints), false, false);
    }

    /** A copy of the entries; a freed info (or {@code INFO_NULL}) is ERR_INFO. */
    synchronized Map<String, String> entries() throws MPIException {
        live();
        return new LinkedHashMap<>(entries);
    }

    private void live() throws MPIException {
        MPI.check();
        if (freed) {
            throw error(MPI.ERR_INFO, this == MPI.INFO_NULL ? "INFO_NULL has no entries" : "the info is freed");
        }
    }

    private void modifiable() throws MPIException {
        live();
        if (predefined) {
            throw error(MPI.ERR_INFO, "INFO_ENV is predefined and cannot be changed");
        }
    }

    private static void checkKey(String key) throws MPIException {
        if (key.isEmpty() || key.length() > MPI.MAX_INFO_KEY) {
            throw error(MPI.ERR_INFO_KEY, "an info key must be 1.." + MPI.MAX_INFO_KEY + " characters long, not "
                    + key.length());
        }
    }

    private static MPIException error(int errorClass, String message) throws MPIException {
        return MPI.raise(MPI.process().world(), errorClass, message);
    }
}
