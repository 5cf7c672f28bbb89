package org.portals3j.tck.isotach;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.portals3j.isotach.BarrierMode;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckSeed;
import org.portals3j.tck.TckTransport;
import org.portals3j.tck.isotach.ConcurrentIsoTraffic.Action;
import org.portals3j.tck.isotach.ConcurrentIsoTraffic.Barrier;
import org.portals3j.tck.isotach.ConcurrentIsoTraffic.Iso;
import org.portals3j.tck.isotach.ConcurrentIsoTraffic.Signal;
import org.portals3j.tck.isotach.IsoTraffic.Tag;
import org.portals3j.tck.isotach.IsotachJob.Delivered;

/**
 * The randomised check of the isotach guarantees: every host, each on its own thread, issues random
 * isochrons (1-4 messages, random destinations, itself included, duplicates allowed); up to four hosts then send a
 * signal (one channel each), every host issues a few more isochrons, joins a STRONG barrier, and issues a few more.
 * The delivered sequences must show: same relative order of common isochrons at every pair of hosts and no
 * interleaving (atomicity), each sender's messages in issue order, every message exactly once, non-decreasing
 * pulses, one pulse per isochron at every destination, each signal after all of its sender's earlier messages,
 * and after a STRONG barrier's completion no message issued before a participant's barrier call.
 *
 * <p>The seed is new for every run unless {@code -Dportals3j.tck.seed=N} ({@link TckSeed}) replays one; it is printed
 * and named in every failure.
 */
class RandomIsochronTest {
    private static final int BARRIER_CHANNEL = 1;

    @ParameterizedTest(name = "{0} hosts")
    @ValueSource(ints = {4, 6})
    @SpecAssertion({"I-001", "I-002", "I-009", "I-010", "I-011", "I-015", "I-016", "I-017", "I-018", "I-022", "I-032",
            "I-040", "I-051", "I-057", "I-068", "I-111"})
    void randomIsochronsFromEveryHostKeepTheIsotachGuarantees(int hosts) {
        run(hosts, TckSeed.of("RandomIsochronTest, " + hosts + " hosts"));
    }

    @Test
    @SpecAssertion({"I-010", "I-011", "I-016", "I-017", "I-051", "I-057", "I-068"})
    void randomIsochronsOnEightHostsKeepTheIsotachGuarantees() {
        // Eight endpoints each with its own network threads are more than two shared cores run quickly; a
        // transport that delivers inline has no threads of its own and runs them all.
        Assumptions.assumeTrue(TckTransport.deliversInline(), "eight hosts only on a transport that delivers inline");
        run(8, TckSeed.of("RandomIsochronTest, 8 hosts"));
    }

    /** One run whose every random choice comes from {@code seed} (each host count draws its own stream of it). */
    private static void run(int hosts, long seed) {
        String context = TckSeed.replay(seed) + ", " + hosts + " hosts, transport " + TckTransport.name();
        Random rnd = new Random(seed ^ hosts);
        List<Integer> order = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            order.add(h);
        }
        Collections.shuffle(order, rnd);
        int channels = Math.min(4, hosts);
        int[] signallerOf = new int[5]; // channel -> host
        int[] channelOf = new int[hosts]; // host -> channel, 0 = none
        for (int c = 1; c <= channels; c++) {
            signallerOf[c] = order.get(c - 1);
            channelOf[order.get(c - 1)] = c;
        }
        List<List<Action>> plans = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            List<Action> plan = new ArrayList<>();
            addIsochrons(plan, rnd, hosts, 6 + rnd.nextInt(7));
            if (channelOf[h] != 0) {
                plan.add(new Signal(channelOf[h]));
            }
            addIsochrons(plan, rnd, hosts, 1 + rnd.nextInt(3));
            plan.add(new Barrier(BARRIER_CHANNEL, BarrierMode.STRONG));
            addIsochrons(plan, rnd, hosts, 1 + rnd.nextInt(3));
            plans.add(plan);
        }
        try (IsotachJob job = IsotachJob.open(hosts, Interface.ISO_MBM)) {
            int[] registered = new int[hosts];
            for (int h = 0; h < hosts; h++) {
                for (int c = 1; c <= 4; c++) {
                    assertThat(job.net(h).isoRegisterSignal(c)).as("host %d registers signal %d", h, c)
                            .isEqualTo(IsotachNet.SUCCESS);
                    registered[h] |= 1 << c;
                }
            }
            BarrierSetup.alignChannel1(job, BarrierMode.STRONG);

            ConcurrentIsoTraffic traffic = new ConcurrentIsoTraffic(job, plans, registered, context);
            traffic.run(TckTransport.trafficPatience());

            List<List<Delivered>> all = traffic.allHosts();
            OrderChecks.all(context, all, traffic.expected());
            for (int h = 0; h < hosts; h++) {
                List<Delivered> seq = all.get(h);
                // exactly one notice per signalled channel and one barrier completion (I-055/I-067 in passing)
                for (int c = 1; c <= channels; c++) {
                    assertThat(indicesOfSignal(seq, c)).as("host %d: notices of signal %d [%s]", h, c, context)
                            .hasSize(1);
                }
                List<Integer> barrier = new ArrayList<>();
                for (int i = 0; i < seq.size(); i++) {
                    if (seq.get(i).isNotice() && (seq.get(i).bits() & (1 << BARRIER_CHANNEL)) != 0) {
                        barrier.add(i);
                    }
                }
                assertThat(barrier).as("host %d: barrier completions [%s]", h, context).hasSize(1);

                for (int i = 0; i < seq.size(); i++) {
                    Delivered d = seq.get(i);
                    if (d.isNotice()) {
                        continue;
                    }
                    Tag t = Tag.of(d);
                    int signalChannel = channelOf[t.sender()];
                    // I-057: messages the signaller issued before iso_send_signal come before the signal's notice
                    if (signalChannel != 0 && t.phase() == 0) {
                        int notice = indicesOfSignal(seq, signalChannel).get(0);
                        if (i > notice) {
                            throw new AssertionError("host " + h + " delivered " + d + " (issued by " + t.sender()
                                    + " before its signal " + signalChannel + ") after the signal's notice "
                                    + seq.get(notice) + " (I-057) [" + context + "]");
                        }
                    }
                    // I-068: nothing a participant issued before its iso_barrier call arrives after the completion
                    int barrierPhase = signalChannel != 0 ? 1 : 0;
                    if (t.phase() <= barrierPhase && i > barrier.get(0)) {
                        throw new AssertionError("host " + h + " delivered " + d + " (issued by " + t.sender()
                                + " before its STRONG barrier call) after the barrier's completion notice "
                                + seq.get(barrier.get(0)) + " (I-068) [" + context + "]");
                    }
                }
            }
            long sent = 0;
            long received = 0;
            for (int h = 0; h < hosts; h++) {
                assertThat(IsoTraffic.counter(job.net(h), "siu.drop.late"))
                        .as("host %d: late Isotach packets (I-009) [%s]", h, context).isZero();
                sent += IsoTraffic.counter(job.net(h), "siu.isoSent");
                received += IsoTraffic.counter(job.net(h), "siu.isoReceived");
            }
            assertThat(received).as("Isotach packets received vs sent over all hosts (I-111) [%s]", context)
                    .isEqualTo(sent);
        }
    }

    private static List<Integer> indicesOfSignal(List<Delivered> seq, int channel) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < seq.size(); i++) {
            Delivered d = seq.get(i);
            if (d.isNotice() && (d.bits() & (1 << (channel + 2))) != 0) {
                out.add(i);
            }
        }
        return out;
    }

    private static void addIsochrons(List<Action> plan, Random rnd, int hosts, int count) {
        for (int k = 0; k < count; k++) {
            int[] dests = new int[1 + rnd.nextInt(4)];
            for (int i = 0; i < dests.length; i++) {
                dests[i] = rnd.nextInt(hosts);
            }
            plan.add(new Iso(dests, IsoTraffic.TAG + rnd.nextInt(64)));
        }
    }
}
