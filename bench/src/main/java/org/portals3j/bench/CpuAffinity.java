package org.portals3j.bench;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The calling thread's CPU mask through Linux's {@code sched_getaffinity}/{@code sched_setaffinity} (FFM, pid 0 =
 * the calling thread); threads it starts afterwards inherit the mask. Needs {@code --enable-native-access}.
 */
final class CpuAffinity {
    /** Bytes of the mask: CPUs 0..1023, glibc's {@code cpu_set_t}. */
    private static final int MASK_BYTES = 128;
    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final FunctionDescriptor AFFINITY = FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS);
    private static final MethodHandle GET = handle("sched_getaffinity");
    private static final MethodHandle SET = handle("sched_setaffinity");

    private CpuAffinity() {
    }

    private static MethodHandle handle(String name) {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            return null;
        }
        return LINKER.defaultLookup().find(name).map(f -> LINKER.downcallHandle(f, AFFINITY,
                Linker.Option.captureCallState("errno"))).orElse(null);
    }

    /** Why threads cannot be bound here, or null when they can. */
    static String unavailableReason() {
        return GET == null || SET == null ? "sched_setaffinity is Linux's; this is " + System.getProperty("os.name")
                : null;
    }

    /** The CPUs the calling thread may run on, in order. */
    static List<Integer> allowed() {
        require();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(MASK_BYTES);
            MemorySegment errno = arena.allocate(CAPTURE);
            int rc = (int) GET.invokeExact(errno, 0, (long) MASK_BYTES, mask);
            check(rc, errno, "sched_getaffinity");
            List<Integer> cpus = new ArrayList<>();
            for (int cpu = 0; cpu < MASK_BYTES * 8; cpu++) {
                if ((mask.get(JAVA_BYTE, cpu / 8) & (1 << (cpu % 8))) != 0) {
                    cpus.add(cpu);
                }
            }
            return cpus;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("sched_getaffinity: " + t, t);
        }
    }

    /** Binds the calling thread to {@code cpu} alone. */
    static void bindCurrentThread(int cpu) {
        require();
        if (cpu < 0 || cpu >= MASK_BYTES * 8) {
            throw new IllegalArgumentException("CPU " + cpu + " is outside 0.." + (MASK_BYTES * 8 - 1));
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(MASK_BYTES);
            mask.set(JAVA_BYTE, cpu / 8, (byte) (1 << (cpu % 8)));
            MemorySegment errno = arena.allocate(CAPTURE);
            int rc = (int) SET.invokeExact(errno, 0, (long) MASK_BYTES, mask);
            check(rc, errno, "sched_setaffinity to CPU " + cpu);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("sched_setaffinity: " + t, t);
        }
    }

    /** The calling thread's {@code Cpus_allowed_list} as the kernel reads it back ({@code /proc/thread-self}). */
    static String allowedList() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/thread-self/status"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
            return "unknown (no Cpus_allowed_list)";
        } catch (IOException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    private static void require() {
        String reason = unavailableReason();
        if (reason != null) {
            throw new IllegalStateException("cannot bind threads to CPUs: " + reason);
        }
    }

    private static void check(int rc, MemorySegment errno, String what) {
        if (rc != 0) {
            throw new IllegalStateException(what + " failed: errno " + (int) ERRNO.get(errno, 0L)
                    + " (22 EINVAL: the CPU is not in this process's mask)");
        }
    }
}
