package org.portals3j.shim;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The C test programs of src/test/c, each compiled with portalscc and run unmodified as a job of two
 * processes on udp; each program checks the Portals semantics named in its header comment, prints
 * "FAIL file:line ..." and exits 1 on the first discrepancy, and prints "NAME: rank R passed" at the end.
 * The *33 programs are Portals 3.3 programs, compiled with -DPTL_DIALECT_33 as a porting user would.
 *
 * <p>On gm over tcp;ofi_rxm every program of the two lists above runs (bench_pingpong with 20 trips of 64 KiB,
 * above gm.eagerThreshold: the RMA read of the payload from the C program's buffer): offsets, truncation,
 * thresholds, ACLs, EQ overflow, ME insertion, match bits and return codes must hold on every transport. Each
 * program costs two JVM starts (about 5 s), so over shm between the two processes a selection runs: put with
 * acks, get, and the 64 KiB ping-pong.
 */
class TwoRankProgramsTest {

    @ParameterizedTest(name = "{0} passes on two ranks")
    @ValueSource(strings = {"put_pingpong", "get_reply", "manage_remote", "truncate", "threshold_unlink", "acl_drop",
        "eq_overflow", "me_insert", "match_bits", "return_codes", "threads", "bench_pingpong"})
    void cProgramPassesEveryCheckOnTwoRanksOverUdp(String name) throws Exception {
        passesOnTwoRanks(name, CBuild.compile(name));
    }

    @ParameterizedTest(name = "{0} (-DPTL_DIALECT_33) passes on two ranks")
    @ValueSource(strings = {"put_pingpong33", "eq_handler33", "eq_poll33", "regions33", "acl_jid33", "return_codes33",
        "getput33"})
    void portals33ProgramPassesEveryCheckOnTwoRanksOverUdp(String name) throws Exception {
        passesOnTwoRanks(name, CBuild.compile33(name));
    }

    @ParameterizedTest(name = "{0} passes on two ranks over {1}")
    @CsvSource({"put_pingpong, GM_TCP, ''", "get_reply, GM_TCP, ''", "threads, GM_TCP, ''",
        "eq_handler33, GM_TCP, ''", "getput33, GM_TCP, ''", "bench_pingpong, GM_TCP, 20 65536 2",
        "manage_remote, GM_TCP, ''", "truncate, GM_TCP, ''", "threshold_unlink, GM_TCP, ''",
        "acl_drop, GM_TCP, ''", "eq_overflow, GM_TCP, ''", "me_insert, GM_TCP, ''", "match_bits, GM_TCP, ''",
        "return_codes, GM_TCP, ''", "put_pingpong33, GM_TCP, ''", "eq_poll33, GM_TCP, ''",
        "regions33, GM_TCP, ''", "acl_jid33, GM_TCP, ''", "return_codes33, GM_TCP, ''",
        "put_pingpong, GM_SHM, ''", "get_reply, GM_SHM, ''", "bench_pingpong, GM_SHM, 20 65536 2"})
    void cProgramPassesEveryCheckOnTwoRanksOverGm(String name, JobTransport transport, String args)
            throws Exception {
        transport.assumeAvailable();
        Path program = name.endsWith("33") ? CBuild.compile33(name) : CBuild.compile(name);
        passesOnTwoRanks(name, program, transport, args.isEmpty() ? new String[0] : args.split(" "));
    }

    /**
     * What a program checks only on udp says so, so that a run that skipped it cannot pass: an MD longer than udp's
     * largest message is refused by PtlPut and PtlGet with the spec's code and leaves nothing pending.
     */
    private static final Map<String, String> UDP_ONLY_CHECKS = Map.of(
            "return_codes", "an MD longer than one message is PTL_INV_MD",
            "return_codes33", "an MD longer than one message is PTL_MD_INVALID");

    private static void passesOnTwoRanks(String name, Path program) throws Exception {
        List<CJob.Rank> ranks = passesOnTwoRanks(name, program, JobTransport.UDP);
        String udpOnly = UDP_ONLY_CHECKS.get(name);
        if (udpOnly != null) {
            String job = CJob.describe(ranks);
            for (CJob.Rank rank : ranks) {
                assertThat(rank.out()).as(job).contains(name + ": rank " + rank.rank() + ": " + udpOnly);
            }
        }
    }

    private static List<CJob.Rank> passesOnTwoRanks(String name, Path program, JobTransport transport,
                                                    String... args) throws Exception {
        List<CJob.Rank> ranks = CJob.run(program, 2, transport, args);
        String job = CJob.describe(ranks);
        for (CJob.Rank rank : ranks) {
            assertThat(rank.status()).as(job).isZero();
            assertThat(rank.out()).as(job).contains(name + ": rank " + rank.rank() + " passed")
                    .doesNotContain("FAIL");
        }
        return ranks;
    }
}
