package org.portals3j.shim;

import org.portals3j.shim.internal.ShimProcess;
import org.portals3j.shim.internal.ffm.ShimTable;

/**
 * The entry point {@code libportals3.so} calls, through JNI, once it has started a JVM inside a C
 * program: {@link #install(long)} fills the library's table of function pointers with FFM upcall stubs,
 * after which every Portals call of the C program goes straight to the Java engine. See the package
 * documentation.
 */
public final class ShimBootstrap {
    private ShimBootstrap() {
    }

    /**
     * Fills the {@code ptl_shim_table_t} at {@code tableAddress}.
     *
     * @return 0, or -1 after saying why on stderr (the library and these classes are from different builds)
     */
    public static int install(long tableAddress) {
        try {
            String problem = ShimTable.install(tableAddress);
            if (problem != null) {
                System.err.println("libportals3: cannot start the Portals engine: " + problem);
                return -1;
            }
            ShimProcess.watchJvmExit();
            return 0;
        } catch (Throwable t) {
            System.err.println("libportals3: cannot start the Portals engine: " + t);
            return -1;
        }
    }
}
