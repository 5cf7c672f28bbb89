package org.portals3j.tck;

import java.util.SplittableRandom;

/**
 * The seed of a randomised test of the kit: a new one for every run, or the one {@value #PROPERTY} names, which
 * replays a run. The test prints it as it starts and names it in its failures.
 */
public final class TckSeed {
    /** The system property that replays a run: {@code -Dportals3j.tck.seed=N}, N as a run printed it. */
    public static final String PROPERTY = "portals3j.tck.seed";

    private TckSeed() {
    }

    /**
     * The seed for {@code test}: {@value #PROPERTY}'s value if it is set, else a new random one. Prints
     * "{@code test}: seed N (replay with -Dportals3j.tck.seed=N)" on standard output. A test that makes several
     * random streams derives them all from this one seed, so that the one number replays the whole test.
     *
     * @throws IllegalArgumentException if the property is set to something that is not a number
     */
    public static long of(String test) {
        String given = System.getProperty(PROPERTY);
        long seed;
        if (given == null || given.isBlank()) {
            seed = new SplittableRandom().nextLong();
        } else {
            try {
                seed = Long.decode(given.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(PROPERTY + " must be a seed as a run printed it (a decimal"
                        + " number, e.g. -4811350292153958126), not '" + given + "'", e);
            }
        }
        System.out.println(test + ": " + replay(seed));
        return seed;
    }

    /** {@code seed N (replay with -Dportals3j.tck.seed=N)}: what a failure message says about its seed. */
    public static String replay(long seed) {
        return "seed " + seed + " (replay with -D" + PROPERTY + "=" + seed + ")";
    }
}
