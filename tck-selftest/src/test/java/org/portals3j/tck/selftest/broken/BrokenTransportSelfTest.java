package org.portals3j.tck.selftest.broken;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.portals3j.tck.catalogue.Assertion;
import org.portals3j.tck.catalogue.Catalogue;
import org.portals3j.tck.runner.TckResult;
import org.portals3j.tck.runner.TckRunner;
import org.portals3j.tck.runner.TestOutcome;
import org.portals3j.tck.runner.TestStatus;
import org.portals3j.tck.runner.TransportRun;
import org.portals3j.tck.runner.Verdict;

/**
 * The kit proves it can fail: run on deliberately broken transports, it fails exactly the assertions whose
 * guarantee each fault takes away, and on {@code inmem} and on the fault-free wrapper {@code broken-none} it
 * fails none of them.
 *
 * <p>Ten assertions are chosen (the runner's assertion filter), both specs, each for what it needs of the
 * network: <b>P-207</b> (event order follows message order, Portals 3.2 spec §3.9.2), <b>P-227</b> (two puts land back
 * to back in a locally managed MD, Portals 3.2 spec §3.8.1.1), <b>P-184</b> (the reply brings the target's bytes,
 * Portals 3.2 spec §3.9.1), <b>P-212</b> (a put to an empty match list is counted exactly once, Portals 3.2 spec §2.2),
 * <b>I-012</b> (a big pulse is delivered by sender, then issue order), <b>I-045</b> (the iso_receive payload is the
 * message, and stays valid), <b>I-113</b> (noniso: per-sender order, exactly once, none missing, Isotach report §1.1.2,
 * pp. 1-2), <b>I-137</b> (malformed frames are dropped and counted, never delivered); and two that any one message
 * proves and no fault here touches, <b>P-053</b> and <b>I-120</b>. The kit's tests of these also name P-183, P-229,
 * I-010, I-018, I-103, I-104, I-105 and I-118, which therefore share their verdicts.
 *
 * <h2>What each fault must fail, and why</h2>
 * <ul>
 *   <li>{@code broken-reorder} (y overtakes x): <b>P-207</b>, PUT_START comes in the order the puts arrived, not
 *       the order they were sent. <b>I-012</b> (with I-010, I-018) and <b>I-113</b> (with I-118): both Isotach
 *       modules take a sender's packets only in that sender's slot turn (per-sender FIFO, Isotach report §3.6.2,
 *       pp. 20-23), so the overtaking packet is refused as hostile and its message never arrives. <b>I-137</b>: an
 *       Isotach packet held back past its own pulse's marks arrives after the pulse closed, and the layer stops with a
 *       fatal error (the check of I-009). P-227 and P-184 pass: their traffic has one data message in flight at a time
 *       (the tests wait for each), so nothing overtakes; P-212 counts drops, whatever their order. <b>I-045</b> (with
 *       I-103, I-104, I-105) may go either way, and only by timing out: its credits allow one data message in flight,
 *       but the next message to host 1 need not be the test's own. When the sending thread polls before the
 *       switch sends host 1 its next pulse mark, the poll releases the held message in time and the test
 *       passes; when the thread is descheduled in between (a loaded machine), the mark overtakes it, the
 *       message arrives after its pulse closed and never reaches the application. Either outcome is right
 *       (the message is lost to a real reordering, or reordering never touched it), so the check accepts
 *       both, provided I-045 fails only by waiting in vain.</li>
 *   <li>{@code broken-drop} (the 2nd, 4th, ... data message lost): every chosen assertion that needs a second
 *       data message on one channel: <b>P-207</b>, <b>P-227</b>/P-229, <b>P-184</b>/P-183 (no event within
 *       patience), <b>P-212</b> (the second put is counted by nobody: 1 drop, not 2), <b>I-012</b>/I-010/I-018,
 *       <b>I-045</b>/I-103/I-104/I-105, <b>I-113</b>/I-118 (messages missing) and <b>I-137</b> (an injected frame
 *       never arrives to be counted).</li>
 *   <li>{@code broken-duplicate} (the 2nd, 4th, ... delivered twice): what Portals sees twice: <b>P-207</b>
 *       (extra PUT_STARTs), <b>P-227</b>/P-229 (the copy lands at offset 60), <b>P-212</b> (3 drops, not 2); and
 *       <b>I-137</b> (one frame counted twice as malformed). The Isotach modules refuse a copy as out of turn, so
 *       I-012, I-045 and I-113 pass: above them exactly-once still holds. P-184 passes: a copied reply answers no
 *       pending get any more and is discarded (Portals 3.2 spec §4.2).</li>
 *   <li>{@code broken-corrupt} (last payload byte of the 2nd, 4th, ... inverted): every assertion that compares
 *       the bytes: <b>P-227</b>/P-229, <b>P-184</b>/P-183, <b>I-045</b>/I-103/I-104/I-105, <b>I-113</b>/I-118. Order
 *       and counts are intact, so P-207, P-212 and I-012 pass; I-137 passes too, see below.</li>
 * </ul>
 * Each set was checked stable over repeated runs, on an idle machine and under a load of 9-11 on 2 cores: the
 * faults are counter based and the kit's tests of these assertions drive their traffic from one thread, so the
 * same messages meet the same faults every time. The one exception is I-045 on {@code broken-reorder}, above:
 * under load it failed in 2 of 4 runs, and that is why the check allows it.
 *
 * <h2>A damaged frame that I-137 does not see</h2>
 * I-137 says a frame damaged on the way is detected and never delivered (the report's CRC, Isotach report §8.3.4,
 * pp. 73-76). The Isotach layer carries no checksum of its own: it trusts the transport's integrity, which the SPI
 * promises. So {@code broken-corrupt}'s damaged packets reach the application, and I-137's test, which injects
 * malformed headers, still passes; the damage is caught by the assertions that compare payloads (I-045, I-113/I-118).
 */
class BrokenTransportSelfTest {
    /** The assertions the kit runs on every transport here. */
    static final Set<String> CHOSEN = Set.of("P-053", "P-184", "P-207", "P-212", "P-227",
            "I-012", "I-045", "I-113", "I-120", "I-137");
    /** Chosen because no fault here can touch them: each is proved by a single message. */
    static final Set<String> UNTOUCHABLE = Set.of("P-053", "I-120");

    static final Set<String> FAILED_BY_REORDER = Set.of("P-207", "I-010", "I-012", "I-018", "I-113", "I-118", "I-137");
    /** Failed by reordering or not, depending on which thread sends to host 1 first (see the class doc). */
    static final Set<String> TIMING_DEPENDENT_UNDER_REORDER = Set.of("I-045", "I-103", "I-104", "I-105");
    static final Set<String> FAILED_BY_DROP = Set.of("P-183", "P-184", "P-207", "P-212", "P-227", "P-229",
            "I-010", "I-012", "I-018", "I-045", "I-103", "I-104", "I-105", "I-113", "I-118", "I-137");
    static final Set<String> FAILED_BY_DUPLICATE = Set.of("P-207", "P-212", "P-227", "P-229", "I-137");
    static final Set<String> FAILED_BY_CORRUPT = Set.of("P-183", "P-184", "P-227", "P-229",
            "I-045", "I-103", "I-104", "I-105", "I-113", "I-118");

    static final List<String> BROKEN = List.of(ReorderingTransport.NAME, DroppingTransport.NAME,
            DuplicatingTransport.NAME, CorruptingTransport.NAME);
    static final List<String> CONTROLS = List.of(BrokenTransportProvider.NETWORK, PassThroughTransport.NAME);

    /** How a kit test says it waited in vain rather than saw something wrong. */
    private static final Pattern TIMEOUT =
            Pattern.compile("within PT|timed out|neither logged|never became|never reached");

    private static TckResult result = new TckResult(Catalogue.builtIn(), List.of(), List.of());
    private static final Map<String, Long> faultsBefore = new HashMap<>();

    @BeforeAll
    static void runTheChosenAssertionsOnTheControlsAndOnEveryBrokenTransport() {
        List<String> transports = new ArrayList<>(CONTROLS);
        transports.addAll(BROKEN);
        transports.forEach(t -> faultsBefore.put(t, BrokenTransport.faultsInjected(t)));
        result = TckRunner.builder()
                .transports(transports)
                .assertions(CHOSEN)
                .patience(Duration.ofSeconds(2)) // what a lost message costs: the kit waits this long for it
                .testTimeout(Duration.ofSeconds(90))
                .build().run();
    }

    @Test
    void theChosenAssertionsAllPassOnInmem() {
        assertThat(failed(BrokenTransportProvider.NETWORK)).as(failures(BrokenTransportProvider.NETWORK)).isEmpty();
    }

    @Test
    void theWrapperWithoutAFaultFailsNoneOfThem() {
        assertThat(failed(PassThroughTransport.NAME)).as(failures(PassThroughTransport.NAME)).isEmpty();
    }

    @Test
    void reorderingFailsExactlyTheAssertionsThatNeedPerPeerOrder() {
        List<String> failed = failed(ReorderingTransport.NAME);
        assertThat(failed).as(failures(ReorderingTransport.NAME)).containsAll(FAILED_BY_REORDER);
        Set<String> allowed = new HashSet<>(FAILED_BY_REORDER);
        allowed.addAll(TIMING_DEPENDENT_UNDER_REORDER);
        assertThat(allowed).as(failures(ReorderingTransport.NAME)).containsAll(failed);
        if (failed.contains("I-045")) {
            assertThat(outcome(ReorderingTransport.NAME,
                    "aDeliveredPayloadStaysValidAndItsCreditHeldUntilTheNextIsoReceive")
                    .message()).as("I-045 may only lose its message, never see a wrong one")
                    .containsPattern("messages? arrives?");
        }
        assertThat(outcome(ReorderingTransport.NAME, "sendStartOrderIsPutStartOrder").message())
                .as("the puts arrived, out of order").contains("PUT_START order at the target");
    }

    @Test
    void droppingFailsExactlyTheAssertionsThatNeedEveryMessage() {
        assertThat(failed(DroppingTransport.NAME)).as(failures(DroppingTransport.NAME))
                .containsExactlyInAnyOrderElementsOf(FAILED_BY_DROP);
        assertThat(outcome(DroppingTransport.NAME, "putToValidPortalWithEmptyMatchListIsDroppedAndCountedOnce")
                .message())
                .as("the second put never reached the target to be counted").contains("expected: 2L but was: 1L");
    }

    @Test
    void duplicatingFailsExactlyTheAssertionsThatSeeAMessageTwice() {
        assertThat(failed(DuplicatingTransport.NAME)).as(failures(DuplicatingTransport.NAME))
                .containsExactlyInAnyOrderElementsOf(FAILED_BY_DUPLICATE);
        assertThat(outcome(DuplicatingTransport.NAME, "putToValidPortalWithEmptyMatchListIsDroppedAndCountedOnce")
                .message())
                .as("the second put was counted twice").contains("expected: 2L but was: 3L");
        assertThat(failureMessages(DuplicatingTransport.NAME)).as("nothing is missing, so nothing times out")
                .noneMatch(m -> TIMEOUT.matcher(m).find());
    }

    @Test
    void corruptingFailsExactlyTheAssertionsThatCompareTheBytes() {
        assertThat(failed(CorruptingTransport.NAME)).as(failures(CorruptingTransport.NAME))
                .containsExactlyInAnyOrderElementsOf(FAILED_BY_CORRUPT);
        assertThat(outcome(CorruptingTransport.NAME, "locallyManagedMdAppendsPutsAndIgnoresTheRequestOffset").message())
                .as("the last byte of the second put").contains("[byte 59]");
        assertThat(failureMessages(CorruptingTransport.NAME)).as("everything arrives, so nothing times out")
                .noneMatch(m -> TIMEOUT.matcher(m).find());
    }

    @Test
    void everyChosenAssertionRanToAVerdictOnEveryTransport() {
        for (TransportRun run : result.runs()) {
            assertThat(run.available()).as(run.transport() + ": " + run.unavailableReason()).isTrue();
            for (String id : CHOSEN) {
                assertThat(verdict(id, run)).as("%s on %s", id, run.transport())
                        .isIn(Verdict.PASSED, Verdict.PARTIAL, Verdict.FAILED);
            }
        }
    }

    @Test
    void assertionsNoFaultCanTouchPassOnEveryBrokenTransport() {
        for (String transport : BROKEN) {
            for (String id : UNTOUCHABLE) {
                assertThat(verdict(id, run(transport))).as("%s on %s", id, transport).isEqualTo(Verdict.PASSED);
            }
        }
    }

    @Test
    void everyBrokenTransportReallyMishandledMessagesAndTheControlNone() {
        for (String transport : BROKEN) {
            assertThat(BrokenTransport.faultsInjected(transport) - faultsBefore.getOrDefault(transport, 0L))
                    .as("data messages %s mishandled", transport).isPositive();
        }
        assertThat(BrokenTransport.faultsInjected(PassThroughTransport.NAME)
                - faultsBefore.getOrDefault(PassThroughTransport.NAME, 0L)).isZero();
    }

    private static TransportRun run(String transport) {
        return result.runs().stream().filter(r -> r.transport().equals(transport)).findFirst()
                .orElseThrow(() -> new AssertionError("the kit did not run on " + transport));
    }

    private static Verdict verdict(String id, TransportRun run) {
        Assertion assertion = result.catalogue().find(id).orElseThrow(() -> new AssertionError("no assertion " + id));
        return result.verdict(assertion, run);
    }

    private static List<String> failed(String transport) {
        return result.failedAssertions(run(transport));
    }

    private static TestOutcome outcome(String transport, String method) {
        return run(transport).outcomes().stream().filter(o -> o.test().methodName().equals(method)).findFirst()
                .orElseThrow(() -> new AssertionError(method + " did not run on " + transport));
    }

    private static List<String> failureMessages(String transport) {
        return run(transport).outcomes().stream().filter(o -> o.status() == TestStatus.FAILED)
                .map(TestOutcome::message).toList();
    }

    /** The failed tests of a run and why, for the message of an assertion on it. */
    private static String failures(String transport) {
        return run(transport).outcomes().stream().filter(o -> o.status() == TestStatus.FAILED)
                .map(o -> o.test().shortName() + " " + o.test().assertionIds() + ": " + o.message())
                .collect(Collectors.joining("\n  ", "failed tests on " + transport + ":\n  ", ""));
    }
}
