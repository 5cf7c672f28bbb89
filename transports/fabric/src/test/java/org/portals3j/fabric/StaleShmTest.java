package org.portals3j.fabric;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * shm endpoints open beside files that killed processes left in /dev/shm: one at the name the next endpoint would
 * take, regions of this binding whose owner is gone, and junk at libfabric's default names for this process.
 */
class StaleShmTest {
    /** Opens two shm peers, sends one message from the first to the second and checks it arrived. */
    private static void exchange(FabricInfo info) {
        try (Peer a = new Peer(info, 1); Peer b = new Peer(info, 2)) {
            long toB = a.av.insert(b.ep.name());
            MemorySegment in = b.memory.asSlice(0, 64);
            MemorySegment out = a.memory.asSlice(0, 64);
            out.fill((byte) 0x5a);
            Peer.post("receive", () -> b.ep.postTaggedReceive(in, b.region, AddressVector.ANY, 9, 0, 1), a, b);
            Peer.post("send", () -> a.ep.postTaggedSend(out, a.region, toB, 9, 2), a, b);
            Peer.await("the message", () -> b.completed(1) && a.completed(2), a, b);
            assertThat(b.failed).isEmpty();
            assertThat(in.get(JAVA_BYTE, 63)).isEqualTo((byte) 0x5a);
        }
    }

    /** Creates {@code name} in /dev/shm with 4096 zero bytes (no region header), as a crash could leave it. */
    private static Path makeStale(String name) throws IOException {
        Path file = ShmRegions.DIRECTORY.resolve(name);
        try (RandomAccessFile f = new RandomAccessFile(Files.createFile(file).toFile(), "rw")) {
            f.setLength(4096);
        }
        return file;
    }

    private static long[] identity() {
        long ns = ShmRegions.namespace();
        long start = ShmRegions.startTime("self");
        assumeTrue(ns >= 0 && start >= 0, "/proc tells no pid namespace or start time here");
        return new long[] {ns, start};
    }

    @Test
    void aFileAtTheNextNameIsSkippedAndMessagesFlow() throws IOException {
        FabricInfo info = Peer.assumeProvider("shm");
        String taken = ShmRegions.nextName();
        Path file = makeStale(taken);
        try {
            exchange(info);
            assertThat(ShmRegions.nextName()).as("the two endpoints took names after the taken one")
                    .isNotEqualTo(taken);
            assertThat(file).as("a region of a live owner (this process) is left alone").exists();
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    void regionsOfGoneOwnersAreSweptAndOthersKept() throws IOException {
        FabricInfo info = Peer.assumeProvider("shm");
        long[] self = identity();
        long pid = ProcessHandle.current().pid();
        // pid_max itself is never a pid (pids run below it); a start time other than this process's is a reused pid
        long noSuchPid = Long.parseLong(Files.readString(Path.of("/proc/sys/kernel/pid_max")).trim());
        String ns = Long.toHexString(self[0]);
        Path gone = makeStale("fabric-" + ns + "-" + Long.toHexString(noSuchPid) + "-1-0");
        Path reused = makeStale("fabric-" + ns + "-" + Long.toHexString(pid) + "-" + Long.toHexString(self[1] + 1)
                + "-0");
        Path otherNamespace = makeStale("fabric-" + Long.toHexString(self[0] + 1) + "-"
                + Long.toHexString(noSuchPid) + "-1-0");
        try {
            exchange(info);
            assertThat(gone).as("the region of a pid that does not exist").doesNotExist();
            assertThat(reused).as("the region of this pid with another start time").doesNotExist();
            assertThat(otherNamespace).as("a region of another pid namespace").exists();
        } finally {
            Files.deleteIfExists(gone);
            Files.deleteIfExists(reused);
            Files.deleteIfExists(otherNamespace);
        }
    }

    @Test
    void aTakenNameAfterAThousandTriesIsAnErrorThatNamesTheFile() throws IOException {
        FabricInfo info = Peer.assumeProvider("shm");
        String first = ShmRegions.nextName();
        String prefix = first.substring(0, first.lastIndexOf('-') + 1);
        int index = Integer.parseInt(first.substring(prefix.length()), 16);
        List<Path> made = new ArrayList<>();
        try (Fabric fabric = Fabric.open(info);
                Domain domain = fabric.openDomain();
                CompletionQueue cq = domain.openCompletionQueue(16, WaitObject.NONE);
                AddressVector av = domain.openAddressVector(2)) {
            for (int i = 0; i < 1000; i++) {
                made.add(makeStale(prefix + Integer.toHexString(index + i)));
            }
            assertThatThrownBy(() -> domain.openEndpoint(cq, av)).isInstanceOf(FabricException.class)
                    .hasMessageContaining("FI_EBUSY").hasMessageContaining(made.get(999).toString())
                    .hasMessageContaining("remove it");
        } finally {
            for (Path p : made) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Test
    void junkAtLibfabricsDefaultNamesDoesNotStopAnEndpoint() throws IOException {
        Peer.assumeProvider("shm");
        // with no node, libfabric 1.17 names an unnamed shm endpoint "PID:UID:N", N counting the process's endpoints
        // (with the node 127.0.0.1 of Hints.rdm it is "127.0.0.1:UID:N", which other processes may hold live)
        List<FabricInfo> infos = FabricInfo.query(new FabricInfo.Hints("shm", EndpointType.RDM,
                FabricInfo.Hints.TAGGED_RMA, ""));
        assumeTrue(!infos.isEmpty(), "shm offers no RDM endpoint without a node here");
        long uid = ShmRegions.effectiveUid();
        List<Path> made = new ArrayList<>();
        try {
            for (int n = 0; n < 256; n++) {
                String name = ProcessHandle.current().pid() + ":" + uid + ":" + n;
                if (Files.notExists(ShmRegions.DIRECTORY.resolve(name))) {
                    made.add(makeStale(name));
                }
            }
            assertThat(made).as("junk made at the default names").isNotEmpty();
            exchange(infos.get(0));
            assertThat(made).as("no endpoint took (and so unlinked) a default name").allMatch(Files::exists);
        } finally {
            for (Path p : made) {
                Files.deleteIfExists(p);
            }
        }
    }
}
