package org.portals3j.shim.internal.ffm;

import org.portals3j.lapi.AddressResolver;
import org.portals3j.lapi.AsyncErrorListener;
import org.portals3j.lapi.LapiConfig;

/**
 * The configuration of a C program's LAPI context: the layer's defaults, {@code num_compl_hndlr_thr} of its
 * {@code lapi_info_t} (0 or less: the default), its error handler and the C address resolver, and what a test or
 * a benchmark may change through the environment of {@code LAPI_Init} (lapi.h):
 * {@code PORTALS3J_LAPI_MAX_DATA_SZ} ({@code LAPI_MAX_MSG_SZ}), {@code PORTALS3J_LAPI_PKT_PAYLOAD_SZ} (the
 * eager/rendezvous threshold), {@code PORTALS3J_LAPI_CREDITS} (flow control: messages unanswered per target) and
 * {@code PORTALS3J_LAPI_INTERRUPT_SET} (0: polling mode, 1: a dispatcher thread, the default; the layer chooses
 * the mode at Init, so {@code LAPI_Senv(INTERRUPT_SET)} cannot change it afterwards). A value that is not a number
 * is refused, an out-of-range one by the layer's own validation.
 */
final class LapiConfigs {
    static final String MAX_DATA = "PORTALS3J_LAPI_MAX_DATA_SZ";
    static final String PKT_PAYLOAD = "PORTALS3J_LAPI_PKT_PAYLOAD_SZ";
    static final String CREDITS = "PORTALS3J_LAPI_CREDITS";
    static final String INTERRUPT_SET = "PORTALS3J_LAPI_INTERRUPT_SET";

    private LapiConfigs() {
    }

    static LapiConfig forC(int completionThreads, AsyncErrorListener errors, AddressResolver resolver) {
        LapiConfig d = LapiConfig.DEFAULT;
        long payload = number(PKT_PAYLOAD, d.packetPayload());
        if (payload < 0 || payload > LapiConfig.MAX_PACKET_PAYLOAD) {
            throw new IllegalArgumentException(PKT_PAYLOAD + "=" + payload + ": give 0.."
                    + LapiConfig.MAX_PACKET_PAYLOAD);
        }
        long credits = number(CREDITS, d.credits());
        if (credits < 1 || credits > LapiConfig.MAX_CREDITS) {
            throw new IllegalArgumentException(CREDITS + "=" + credits + ": give 1.." + LapiConfig.MAX_CREDITS);
        }
        long interrupt = number(INTERRUPT_SET, d.interruptMode() ? 1 : 0);
        if (interrupt != 0 && interrupt != 1) {
            throw new IllegalArgumentException(INTERRUPT_SET + "=" + interrupt + ": give 0 (polling) or 1 (interrupt)");
        }
        return d.withCompletionThreads(completionThreads > 0 ? completionThreads : d.completionThreads())
                .withMaxData(number(MAX_DATA, d.maxData())).withPacketPayload((int) payload)
                .withCredits((int) credits).withInterruptMode(interrupt == 1)
                .withErrorListener(errors).withResolver(resolver);
    }

    private static long number(String name, long fallback) {
        String v = System.getenv(name);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + "=" + v + " is not a number", e);
        }
    }
}
