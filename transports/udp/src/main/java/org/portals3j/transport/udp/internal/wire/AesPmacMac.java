package org.portals3j.transport.udp.internal.wire;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;

/**
 * PMAC with AES (Black and Rogaway, "A Block-Cipher Mode of Operation for Parallelizable Message
 * Authentication", EUROCRYPT 2002; the variant of Rogaway's reference code and its test vectors) over
 * {@code [0, CRC_OFFSET)} of the header and the body; the 16-byte tag goes in the MAC field.
 *
 * <p>PMAC encrypts each block independently, offset by a key-derived value, and XORs the results: all blocks
 * go through the JDK's AES/ECB in one call, which pipelines them, where CMAC's CBC is serial (figures:
 * docs/udp-notes.md). Like CMAC it is a PRF under the AES assumption and allocates nothing per datagram.
 *
 * <p>The construction, for blocks M[1..m] (m = max(1, ceil(len / 16))): L = AES(0); offset_i = offset_{i-1}
 * xor L*x^ntz(i); Sigma = xor of AES(M[i] xor offset_i) for i &lt; m, xor M[m] xor L*x^-1 if M[m] is a whole
 * block, else xor M[m] padded with 10*; the tag is AES(Sigma). Checked against the reference test vectors.
 */
public final class AesPmacMac extends AesBlockMac {
    public static final String NAME = "aes-pmac";
    /** L*x^i for i below this: enough for 2^32 blocks, far beyond any datagram. */
    private static final int OFFSETS = 32;
    /**
     * Blocks whose offsets are tabled at first: an 8 KiB datagram, 8 KiB of table. The table grows (once, as the
     * scratch does) to the longest message seen.
     */
    static final int TABLED = 512;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    /**
     * Blocks are XORed as two longs in the machine's byte order (no byte swaps in the hot loops): XOR is
     * bytewise, so any order works as long as the offsets are stored in the same one.
     */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
    /** For the GF(2^128) arithmetic on L, which is defined on the big-endian bit string. */
    private static final VarHandle BIG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private final Cipher ecb;
    /** L*x^i as two longs each (first and second 8 bytes, machine order), i = ntz of the block number. */
    private final long[] offsetHi = new long[OFFSETS];
    private final long[] offsetLo = new long[OFFSETS];
    /**
     * offset_i for blocks 1..{@link #tabled} (two longs each): it depends on the key only, so the hot loop XORs a
     * table in, one flat loop with no chain from one block to the next, which C2 vectorises (bench/README.md).
     */
    private long[] offsets = new long[2 * TABLED];
    private int tabled = TABLED;
    private final long lInvHi;
    private final long lInvLo;
    private final byte[] sigma = new byte[BLOCK];

    /** @param key 16, 24 or 32 bytes: AES-128, -192 or -256 */
    public AesPmacMac(byte[] key) {
        try {
            ecb = Cipher.getInstance("AES/ECB/NoPadding");
            ecb.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
            byte[] l = ecb.doFinal(new byte[BLOCK]); // L = AES_K(0^128)
            long hi = (long) BIG.get(l, 0);
            long lo = (long) BIG.get(l, 8);
            // L*x^-1: shift right, and when the low bit falls off add x^-1 = x^127 + x^6 + x^1 + 1 reduced
            boolean odd = (lo & 1) != 0;
            long invHi = (hi >>> 1);
            long invLo = (lo >>> 1) | (hi << 63);
            if (odd) {
                invHi ^= 0x8000000000000000L;
                invLo ^= 0x43L; // (R_b = 0x87) >> 1
            }
            byte[] block = new byte[BLOCK];
            BIG.set(block, 0, invHi);
            BIG.set(block, 8, invLo);
            lInvHi = (long) LONGS.get(block, 0);
            lInvLo = (long) LONGS.get(block, 8);
            for (int i = 0; i < OFFSETS; i++) {
                BIG.set(block, 0, hi);
                BIG.set(block, 8, lo);
                offsetHi[i] = (long) LONGS.get(block, 0);
                offsetLo[i] = (long) LONGS.get(block, 8);
                long carry = hi >>> 63; // doubling in GF(2^128), as in CMAC's subkeys (RFC 4493 2.3)
                hi = (hi << 1) | (lo >>> 63);
                lo = (lo << 1) ^ (carry * 0x87L);
            }
            long offHi = 0;
            long offLo = 0;
            for (int i = 0; i < TABLED; i++) {
                int ntz = Integer.numberOfTrailingZeros(i + 1);
                offHi ^= offsetHi[ntz];
                offLo ^= offsetLo[ntz];
                offsets[2 * i] = offHi;
                offsets[2 * i + 1] = offLo;
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES is required of every Java platform", e);
        }
    }

    /** Tables the offsets up to block {@code blocks} (rounded up to {@value #TABLED}), going on from the last. */
    private void growOffsets(int blocks) {
        int n = (blocks + TABLED - 1) / TABLED * TABLED;
        long[] grown = Arrays.copyOf(offsets, 2 * n);
        long offHi = grown[2 * tabled - 2];
        long offLo = grown[2 * tabled - 1];
        for (int i = tabled; i < n; i++) {
            int ntz = Integer.numberOfTrailingZeros(i + 1);
            offHi ^= offsetHi[ntz];
            offLo ^= offsetLo[ntz];
            grown[2 * i] = offHi;
            grown[2 * i + 1] = offLo;
        }
        offsets = grown;
        tabled = n;
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * The PMAC of the first {@code length} bytes of {@link #in} (which has room for one more block), into
     * {@link #tag}. Package-visible for the test vectors.
     */
    @Override
    void macOfScratch(int length) {
        int blocks = Math.max(1, (length + BLOCK - 1) / BLOCK);
        int whole = blocks - 1; // every block but the last: offset, then encrypted together
        if (whole > tabled) {
            growOffsets(whole);
        }
        long[] off = offsets;
        MemorySegment m = inSegment;
        for (int k = 0; k < 2 * whole; k++) {
            long at = 8L * k;
            m.set(LONG, at, m.get(LONG, at) ^ off[k]);
        }
        long sHi = 0;
        long sLo = 0;
        try {
            if (whole > 0) {
                ecb.doFinal(in, 0, whole * BLOCK, out, 0);
                for (int i = 0; i < whole; i++) {
                    sHi ^= (long) LONGS.get(out, i * BLOCK);
                    sLo ^= (long) LONGS.get(out, i * BLOCK + 8);
                }
            }
            int last = whole * BLOCK;
            int lastLength = length - last;
            if (lastLength == BLOCK) {
                sHi ^= lInvHi;
                sLo ^= lInvLo;
            } else {
                in[length] = (byte) 0x80; // padding 10*
                Arrays.fill(in, length + 1, last + BLOCK, (byte) 0);
            }
            sHi ^= (long) LONGS.get(in, last);
            sLo ^= (long) LONGS.get(in, last + 8);
            LONGS.set(sigma, 0, sHi);
            LONGS.set(sigma, 8, sLo);
            ecb.doFinal(sigma, 0, BLOCK, tag, 0);
        } catch (ShortBufferException e) {
            throw new IllegalStateException("the scratch buffer holds the whole message", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/ECB failed on whole blocks", e);
        }
    }
}
