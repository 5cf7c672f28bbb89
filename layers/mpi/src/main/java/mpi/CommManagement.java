package mpi;

import java.io.UncheckedIOException;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.Attributes;
import org.portals3j.mpi.internal.CommState;
import org.portals3j.mpi.internal.InterCommunicators;
import org.portals3j.mpi.internal.Keyvals;
import org.portals3j.mpi.internal.MpiError;

/**
 * Communicator management of {@link Comm}: comparison, intercommunicator creation, info hints and cached
 * attributes on the calling rank's state; errors through the communicator's handler (the static ones COMM_WORLD's).
 */
final class CommManagement {
    private CommManagement() {
    }

    static int compare(Comm comm1, Comm comm2) throws MPIException {
        CommState a = comm1.state();
        CommState b = comm2.state();
        if (a == b) {
            return MPI.IDENT;
        }
        if (a.isInter() != b.isInter()) {
            return MPI.UNEQUAL;
        }
        int groups = Group.compareRanks(a.jobRanks(), b.jobRanks());
        if (a.isInter()) {
            groups = Math.max(groups, Group.compareRanks(a.localJobRanks(), b.localJobRanks()));
        }
        return groups == MPI.IDENT ? MPI.CONGRUENT : groups;
    }

    static @Nullable CommState withHints(@Nullable CommState c, Map<String, String> hints) {
        if (c != null) {
            c.setHints(hints);
        }
        return c;
    }

    /** The hints of {@code info} ({@code INFO_NULL}: none); a freed info is ERR_INFO. */
    static Map<String, String> hintsOf(Info info) throws MPIException {
        return info == MPI.INFO_NULL ? Map.of() : info.entries();
    }

    static void setInfo(CommState c, Info info) throws MPIException {
        if (info == MPI.INFO_NULL || info.isNull()) {
            throw MPI.raise(c, MPI.ERR_INFO, "setInfo needs an info object, not INFO_NULL or a freed one");
        }
        c.setHints(info.entries());
    }

    static Info getInfo(CommState c) throws MPIException {
        return Info.of(c.hints());
    }

    static int createKeyval() throws MPIException {
        CommState world = MPI.process().world();
        try {
            return MPI.process().keyvals().create(Keyvals.Kind.COMMUNICATOR);
        } catch (MpiError e) {
            throw MPI.raise(world, e);
        }
    }

    static void freeKeyval(int keyval) throws MPIException {
        CommState world = MPI.process().world();
        try {
            MPI.process().keyvals().free(keyval, Keyvals.Kind.COMMUNICATOR);
        } catch (MpiError e) {
            throw MPI.raise(world, e);
        }
    }

    static void setAttr(CommState c, int keyval, @Nullable Object value) throws MPIException {
        checkedKeyval(c, keyval);
        try {
            c.attributes().set(keyval, Attributes.serialize(value));
        } catch (UncheckedIOException e) {
            throw new MPIException(e.getCause());
        }
    }

    static @Nullable Object getAttr(CommState c, int keyval) throws MPIException {
        try {
            if (keyval >= 0 && keyval < Keyvals.PREDEFINED_COUNT) {
                Object value = Keyvals.predefinedValue(keyval, MPI.process().engine().size());
                return c.hasPredefinedAttributes() ? value : null;
            }
            MPI.process().keyvals().check(keyval, Keyvals.Kind.COMMUNICATOR);
            byte[] bytes = c.attributes().get(keyval);
            return bytes == null ? null : Attributes.deserialize(bytes);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        } catch (UncheckedIOException e) {
            throw new MPIException(e.getCause());
        }
    }

    static void deleteAttr(CommState c, int keyval) throws MPIException {
        checkedKeyval(c, keyval).attributes().delete(keyval);
    }

    private static CommState checkedKeyval(CommState c, int keyval) throws MPIException {
        try {
            MPI.process().keyvals().check(keyval, Keyvals.Kind.COMMUNICATOR);
        } catch (MpiError e) {
            throw MPI.raise(c, e);
        }
        return c;
    }

    static Intercomm createIntercomm(CommState peer, Comm localComm, int localLeader, int remoteLeader,
            int tag) throws MPIException {
        CommState local = localComm.state();
        try {
            return new Intercomm(InterCommunicators.create(peer, local, MPI.process().contexts(), localLeader,
                    remoteLeader, tag));
        } catch (MpiError e) {
            throw MPI.raise(local, e);
        }
    }
}
