package org.portals3j.isotach.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.IsoVar;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.SharedRegion;
import org.portals3j.isotach.internal.host.IsotachHost;
import org.portals3j.isotach.internal.siu.NanoClock;
import org.portals3j.isotach.internal.siu.SwitchNode;
import org.portals3j.isotach.internal.smm.SharedMemory;
import org.portals3j.isotach.internal.smm.SharedReferenceKind;
import org.portals3j.isotach.internal.wire.Frame;

/** A.6 accesses turned into sRefs: one per copy, all or nothing, the isochron ended when asked. */
class SharedMemoryAccessTest {
    private static final int SUCCESS = 0;
    private static final int FAILURE = 1;

    /** One host's access path over a transport that records what leaves. */
    private record Fixture(SilentTransport transport, IsotachHost host, SharedMemoryAccess access) {
        /** ISO frames to each of the 3 ranks once the host has shipped what it queued. */
        int[] isoFramesShipped() {
            host.flow();
            int[] perPeer = new int[3];
            transport.sent().stream().filter(s -> s.kind() == Frame.ISO).forEach(s -> perPeer[s.peer()]++);
            return perPeer;
        }
    }

    /** Host 0 of 3; words 0-3 have copies at hosts 0 and 2, words 100-103 at host 1 only. */
    private static Fixture fixture(int selfRefs, int readCap) {
        IsotachConfig config = IsotachConfig.builder().selfRefBufSize(selfRefs).readCap(readCap)
                .sharedRegions(List.of(new SharedRegion(0, 4, new int[] {0, 2}),
                        new SharedRegion(100, 4, new int[] {1})))
                .build();
        SilentTransport transport = new SilentTransport(3);
        SwitchNode node = new SwitchNode(transport, config, 3, 0, NanoClock.SYSTEM);
        IsotachHost host = new IsotachHost(0, 3, config, node, new IsotachHost.LinkListener() {
            @Override
            public void onSync(int peer, int phase, int nonisoSlots, int isoCredits) {
            }

            @Override
            public void onPeerDown(int peer) {
            }
        });
        return new Fixture(transport, host, new SharedMemoryAccess(0, 3, host, new SharedMemory(0, 3, config)));
    }

    @Test
    void aChangeSendsOneSRefToEveryOtherCopyAndEndsTheIsochronWhenLast() {
        Fixture f = fixture(4, 4);
        SharedMemoryAccess access = f.access();
        assertThat(access.change(SharedReferenceKind.WRITE, 1, 42, false)).isEqualTo(SUCCESS);
        assertThat(f.host().midNetIsochron()).as("not the isochron's last access").isTrue();
        assertThat(access.change(SharedReferenceKind.WRITE, 2, 43, true)).isEqualTo(SUCCESS);
        assertThat(f.host().midNetIsochron()).isFalse();
        assertThat(f.isoFramesShipped()).as("host 2's copy; host 0's is a self-ref").containsExactly(0, 0, 2);
    }

    @Test
    void aChangeThatDoesNotFitWholeQueuesNothing() {
        Fixture f = fixture(2, 4);
        SharedMemoryAccess access = f.access();
        assertThat(access.change(SharedReferenceKind.WRITE, 1, 42, true)).isEqualTo(SUCCESS); // the two self-ref slots
        assertThat(access.change(SharedReferenceKind.WRITE, 2, 42, true)).isEqualTo(SUCCESS);
        assertThat(access.change(SharedReferenceKind.WRITE, 1, 43, true)).as("no room for the self-ref")
                .isEqualTo(FAILURE);
        assertThat(f.isoFramesShipped()).as("nor the net sRef of the refused change").containsExactly(0, 0, 2);
    }

    @Test
    void anAssignNeedsThisHostsOutstandingSchedAndAnAddressOutsideSharedMemoryFails() {
        Fixture f = fixture(4, 4);
        SharedMemoryAccess access = f.access();
        assertThat(access.change(SharedReferenceKind.ASSIGN, 1, 7, true)).isEqualTo(FAILURE);
        assertThat(access.change(SharedReferenceKind.SCHEDULE, 1, 0, true)).isEqualTo(SUCCESS);
        assertThat(access.change(SharedReferenceKind.SCHEDULE, 1, 0, true)).as("a second outstanding sched")
                .isEqualTo(FAILURE);
        assertThat(access.change(SharedReferenceKind.ASSIGN, 1, 7, true)).isEqualTo(SUCCESS);
        assertThat(access.change(SharedReferenceKind.WRITE, 50, 7, true)).isEqualTo(FAILURE);
        assertThat(f.isoFramesShipped()).containsExactly(0, 0, 2);
    }

    @Test
    void aReadGoesToTheNearestCopyAndAtMostReadCapAreOutstanding() {
        Fixture f = fixture(4, 2);
        SharedMemoryAccess access = f.access();
        assertThat(access.read(1, new IsoVar(), true)).as("a copy here: a self-ref").isEqualTo(SUCCESS);
        assertThat(access.read(101, new IsoVar(), true)).as("host 1's copy").isEqualTo(SUCCESS);
        assertThat(access.read(102, new IsoVar(), true)).as("read cap 2").isEqualTo(FAILURE);
        assertThat(access.read(50, new IsoVar(), true)).as("not shared memory").isEqualTo(FAILURE);
        assertThat(f.isoFramesShipped()).containsExactly(0, 1, 0);
    }
}
