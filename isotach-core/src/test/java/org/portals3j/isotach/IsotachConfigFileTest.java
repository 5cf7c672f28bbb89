package org.portals3j.isotach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The configuration file (Isotach report App. E, pp. 113-115, adapted); I-135: malformed files fail
 * cleanly.
 */
class IsotachConfigFileTest {

    private static final String HOSTS = "hosts=4\nbugs 0\ndaffy 1\nporky 2\nfudd 3\n";

    private static IsotachConfig parse(String text) {
        return IsotachConfigFile.parse(new StringReader(text), "net.cfg");
    }

    /** Asserts the error is an IllegalArgumentException whose message starts with net.cfg:line: and has a fix. */
    private static AbstractThrowableAssert<?, ? extends Throwable> rejects(String text, int line) {
        return assertThatThrownBy(() -> parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("net.cfg:" + line + ": ").hasMessageContaining("; ");
    }

    @Nested
    class ValidFiles {
        @Test
        void aFullFileSetsHostsDistancesRegionsAndEveryTunable() {
            IsotachConfig c = parse("""
                    # comment
                    hosts=4

                    # hosts out of order are fine
                    daffy 1
                    bugs 0
                    fudd 3   # trailing comment
                    porky 2
                    distance 0 3 2
                    distance 1 2 5
                    distance 2 1 7
                    shmem 0 1024 all
                    shmem 4096 256 0,2
                    shmem 0x2000 16 3
                    set tokenWindow=8
                    set idleTickMicros=250
                    set maxPayload=512
                    set mbmVersion=1
                    set sendBufSize=64
                    set isoSendBufSize=32
                    set hitBufSize=16
                    set selfRefBufSize=8
                    set nonisoSlotsPerPeer=12
                    set isoCreditsPerPeer=10
                    set creditThreshold=0.75
                    set isoCreditThreshold = 0.25
                    set maxSendAttempts=7
                    set bucketSize=99
                    set readCap=3
                    set tm=own-process
                    """);
            assertThat(c.hostNames()).containsExactly("bugs", "daffy", "porky", "fudd");
            assertThat(c.distanceMatrixSize()).isEqualTo(4);
            assertThat(c.distance(0, 3)).isEqualTo(2);
            assertThat(c.distance(3, 0)).as("one line sets both directions").isEqualTo(2);
            assertThat(c.distance(1, 2)).isEqualTo(5);
            assertThat(c.distance(2, 1)).as("the reverse line wins for its direction").isEqualTo(7);
            assertThat(c.distance(0, 1)).as("default").isEqualTo(1);
            assertThat(c.distance(2, 2)).isZero();
            assertThat(c.networkDiameter(4)).isEqualTo(7);
            assertThat(c.sharedRegions()).containsExactly(new SharedRegion(0, 1024, new int[] {0, 1, 2, 3}),
                    new SharedRegion(4096, 256, new int[] {0, 2}), new SharedRegion(0x2000, 16, new int[] {3}));
            assertThat(c.tokenWindow()).isEqualTo(8);
            assertThat(c.idleTickMicros()).isEqualTo(250);
            assertThat(c.maxPayload()).isEqualTo(512);
            assertThat(c.mbmVersion()).isEqualTo(1);
            assertThat(c.sendBufSize()).isEqualTo(64);
            assertThat(c.isoSendBufSize()).isEqualTo(32);
            assertThat(c.hitBufSize()).isEqualTo(16);
            assertThat(c.selfRefBufSize()).isEqualTo(8);
            assertThat(c.nonisoSlotsPerPeer()).isEqualTo(12);
            assertThat(c.isoCreditsPerPeer()).isEqualTo(10);
            assertThat(c.creditThreshold()).isEqualTo(0.75);
            assertThat(c.isoCreditThreshold()).isEqualTo(0.25);
            assertThat(c.maxSendAttempts()).isEqualTo(7);
            assertThat(c.bucketSize()).isEqualTo(99);
            assertThat(c.readCap()).isEqualTo(3);
            assertThat(c.tmPlacement()).isEqualTo(TmPlacement.OWN_PROCESS);
        }

        @Test
        void theSampleFileUnderTestResourcesParses() throws URISyntaxException {
            URL url = getClass().getResource("/isotach/network.cfg");
            if (url == null) {
                throw new AssertionError("isotach/network.cfg is not on the test class path");
            }
            IsotachConfig c = IsotachConfigFile.parse(Path.of(url.toURI()));
            assertThat(c.hostNames()).containsExactly("bugs", "foghorn", "porky", "fudd", "marvin");
            assertThat(c.distance(4, 0)).isEqualTo(2);
            assertThat(c.distance(1, 3)).isEqualTo(3);
            assertThat(c.distance(3, 1)).isEqualTo(2);
            assertThat(c.sharedRegions()).hasSize(2);
            assertThat(c.sharedRegions().get(1).copyset()).containsExactly(0, 2, 4);
            assertThat(c.tokenWindow()).isEqualTo(8);
            assertThat(c.tmPlacement()).isEqualTo(TmPlacement.OWN_PROCESS);
        }

        @Test
        void theBaseSuppliesWhatTheFileLeavesOut() {
            IsotachConfig base = IsotachConfig.builder().tokenWindow(9).distance(3).maxPayload(256)
                    .sharedRegions(List.of(new SharedRegion(100, 10, new int[] {1}))).build();
            IsotachConfig c = IsotachConfigFile.parse(new StringReader(HOSTS + "set maxPayload=128\n"), "net.cfg",
                    base);
            assertThat(c.tokenWindow()).isEqualTo(9);
            assertThat(c.maxPayload()).isEqualTo(128);
            assertThat(c.distance(0, 1)).isEqualTo(3);
            assertThat(c.sharedRegions()).containsExactly(new SharedRegion(100, 10, new int[] {1}));

            IsotachConfig d = IsotachConfigFile.parse(new StringReader(HOSTS + "distance 0 1 5\n"), "net.cfg", base);
            assertThat(d.distance(0, 1)).isEqualTo(5);
            assertThat(d.distance(2, 3)).as("pairs the file leaves out keep the base's distance").isEqualTo(3);
        }

        @Test
        void defaultsApplyWhenOnlyHostsAreGiven() {
            IsotachConfig c = parse("hosts=1\nsolo 0\n");
            IsotachConfig d = IsotachConfig.defaults();
            assertThat(c.hostNames()).containsExactly("solo");
            assertThat(c.tokenWindow()).isEqualTo(d.tokenWindow());
            assertThat(c.maxPayload()).isEqualTo(d.maxPayload());
            assertThat(c.distanceMatrixSize()).isZero();
            assertThat(c.sharedRegions()).isEmpty();
            assertThat(parse("hosts = 2\r\na 0\r\nb 1\r\nset tm=IN-RANK\r\n").tmPlacement())
                    .isEqualTo(TmPlacement.IN_RANK);
        }
    }

    /** The errors the brief names, each with file:line, what is wrong and what to write. */
    @Nested
    class Errors {
        @Test
        void unknownKeyword() {
            rejects(HOSTS + "route 0 1\n", 6).hasMessageContaining("unknown keyword 'route'")
                    .hasMessageContaining("distance <A> <B> <D>");
            rejects(HOSTS + "distance\n", 6).hasMessageContaining("three numbers");
            rejects(HOSTS + "node 0:\n", 6).hasMessageContaining("route sections").hasMessageContaining("delete");
            rejects(HOSTS + "0 80\n", 6).hasMessageContaining("route line");
        }

        @Test
        void duplicateId() {
            rejects("hosts=2\nbugs 0\ndaffy 0\n", 3).hasMessageContaining("duplicate id 0")
                    .hasMessageContaining("bugs on line 2").hasMessageContaining("own id in 0..1");
        }

        @Test
        void duplicateName() {
            rejects("hosts=2\nbugs 0\nBugs 1\n", 3)
                    .hasMessageContaining("Bugs is listed twice (as bugs, id 0 on line 2")
                    .hasMessageContaining("list each host once");
        }

        @Test
        void idOutOfRange() {
            rejects("hosts=2\nbugs 0\ndaffy 2\n", 3).hasMessageContaining("id 2 of host daffy is out of range")
                    .hasMessageContaining("0..1").hasMessageContaining("raise hosts=");
            rejects("hosts=2\nbugs -1\n", 2).hasMessageContaining("out of range");
            rejects("hosts=2\nbugs 4294967296\n", 2).hasMessageContaining("out of range");
        }

        @Test
        void missingHosts() {
            rejects("", 1).hasMessageContaining("no hosts=<n> line").hasMessageContaining("start the file");
            rejects("# only a comment\n\n", 2).hasMessageContaining("no hosts=<n> line");
            rejects("# names first\nbugs 0\nhosts=1\n", 2).hasMessageContaining("before hosts=<n>");
            rejects("hosts 4\n", 1).hasMessageContaining("not a hosts line").hasMessageContaining("hosts=4");
            rejects(HOSTS + "hosts=4\n", 6).hasMessageContaining("given twice (first on line 1)");
        }

        @Test
        void hostsCountVersusListedNames() {
            rejects("hosts=4\nbugs 0\nfudd 3\n", 1).hasMessageContaining("hosts=4 but 2 hosts are listed")
                    .hasMessageContaining("missing ids: 1, 2").hasMessageContaining("set hosts=2");
            rejects("hosts=3\n", 1).hasMessageContaining("but 0 hosts are listed");
        }

        @Test
        void badNumber() {
            rejects("hosts=four\n", 1).hasMessageContaining("bad number 'four' for the host count")
                    .hasMessageContaining("whole number");
            rejects("hosts=0\n", 1).hasMessageContaining("out of range 1..4096");
            rejects("hosts=99999999999999999999\n", 1).hasMessageContaining("too large");
            rejects("hosts=1\nbugs zero\n", 2).hasMessageContaining("bad number 'zero' for the id of host bugs");
            rejects(HOSTS + "shmem 1k 10 all\n", 6).hasMessageContaining("bad number '1k'");
            rejects(HOSTS + "distance 0 1 two\n", 6).hasMessageContaining("bad number 'two'");
            rejects(HOSTS + "set tokenWindow=8x\n", 6).hasMessageContaining("bad number '8x' for tokenWindow");
            rejects(HOSTS + "set creditThreshold=high\n", 6).hasMessageContaining("bad number 'high'")
                    .hasMessageContaining("fraction");
        }

        @Test
        void unknownTunable() {
            rejects(HOSTS + "set tokenwindow=8\n", 6).hasMessageContaining("unknown tunable 'tokenwindow'")
                    .hasMessageContaining("did you mean tokenWindow?").hasMessageContaining("use one of tokenWindow");
            rejects(HOSTS + "set window=8\n", 6).hasMessageContaining("unknown tunable 'window'")
                    .hasMessageContaining("readCap, tm");
            rejects(HOSTS + "set tm=switch\n", 6).hasMessageContaining("placement 'switch'")
                    .hasMessageContaining("set tm=own-process");
            rejects(HOSTS + "set tokenWindow\n", 6).hasMessageContaining("no name=value");
            rejects(HOSTS + "set tokenWindow=\n", 6).hasMessageContaining("needs one value");
            rejects(HOSTS + "set tokenWindow=8\nset tokenWindow=9\n", 7).hasMessageContaining("set twice (first on"
                    + " line 6)");
        }

        @Test
        void tunableOutOfRangeNamesTheRule() {
            rejects(HOSTS + "set tokenWindow=100\n", 6).hasMessageContaining("token window must be 1..64")
                    .hasMessageContaining("set tokenWindow=4");
            rejects(HOSTS + "set isoCreditThreshold=1.5\n", 6).hasMessageContaining("fractions in (0, 1]");
        }

        @Test
        void distanceOutOf1To64() {
            rejects(HOSTS + "distance 0 1 0\n", 6).hasMessageContaining("distance 0 is out of range 1..64")
                    .hasMessageContaining("from 1 to 64");
            rejects(HOSTS + "distance 0 1 65\n", 6).hasMessageContaining("distance 65 is out of range 1..64");
            rejects(HOSTS + "distance 0 4 2\n", 6).hasMessageContaining("host B 4 is out of range 0..3");
            rejects(HOSTS + "distance 2 2 2\n", 6).hasMessageContaining("to itself");
            rejects(HOSTS + "distance 0 1 2\ndistance 0 1 3\n", 7).hasMessageContaining("given twice (first on line"
                    + " 6)");
        }

        @Test
        void overlappingShmemRegions() {
            rejects(HOSTS + "shmem 0 1024 all\nshmem 1000 10 0\n", 7)
                    .hasMessageContaining("[1000, 1010) overlaps region [0, 1024) of line 6")
                    .hasMessageContaining("disjoint");
            rejects(HOSTS + "shmem 100 10 all\nshmem 50 51 0\n", 7).hasMessageContaining("overlaps");
            assertThat(parse(HOSTS + "shmem 100 10 all\nshmem 50 50 0\nshmem 110 1 1\n").sharedRegions()).hasSize(3);
            rejects(HOSTS + "shmem 0 0 all\n", 6).hasMessageContaining("size in words 0 is out of range");
            rejects(HOSTS + "shmem 9223372036854775800 10 all\n", 6).hasMessageContaining("end of the address space");
            rejects(HOSTS + "shmem 0 10\n", 6).hasMessageContaining("shmem 0 1024 all");
        }

        @Test
        void copysetIdOutOfRange() {
            rejects(HOSTS + "shmem 0 10 0,4\n", 6).hasMessageContaining("copyset id 4 is out of range")
                    .hasMessageContaining("or 'all'");
            rejects(HOSTS + "shmem 0 10 1,1\n", 6).hasMessageContaining("lists host 1 twice");
            rejects(HOSTS + "shmem 0 10 1,,2\n", 6).hasMessageContaining("empty entry");
            rejects(HOSTS + "shmem 0 10 -1\n", 6).hasMessageContaining("copyset id -1 is out of range");
        }

        @Test
        void reportFormsGetAHint() {
            rejects("hosts=1\nbugs,0\n", 2).hasMessageContaining("comma").hasMessageContaining("'bugs 0'");
            rejects("hosts=1\nbugs.cs.virginia.edu 0\n", 2).hasMessageContaining("not a short name")
                    .hasMessageContaining("'bugs 0'");
        }

        @Test
        void aBaseThatDoesNotFitTheFilesHostsIsRefused() {
            IsotachConfig base = IsotachConfig.builder().distances(new int[][] {{0, 2}, {2, 0}}).build();
            assertThatThrownBy(() -> IsotachConfigFile.parse(new StringReader(HOSTS), "net.cfg", base))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("net.cfg:1: ")
                    .hasMessageContaining("distances for 2 hosts");
            IsotachConfig regions = IsotachConfig.builder()
                    .sharedRegions(List.of(new SharedRegion(0, 8, new int[] {0, 7}))).build();
            assertThatThrownBy(() -> IsotachConfigFile.parse(new StringReader(HOSTS), "net.cfg", regions))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("copy on host 7");
        }

        @Test
        void aMissingFileIsNamed(@TempDir Path dir) {
            Path missing = dir.resolve("network.cfg");
            assertThatThrownBy(() -> IsotachConfigFile.parse(missing)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith(missing + ": no such configuration file");
        }

        @Test
        void aFileErrorNamesTheFile(@TempDir Path dir) throws Exception {
            Path file = Files.writeString(dir.resolve("bad.cfg"), "hosts=2\nbugs 0\nbugs 1\n");
            assertThatThrownBy(() -> IsotachConfigFile.parse(file)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith(file + ":3: ");
        }
    }
}
