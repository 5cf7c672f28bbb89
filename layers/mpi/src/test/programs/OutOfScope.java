import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.*;
import mpi.*;

/**
 * A program written for Open MPI's Java bindings that touches every member of the families the layer leaves out of
 * scope (one-sided Win, MPI-IO File and FileView, dynamic processes and the name service, their constants), compiled
 * against the layer's jar unchanged (with {@code java.util.*} imported beside {@code mpi.*}). Run, it sets
 * ERRORS_RETURN and checks that each member it can reach fails with ERR_UNSUPPORTED_OPERATION, that getParent gives
 * a null communicator, and that disconnect frees a communicator; anything else throws.
 */
public class OutOfScope {
    private static int failures;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        world.setErrhandler(MPI.ERRORS_RETURN);
        List<String> wrong = new ArrayList<>();
        IntBuffer window = MPI.newIntBuffer(16);
        try {
            Win win = new Win(window, 16, 1, MPI.INFO_NULL, world);
            useWindow(win, window);
            wrong.add("Win(create)");
        } catch (MPIException e) {
            expect(e, wrong, "Win(create)");
        }
        try {
            useWindow(new Win(16, 1, MPI.INFO_NULL, world, window, Win.FLAVOR_SHARED), window);
            wrong.add("Win(allocate)");
        } catch (MPIException e) {
            expect(e, wrong, "Win(allocate)");
        }
        try {
            useWindow(new Win(MPI.INFO_NULL, world), window);
            wrong.add("Win(dynamic)");
        } catch (MPIException e) {
            expect(e, wrong, "Win(dynamic)");
        }
        try {
            useFile(new File(world, "data.bin", MPI.MODE_CREATE | MPI.MODE_RDWR));
            wrong.add("File");
        } catch (MPIException e) {
            expect(e, wrong, "File");
        }
        try {
            useFile(new File(world, "data.bin", MPI.MODE_RDONLY, MPI.INFO_NULL));
            wrong.add("File(info)");
        } catch (MPIException e) {
            expect(e, wrong, "File(info)");
        }
        try {
            File.delete("data.bin");
            wrong.add("File.delete");
        } catch (MPIException e) {
            expect(e, wrong, "File.delete");
        }
        try {
            File.delete("data.bin", MPI.INFO_NULL);
            wrong.add("File.delete(info)");
        } catch (MPIException e) {
            expect(e, wrong, "File.delete(info)");
        }
        try {
            Win.createKeyval();
            wrong.add("Win.createKeyval");
        } catch (MPIException e) {
            expect(e, wrong, "Win.createKeyval");
        }
        try {
            Win.freeKeyval(1);
            wrong.add("Win.freeKeyval");
        } catch (MPIException e) {
            expect(e, wrong, "Win.freeKeyval");
        }
        dynamicProcesses(world, wrong);
        FileView view = new FileView(8, MPI.INT, MPI.INT, "native");
        if (view.getDisp() != 8 || view.getEType() != MPI.INT || view.getFileType() != MPI.INT
                || !view.getDataRep().equals("native")) {
            wrong.add("FileView");
        }
        int[] constants = {MPI.MODE_NOCHECK, MPI.MODE_NOPRECEDE, MPI.MODE_NOPUT, MPI.MODE_NOSTORE,
            MPI.MODE_NOSUCCEED, MPI.LOCK_EXCLUSIVE, MPI.LOCK_SHARED, MPI.WIN_BASE, MPI.WIN_SIZE, MPI.WIN_DISP_UNIT,
            Win.WIN_NULL, Win.FLAVOR_PRIVATE, Win.FLAVOR_SHARED, MPI.MODE_APPEND, MPI.MODE_CREATE,
            MPI.MODE_DELETE_ON_CLOSE, MPI.MODE_EXCL, MPI.MODE_RDONLY, MPI.MODE_RDWR, MPI.MODE_SEQUENTIAL,
            MPI.MODE_UNIQUE_OPEN, MPI.MODE_WRONLY, MPI.SEEK_SET, MPI.SEEK_CUR, MPI.SEEK_END,
            MPI.DISPLACEMENT_CURRENT, MPI.ORDER_C, MPI.ORDER_FORTRAN, MPI.DISTRIBUTE_BLOCK, MPI.DISTRIBUTE_CYCLIC,
            MPI.DISTRIBUTE_NONE, MPI.DISTRIBUTE_DFLT_DARG, MPI.MAX_DATAREP_STRING, MPI.MAX_PORT_NAME};
        if (constants.length != 34) {
            wrong.add("constants");
        }
        if (!wrong.isEmpty()) {
            throw new IllegalStateException("rank " + world.getRank() + ": wrong outcome of " + wrong);
        }
        MPI.Finalize();
    }

    private static void dynamicProcesses(Intracomm world, List<String> wrong) throws MPIException {
        Intercomm parent = Intercomm.getParent();
        if (!parent.isNull()) {
            wrong.add("getParent");
        }
        try {
            String port = Intracomm.openPort();
            Intracomm.closePort(port);
            wrong.add("openPort");
        } catch (MPIException e) {
            expect(e, wrong, "openPort");
        }
        try {
            Intracomm.openPort(MPI.INFO_NULL);
            wrong.add("openPort(info)");
        } catch (MPIException e) {
            expect(e, wrong, "openPort(info)");
        }
        try {
            Intracomm.closePort("port");
            wrong.add("closePort");
        } catch (MPIException e) {
            expect(e, wrong, "closePort");
        }
        try {
            world.accept("port", 0);
            wrong.add("accept");
        } catch (MPIException e) {
            expect(e, wrong, "accept");
        }
        try {
            world.accept("port", MPI.INFO_NULL, 0);
            wrong.add("accept(info)");
        } catch (MPIException e) {
            expect(e, wrong, "accept(info)");
        }
        try {
            world.connect("port", 0);
            wrong.add("connect");
        } catch (MPIException e) {
            expect(e, wrong, "connect");
        }
        try {
            world.connect("port", MPI.INFO_NULL, 0);
            wrong.add("connect(info)");
        } catch (MPIException e) {
            expect(e, wrong, "connect(info)");
        }
        try {
            Intracomm.publishName("service", "port");
            wrong.add("publishName");
        } catch (MPIException e) {
            expect(e, wrong, "publishName");
        }
        try {
            Intracomm.publishName("service", MPI.INFO_NULL, "port");
            wrong.add("publishName(info)");
        } catch (MPIException e) {
            expect(e, wrong, "publishName(info)");
        }
        try {
            Intracomm.unpublishName("service", "port");
            wrong.add("unpublishName");
        } catch (MPIException e) {
            expect(e, wrong, "unpublishName");
        }
        try {
            Intracomm.unpublishName("service", MPI.INFO_NULL, "port");
            wrong.add("unpublishName(info)");
        } catch (MPIException e) {
            expect(e, wrong, "unpublishName(info)");
        }
        try {
            Intracomm.lookupName("service");
            wrong.add("lookupName");
        } catch (MPIException e) {
            expect(e, wrong, "lookupName");
        }
        try {
            Intracomm.lookupName("service", MPI.INFO_NULL);
            wrong.add("lookupName(info)");
        } catch (MPIException e) {
            expect(e, wrong, "lookupName(info)");
        }
        int[] errcodes = new int[2];
        try {
            world.spawn("worker", new String[] {"-v"}, 2, MPI.INFO_NULL, 0, errcodes);
            wrong.add("spawn");
        } catch (MPIException e) {
            expect(e, wrong, "spawn");
        }
        try {
            world.spawnMultiple(new String[] {"a", "b"}, new String[][] {{}, {"-v"}}, new int[] {1, 1},
                    new Info[] {MPI.INFO_NULL, MPI.INFO_NULL}, 0, errcodes);
            wrong.add("spawnMultiple");
        } catch (MPIException e) {
            expect(e, wrong, "spawnMultiple");
        }
        Intracomm copy = world.dup();
        copy.disconnect();
        if (!copy.isNull()) {
            wrong.add("disconnect");
        }
    }

    private static void expect(MPIException e, List<String> wrong, String what) {
        if (e.getErrorClass() != MPI.ERR_UNSUPPORTED_OPERATION) {
            wrong.add(what + " (class " + e.getErrorClass() + ")");
        }
    }

    /** Every member of a window (never reached: no window can be made). */
    private static void useWindow(Win w, IntBuffer buf) throws MPIException {
        IntBuffer result = MPI.newIntBuffer(16);
        w.attach(buf, 16);
        w.detach(buf);
        Group g = w.getGroup();
        w.put(buf, 4, MPI.INT, 1, 0, 4, MPI.INT);
        w.get(buf, 4, MPI.INT, 1, 0, 4, MPI.INT);
        w.accumulate(buf, 4, MPI.INT, 1, 0, 4, MPI.INT, MPI.SUM);
        w.fence(MPI.MODE_NOPRECEDE);
        w.start(g, 0);
        w.complete();
        w.post(g, MPI.MODE_NOCHECK);
        w.waitFor();
        boolean done = w.test();
        w.lock(MPI.LOCK_EXCLUSIVE, 1, 0);
        w.unlock(1);
        w.setErrhandler(MPI.ERRORS_RETURN);
        Errhandler h = w.getErrhandler();
        w.callErrhandler(MPI.ERR_WIN);
        int key = Win.createKeyval();
        w.setAttr(key, "value");
        Object value = w.getAttr(key);
        w.deleteAttr(key);
        Win.freeKeyval(key);
        Info info = w.getInfo();
        w.setInfo(info);
        Request[] requests = {
            w.rPut(buf, 4, MPI.INT, 1, 0, 4, MPI.INT),
            w.rGet(buf, 4, MPI.INT, 1, 0, 4, MPI.INT),
            w.rAccumulate(buf, 4, MPI.INT, 1, 0, 4, MPI.INT, MPI.SUM),
            w.rGetAccumulate(buf, 4, MPI.INT, result, 4, MPI.INT, 1, 0, 4, MPI.INT, MPI.SUM)};
        Request.waitAll(requests);
        w.getAccumulate(buf, 4, MPI.INT, result, 4, MPI.INT, 1, 0, 4, MPI.INT, MPI.REPLACE);
        w.lockAll(0);
        w.unlockAll();
        w.sync();
        w.flush(1);
        w.flushAll();
        w.compareAndSwap(buf, result, result, MPI.INT, 1, 0);
        w.fetchAndOp(buf, result, MPI.INT, 1, 0, MPI.NO_OP);
        w.flushLocal(1);
        w.flushLocalAll();
        w.setName(w.getName() + done + h + value);
        w.free();
    }

    /** Every member of a file (never reached: no file can be opened). */
    private static void useFile(File f) throws MPIException {
        byte[] data = new byte[16];
        ByteBuffer direct = MPI.newByteBuffer(16);
        f.setSize(64);
        f.preallocate(64);
        long size = f.getSize() + f.getPosition() + f.getByteOffset(0) + f.getPositionShared();
        Group g = f.getGroup();
        int mode = f.getAMode() + f.getTypeExtent(MPI.BYTE) + g.getSize();
        f.setInfo(f.getInfo());
        f.setView(size, MPI.BYTE, MPI.BYTE, "native");
        f.setView(mode, MPI.BYTE, MPI.BYTE, "native", MPI.INFO_NULL);
        FileView view = f.getView();
        List<Status> statuses = new ArrayList<>(List.of(f.readAt(0, data, 16, MPI.BYTE),
                f.readAtAll(0, data, 16, MPI.BYTE), f.writeAt(0, data, 16, MPI.BYTE),
                f.writeAtAll(0, data, 16, MPI.BYTE), f.read(data, 16, MPI.BYTE), f.readAll(data, 16, MPI.BYTE),
                f.write(data, 16, MPI.BYTE), f.writeAll(data, 16, MPI.BYTE), f.readShared(data, 16, MPI.BYTE),
                f.writeShared(data, 16, MPI.BYTE), f.readOrdered(data, 16, MPI.BYTE),
                f.writeOrdered(data, 16, MPI.BYTE)));
        Request[] requests = {f.iReadAt(0, direct, 16, MPI.BYTE), f.iReadAtAll(0, direct, 16, MPI.BYTE),
            f.iWriteAt(0, direct, 16, MPI.BYTE), f.iWriteAtAll(0, direct, 16, MPI.BYTE),
            f.iRead(direct, 16, MPI.BYTE), f.iReadAll(direct, 16, MPI.BYTE), f.iWrite(direct, 16, MPI.BYTE),
            f.iWriteAll(direct, 16, MPI.BYTE), f.iReadShared(direct, 16, MPI.BYTE),
            f.iWriteShared(direct, 16, MPI.BYTE)};
        Request.waitAll(requests);
        f.seek(0, MPI.SEEK_SET);
        f.seekShared(0, MPI.SEEK_END);
        f.readAtAllBegin(0, data, 16, MPI.BYTE);
        statuses.add(f.readAtAllEnd(data));
        f.writeAtAllBegin(0, data, 16, MPI.BYTE);
        statuses.add(f.writeAtAllEnd(data));
        f.readAllBegin(data, 16, MPI.BYTE);
        statuses.add(f.readAllEnd(data));
        f.writeAllBegin(data, 16, MPI.BYTE);
        statuses.add(f.writeAllEnd(data));
        f.readOrderedBegin(data, 16, MPI.BYTE);
        statuses.add(f.readOrderedEnd(data));
        f.writeOrderedBegin(data, 16, MPI.BYTE);
        statuses.add(f.writeOrderedEnd(data));
        f.setAtomicity(!f.getAtomicity());
        f.sync();
        f.setErrhandler(f.getErrhandler());
        f.callErrhandler(MPI.ERR_FILE + statuses.size() + view.getDataRep().length());
        f.close();
    }
}
