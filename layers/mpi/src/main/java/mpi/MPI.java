package mpi;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.BaseType;
import org.portals3j.mpi.internal.CommState;
import org.portals3j.mpi.internal.Constants;
import org.portals3j.mpi.internal.ErrorClass;
import org.portals3j.mpi.internal.ErrorHandling;
import org.portals3j.mpi.internal.JobAbort;
import org.portals3j.mpi.internal.MpiError;
import org.portals3j.mpi.internal.MpiProcess;
import org.portals3j.mpi.internal.MpiRuntime;
import org.portals3j.mpi.internal.PairType;
import org.portals3j.mpi.internal.PredefinedOp;
import org.portals3j.transport.TransportException;

/**
 * The MPI environment: start-up and shutdown, timers, buffer helpers, and every predefined constant and object
 * (mpi-java-api.md sections 1.2, 1.3, 1.8). The constants are assigned in the static initialiser, so that none is a
 * compile-time constant (section 1.10 rule 6); building them makes no MPI call.
 *
 * <p>{@code Init} joins the job ({@code JobRuntime.join()}: {@code portals run}, Slurm, Open MPI's {@code mpirun}, or
 * a job of one) and {@code Finalize} leaves it. In a JVM that runs several ranks as threads, each thread acts for
 * the rank the job runtime bound it to (see {@code org.portals3j.mpi.internal.MpiRuntime}).
 */
public final class MPI {
    public static final Intracomm COMM_WORLD;
    public static final Intracomm COMM_SELF;

    public static final int THREAD_SINGLE;
    public static final int THREAD_FUNNELED;
    public static final int THREAD_SERIALIZED;
    public static final int THREAD_MULTIPLE;

    public static final int GRAPH;
    public static final int DIST_GRAPH;
    public static final int CART;
    public static final int ANY_SOURCE;
    public static final int ANY_TAG;

    public static final Datatype DATATYPE_NULL;
    public static final Datatype BYTE;
    public static final Datatype CHAR;
    public static final Datatype SHORT;
    public static final Datatype BOOLEAN;
    public static final Datatype INT;
    public static final Datatype LONG;
    public static final Datatype FLOAT;
    public static final Datatype DOUBLE;
    public static final Datatype PACKED;
    public static final Datatype FLOAT_COMPLEX;
    public static final Datatype DOUBLE_COMPLEX;
    public static final Datatype INT2;
    public static final Datatype SHORT_INT;
    public static final Datatype LONG_INT;
    public static final Datatype FLOAT_INT;
    public static final Datatype DOUBLE_INT;

    public static final Int2 int2;
    public static final ShortInt shortInt;
    public static final LongInt longInt;
    public static final FloatInt floatInt;
    public static final DoubleInt doubleInt;

    public static final Request REQUEST_NULL;
    public static final Group GROUP_EMPTY;
    public static final Info INFO_ENV;
    public static final Info INFO_NULL;

    public static final int PROC_NULL;
    public static final int UNDEFINED;
    public static final int IDENT;
    public static final int CONGRUENT;
    public static final int SIMILAR;
    public static final int UNEQUAL;
    public static final int TAG_UB;
    public static final int HOST;
    public static final int IO;
    public static final int WTIME_IS_GLOBAL;
    public static final int APPNUM;
    public static final int LASTUSEDCODE;
    public static final int UNIVERSE_SIZE;
    public static final int WIN_BASE;
    public static final int WIN_SIZE;
    public static final int WIN_DISP_UNIT;
    public static final int VERSION;
    public static final int SUBVERSION;
    public static final int ROOT;
    public static final int KEYVAL_INVALID;
    public static final int BSEND_OVERHEAD;
    public static final int MAX_OBJECT_NAME;
    public static final int MAX_PORT_NAME;
    public static final int MAX_DATAREP_STRING;
    public static final int MAX_INFO_KEY;
    public static final int MAX_INFO_VAL;
    public static final int ORDER_C;
    public static final int ORDER_FORTRAN;
    public static final int DISTRIBUTE_BLOCK;
    public static final int DISTRIBUTE_CYCLIC;
    public static final int DISTRIBUTE_NONE;
    public static final int DISTRIBUTE_DFLT_DARG;
    public static final int MODE_CREATE;
    public static final int MODE_RDONLY;
    public static final int MODE_WRONLY;
    public static final int MODE_RDWR;
    public static final int MODE_DELETE_ON_CLOSE;
    public static final int MODE_UNIQUE_OPEN;
    public static final int MODE_EXCL;
    public static final int MODE_APPEND;
    public static final int MODE_SEQUENTIAL;
    public static final int DISPLACEMENT_CURRENT;
    public static final int SEEK_SET;
    public static final int SEEK_CUR;
    public static final int SEEK_END;
    public static final int MODE_NOCHECK;
    public static final int MODE_NOPRECEDE;
    public static final int MODE_NOPUT;
    public static final int MODE_NOSTORE;
    public static final int MODE_NOSUCCEED;
    public static final int LOCK_EXCLUSIVE;
    public static final int LOCK_SHARED;

    public static final Errhandler ERRORS_ARE_FATAL;
    public static final Errhandler ERRORS_ABORT;
    public static final Errhandler ERRORS_RETURN;

    public static final int SUCCESS;
    public static final int ERR_BUFFER;
    public static final int ERR_COUNT;
    public static final int ERR_TYPE;
    public static final int ERR_TAG;
    public static final int ERR_COMM;
    public static final int ERR_RANK;
    public static final int ERR_REQUEST;
    public static final int ERR_ROOT;
    public static final int ERR_GROUP;
    public static final int ERR_OP;
    public static final int ERR_TOPOLOGY;
    public static final int ERR_DIMS;
    public static final int ERR_ARG;
    public static final int ERR_UNKNOWN;
    public static final int ERR_TRUNCATE;
    public static final int ERR_OTHER;
    public static final int ERR_INTERN;
    public static final int ERR_IN_STATUS;
    public static final int ERR_PENDING;
    public static final int ERR_ACCESS;
    public static final int ERR_AMODE;
    public static final int ERR_ASSERT;
    public static final int ERR_BAD_FILE;
    public static final int ERR_BASE;
    public static final int ERR_CONVERSION;
    public static final int ERR_DISP;
    public static final int ERR_DUP_DATAREP;
    public static final int ERR_FILE_EXISTS;
    public static final int ERR_FILE_IN_USE;
    public static final int ERR_FILE;
    public static final int ERR_INFO_KEY;
    public static final int ERR_INFO_NOKEY;
    public static final int ERR_INFO_VALUE;
    public static final int ERR_INFO;
    public static final int ERR_IO;
    public static final int ERR_KEYVAL;
    public static final int ERR_LOCKTYPE;
    public static final int ERR_NAME;
    public static final int ERR_NO_MEM;
    public static final int ERR_NOT_SAME;
    public static final int ERR_NO_SPACE;
    public static final int ERR_NO_SUCH_FILE;
    public static final int ERR_PORT;
    public static final int ERR_QUOTA;
    public static final int ERR_READ_ONLY;
    public static final int ERR_RMA_CONFLICT;
    public static final int ERR_RMA_SYNC;
    public static final int ERR_SERVICE;
    public static final int ERR_SIZE;
    public static final int ERR_SPAWN;
    public static final int ERR_UNSUPPORTED_DATAREP;
    public static final int ERR_UNSUPPORTED_OPERATION;
    public static final int ERR_WIN;
    public static final int ERR_LASTCODE;
    public static final int ERR_SYSRESOURCE;

    /** The MPI standard this library follows (3.1) and its own version string. */
    private static final int MPI_VERSION = 3;
    private static final int MPI_SUBVERSION = 1;
    private static final String LIB_VERSION = "Portals3J MPI (Open MPI Java API, point-to-point) 0.1";
    private static final long ORIGIN = System.nanoTime();

    static {
        SUCCESS = ErrorClass.SUCCESS;
        ERR_BUFFER = ErrorClass.BUFFER;
        ERR_COUNT = ErrorClass.COUNT;
        ERR_TYPE = ErrorClass.TYPE;
        ERR_TAG = ErrorClass.TAG;
        ERR_COMM = ErrorClass.COMM;
        ERR_RANK = ErrorClass.RANK;
        ERR_REQUEST = ErrorClass.REQUEST;
        ERR_ROOT = ErrorClass.ROOT;
        ERR_GROUP = ErrorClass.GROUP;
        ERR_OP = ErrorClass.OP;
        ERR_TOPOLOGY = ErrorClass.TOPOLOGY;
        ERR_DIMS = ErrorClass.DIMS;
        ERR_ARG = ErrorClass.ARG;
        ERR_UNKNOWN = ErrorClass.UNKNOWN;
        ERR_TRUNCATE = ErrorClass.TRUNCATE;
        ERR_OTHER = ErrorClass.OTHER;
        ERR_INTERN = ErrorClass.INTERN;
        ERR_IN_STATUS = ErrorClass.IN_STATUS;
        ERR_PENDING = ErrorClass.PENDING;
        ERR_ACCESS = ErrorClass.ACCESS;
        ERR_AMODE = ErrorClass.AMODE;
        ERR_ASSERT = ErrorClass.ASSERT;
        ERR_BAD_FILE = ErrorClass.BAD_FILE;
        ERR_BASE = ErrorClass.BASE;
        ERR_CONVERSION = ErrorClass.CONVERSION;
        ERR_DISP = ErrorClass.DISP;
        ERR_DUP_DATAREP = ErrorClass.DUP_DATAREP;
        ERR_FILE_EXISTS = ErrorClass.FILE_EXISTS;
        ERR_FILE_IN_USE = ErrorClass.FILE_IN_USE;
        ERR_FILE = ErrorClass.FILE;
        ERR_INFO_KEY = ErrorClass.INFO_KEY;
        ERR_INFO_NOKEY = ErrorClass.INFO_NOKEY;
        ERR_INFO_VALUE = ErrorClass.INFO_VALUE;
        ERR_INFO = ErrorClass.INFO;
        ERR_IO = ErrorClass.IO;
        ERR_KEYVAL = ErrorClass.KEYVAL;
        ERR_LOCKTYPE = ErrorClass.LOCKTYPE;
        ERR_NAME = ErrorClass.NAME;
        ERR_NO_MEM = ErrorClass.NO_MEM;
        ERR_NOT_SAME = ErrorClass.NOT_SAME;
        ERR_NO_SPACE = ErrorClass.NO_SPACE;
        ERR_NO_SUCH_FILE = ErrorClass.NO_SUCH_FILE;
        ERR_PORT = ErrorClass.PORT;
        ERR_QUOTA = ErrorClass.QUOTA;
        ERR_READ_ONLY = ErrorClass.READ_ONLY;
        ERR_RMA_CONFLICT = ErrorClass.RMA_CONFLICT;
        ERR_RMA_SYNC = ErrorClass.RMA_SYNC;
        ERR_SERVICE = ErrorClass.SERVICE;
        ERR_SIZE = ErrorClass.SIZE;
        ERR_SPAWN = ErrorClass.SPAWN;
        ERR_UNSUPPORTED_DATAREP = ErrorClass.UNSUPPORTED_DATAREP;
        ERR_UNSUPPORTED_OPERATION = ErrorClass.UNSUPPORTED_OPERATION;
        ERR_WIN = ErrorClass.WIN;
        ERR_LASTCODE = ErrorClass.LASTCODE;
        ERR_SYSRESOURCE = ErrorClass.SYSRESOURCE;

        THREAD_SINGLE = 0;
        THREAD_FUNNELED = 1;
        THREAD_SERIALIZED = 2;
        THREAD_MULTIPLE = 3;
        GRAPH = 2;
        DIST_GRAPH = 3;
        CART = 1;
        ANY_SOURCE = Constants.ANY_SOURCE;
        ANY_TAG = Constants.ANY_TAG;
        PROC_NULL = Constants.PROC_NULL;
        ROOT = Constants.ROOT;
        UNDEFINED = Constants.UNDEFINED;
        IDENT = 0;
        CONGRUENT = 1;
        SIMILAR = 2;
        UNEQUAL = 3;
        TAG_UB = 0;
        HOST = 1;
        IO = 2;
        WTIME_IS_GLOBAL = 3;
        APPNUM = 4;
        LASTUSEDCODE = 5;
        UNIVERSE_SIZE = 6;
        WIN_BASE = 7;
        WIN_SIZE = 8;
        WIN_DISP_UNIT = 9;
        KEYVAL_INVALID = -1;
        VERSION = MPI_VERSION;
        SUBVERSION = MPI_SUBVERSION;
        BSEND_OVERHEAD = 128;
        MAX_OBJECT_NAME = 64;
        MAX_PORT_NAME = 1024;
        MAX_DATAREP_STRING = 128;
        MAX_INFO_KEY = 36;
        MAX_INFO_VAL = 256;
        ORDER_C = 0;
        ORDER_FORTRAN = 1;
        DISTRIBUTE_BLOCK = 0;
        DISTRIBUTE_CYCLIC = 1;
        DISTRIBUTE_NONE = 2;
        DISTRIBUTE_DFLT_DARG = -1;
        MODE_CREATE = 1;
        MODE_RDONLY = 2;
        MODE_WRONLY = 4;
        MODE_RDWR = 8;
        MODE_DELETE_ON_CLOSE = 16;
        MODE_UNIQUE_OPEN = 32;
        MODE_EXCL = 64;
        MODE_APPEND = 128;
        MODE_SEQUENTIAL = 256;
        DISPLACEMENT_CURRENT = -54278278;
        SEEK_SET = 600;
        SEEK_CUR = 602;
        SEEK_END = 604;
        MODE_NOCHECK = 1;
        MODE_NOPRECEDE = 2;
        MODE_NOPUT = 4;
        MODE_NOSTORE = 8;
        MODE_NOSUCCEED = 16;
        LOCK_EXCLUSIVE = 1;
        LOCK_SHARED = 2;

        DATATYPE_NULL = new Datatype(null, "MPI_DATATYPE_NULL");
        BYTE = new Datatype(BaseType.BYTE, "MPI_BYTE");
        CHAR = new Datatype(BaseType.CHAR, "MPI_CHAR");
        SHORT = new Datatype(BaseType.SHORT, "MPI_SHORT");
        BOOLEAN = new Datatype(BaseType.BOOLEAN, "MPI_BOOLEAN");
        INT = new Datatype(BaseType.INT, "MPI_INT");
        LONG = new Datatype(BaseType.LONG, "MPI_LONG");
        FLOAT = new Datatype(BaseType.FLOAT, "MPI_FLOAT");
        DOUBLE = new Datatype(BaseType.DOUBLE, "MPI_DOUBLE");
        PACKED = new Datatype(BaseType.BYTE, "MPI_PACKED");
        FLOAT_COMPLEX = Datatype.complex(BaseType.FLOAT, "MPI_C_FLOAT_COMPLEX");
        DOUBLE_COMPLEX = Datatype.complex(BaseType.DOUBLE, "MPI_C_DOUBLE_COMPLEX");
        INT2 = Datatype.pair(PairType.INT2, "MPI_2INT");
        SHORT_INT = Datatype.pair(PairType.SHORT_INT, "MPI_SHORT_INT");
        LONG_INT = Datatype.pair(PairType.LONG_INT, "MPI_LONG_INT");
        FLOAT_INT = Datatype.pair(PairType.FLOAT_INT, "MPI_FLOAT_INT");
        DOUBLE_INT = Datatype.pair(PairType.DOUBLE_INT, "MPI_DOUBLE_INT");
        int2 = new Int2(INT2);
        shortInt = new ShortInt(SHORT_INT);
        longInt = new LongInt(LONG_INT);
        floatInt = new FloatInt(FLOAT_INT);
        doubleInt = new DoubleInt(DOUBLE_INT);

        ERRORS_ARE_FATAL = new Errhandler(ErrorHandling.FATAL);
        ERRORS_ABORT = new Errhandler(ErrorHandling.ABORT);
        ERRORS_RETURN = new Errhandler(ErrorHandling.RETURN);
        REQUEST_NULL = new Request();
        GROUP_EMPTY = new Group(new int[0], -1);
        INFO_NULL = Info.nullInfo();
        INFO_ENV = Info.environment();
        COMM_WORLD = new Intracomm(Comm.WORLD);
        COMM_SELF = new Intracomm(Comm.SELF);
    }

    // ---- reduction operations (mpi-java-api.md section 1.5) --------------------------------------

    public static final Op MAX;
    public static final Op MIN;
    public static final Op SUM;
    public static final Op PROD;
    public static final Op LAND;
    public static final Op BAND;
    public static final Op LOR;
    public static final Op BOR;
    public static final Op LXOR;
    public static final Op BXOR;
    public static final Op MINLOC;
    public static final Op MAXLOC;
    public static final Op REPLACE;
    public static final Op NO_OP;

    static {
        MAX = new Op(PredefinedOp.MAX);
        MIN = new Op(PredefinedOp.MIN);
        SUM = new Op(PredefinedOp.SUM);
        PROD = new Op(PredefinedOp.PROD);
        LAND = new Op(PredefinedOp.LAND);
        BAND = new Op(PredefinedOp.BAND);
        LOR = new Op(PredefinedOp.LOR);
        BOR = new Op(PredefinedOp.BOR);
        LXOR = new Op(PredefinedOp.LXOR);
        BXOR = new Op(PredefinedOp.BXOR);
        MINLOC = new Op(PredefinedOp.MINLOC);
        MAXLOC = new Op(PredefinedOp.MAXLOC);
        REPLACE = new Op(PredefinedOp.REPLACE);
        NO_OP = new Op(PredefinedOp.NO_OP);
    }

    private MPI() {
    }

    /** {@code MPI_INIT}: joins the job. A second call on the same rank throws. */
    public static String[] Init(String[] args) throws MPIException {
        init(THREAD_SINGLE);
        return args;
    }

    /**
     * {@code MPI_INIT_THREAD}: every level is provided, up to {@code THREAD_MULTIPLE} (every call takes the rank's
     * engine lock, and waits release it between rounds).
     */
    public static int InitThread(String[] args, int required) throws MPIException {
        int provided = Math.max(THREAD_SINGLE, Math.min(required, THREAD_MULTIPLE));
        init(provided);
        return provided;
    }

    private static void init(int level) throws MPIException {
        try {
            MpiRuntime.init(level);
        } catch (MpiError e) {
            throw new MPIException(String.valueOf(e.getMessage()));
        } catch (TransportException e) {
            throw new MPIException(e);
        }
    }

    public static int queryThread() throws MPIException {
        return process().threadLevel();
    }

    public static boolean isThreadMain() throws MPIException {
        return process().isMainThread();
    }

    /** {@code MPI_FINALIZE}: completes what is under way, waits for every rank, and leaves the job. */
    public static void Finalize() throws MPIException {
        MpiProcess p = process();
        try {
            MpiRuntime.finish(p);
        } catch (TransportException e) {
            throw new MPIException(e);
        }
    }

    public static boolean isInitialized() throws MPIException {
        return MpiRuntime.current() != null;
    }

    public static boolean isFinalized() throws MPIException {
        MpiProcess p = MpiRuntime.current();
        return p != null && p.isFinalized();
    }

    /** Seconds since an arbitrary origin (this JVM's start of the class), from {@link System#nanoTime()}. */
    public static double wtime() throws MPIException {
        check();
        return (System.nanoTime() - ORIGIN) / 1e9;
    }

    /** The resolution of {@link #wtime()}: 1 ns. */
    public static double wtick() throws MPIException {
        check();
        return 1e-9;
    }

    /** The host name (the JVM's name for its host if the host has none). */
    public static String getProcessorName() throws MPIException {
        check();
        return hostName();
    }

    public static Version getVersion() {
        return new Version(MPI_VERSION, MPI_SUBVERSION);
    }

    public static String getLibVersion() {
        return LIB_VERSION;
    }

    /** {@code MPI_PCONTROL}: no profiling here, so nothing to do. */
    public static void pControl(int level, @Nullable Object obj) {
        // no profiling layer to control (MPI-3.1 section 14.2.4 allows a no-op)
    }

    public static ByteBuffer newByteBuffer(int capacity) {
        return ByteBuffer.allocateDirect(capacity).order(ByteOrder.nativeOrder());
    }

    public static CharBuffer newCharBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 2)).asCharBuffer();
    }

    public static ShortBuffer newShortBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 2)).asShortBuffer();
    }

    public static IntBuffer newIntBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 4)).asIntBuffer();
    }

    public static LongBuffer newLongBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 8)).asLongBuffer();
    }

    public static FloatBuffer newFloatBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 4)).asFloatBuffer();
    }

    public static DoubleBuffer newDoubleBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 8)).asDoubleBuffer();
    }

    /** A buffer from absolute element {@code offset} of {@code buf}; clears {@code buf} and sets its position. */
    public static ByteBuffer slice(ByteBuffer buf, int offset) {
        ByteOrder order = buf.order();
        buf.clear().position(offset);
        return buf.slice().order(order);
    }

    public static CharBuffer slice(CharBuffer buf, int offset) {
        buf.clear().position(offset);
        return buf.slice();
    }

    public static ShortBuffer slice(ShortBuffer buf, int offset) {
        buf.clear().position(offset);
        return buf.slice();
    }

    public static IntBuffer slice(IntBuffer buf, int offset) {
        buf.clear().position(offset);
        return buf.slice();
    }

    public static LongBuffer slice(LongBuffer buf, int offset) {
        buf.clear().position(offset);
        return buf.slice();
    }

    public static FloatBuffer slice(FloatBuffer buf, int offset) {
        buf.clear().position(offset);
        return buf.slice();
    }

    public static DoubleBuffer slice(DoubleBuffer buf, int offset) {
        buf.clear().position(offset);
        return buf.slice();
    }

    /** A heap buffer whose element 0 is {@code buf[offset]} (for blocking calls, and here nonblocking ones too). */
    public static ByteBuffer slice(byte[] buf, int offset) {
        return ByteBuffer.wrap(buf, offset, buf.length - offset).slice().order(ByteOrder.nativeOrder());
    }

    public static CharBuffer slice(char[] buf, int offset) {
        return CharBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static ShortBuffer slice(short[] buf, int offset) {
        return ShortBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static IntBuffer slice(int[] buf, int offset) {
        return IntBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static LongBuffer slice(long[] buf, int offset) {
        return LongBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static FloatBuffer slice(float[] buf, int offset) {
        return FloatBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static DoubleBuffer slice(double[] buf, int offset) {
        return DoubleBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    // ---- buffered sends (mpi-java-api.md sections 1.2 and 4.4; org.portals3j.mpi.internal.BufferedSends) ----

    /**
     * Gives {@code buffer} to the calling rank's buffered-mode sends ({@code bSend}, {@code ibSend},
     * {@code bSendInit}): each message takes its length rounded up to 8 bytes plus {@code BSEND_OVERHEAD} of it.
     * {@code ERR_BUFFER} if a buffer is attached already.
     */
    public static void attachBuffer(byte[] buffer) throws MPIException {
        MpiProcess p = process();
        try {
            p.bufferedSends().attach(buffer);
        } catch (MpiError e) {
            throw raise(p.world(), e);
        }
    }

    /** Waits until every buffered message has been sent, then hands the buffer back; ERR_BUFFER if none is attached. */
    public static byte[] detachBuffer() throws MPIException {
        MpiProcess p = process();
        try {
            return p.bufferedSends().detach(p.engine());
        } catch (MpiError e) {
            throw raise(p.world(), e);
        }
    }

    // ---- for the other classes of the package -------------------------------------------------

    /** Throws unless MPI is initialised and not finalised on the calling rank (whatever the error handler). */
    static void check() throws MPIException {
        process();
    }

    /** The calling rank's MPI state; throws before {@code Init} and after {@code Finalize}. */
    static MpiProcess process() throws MPIException {
        @Nullable MpiProcess p = MpiRuntime.current();
        if (p == null) {
            throw new MPIException("MPI is not initialized.");
        }
        if (p.isFinalized()) {
            throw new MPIException("MPI is finalized.");
        }
        return p;
    }

    /**
     * An MPI error of class {@code errorClass} on communicator {@code c}, through its error handler: the job ends
     * (FATAL, ABORT: never returns), or the exception to throw is returned (RETURN).
     */
    static MPIException raise(CommState c, int errorClass, String message) {
        if (c.errorHandling() == ErrorHandling.RETURN) {
            int cls = ErrorClass.isClass(errorClass) ? errorClass : ErrorClass.UNKNOWN;
            return new MPIException(errorClass, cls, message);
        }
        throw JobAbort.abort(c.engine().rank(), errorClass, "MPI error (class " + errorClass + ") on " + c.name()
                + ": " + message);
    }

    /**
     * {@code ERR_UNSUPPORTED_OPERATION} for {@code call}, a member of a family that is out of scope
     * (mpi-java-api.md section 3), through {@code c}'s error handler as {@link #raise} does.
     */
    static MPIException unsupported(CommState c, String call, String why) {
        return raise(c, ERR_UNSUPPORTED_OPERATION, call + " is not supported: " + why);
    }

    /** {@link #unsupported(CommState, String, String)} through {@code COMM_WORLD}'s error handler. */
    static MPIException unsupported(String call, String why) throws MPIException {
        return unsupported(process().world(), call, why);
    }

    static MPIException raise(CommState c, MpiError e) {
        return raise(c, e.errorClass(), String.valueOf(e.getMessage()));
    }

    static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
