package org.portals3j.runtime;

/**
 * The first host of a Slurm host list ({@code SLURM_STEP_NODELIST}: {@code node[01-04,07],gpu1} names node01 to
 * node04, node07 and gpu1): the node of task 0 in Slurm's block and cyclic distributions.
 */
final class SlurmHostList {
    private SlurmHostList() {
    }

    /**
     * The first host {@code list} names: its first comma-separated entry, each bracketed range replaced by its
     * first number as written (zero padding kept), as {@code scontrol show hostnames} would print it first.
     *
     * @throws IllegalArgumentException if {@code list} is not a host list (empty, or an unbalanced bracket)
     */
    static String first(String list) {
        String t = list.strip();
        StringBuilder host = new StringBuilder();
        int i = 0;
        while (i < t.length() && t.charAt(i) != ',') {
            char c = t.charAt(i);
            if (c == '[') {
                int close = t.indexOf(']', i);
                if (close < 0) {
                    throw new IllegalArgumentException("'" + list + "' is not a Slurm host list: '[' is not closed");
                }
                String ranges = t.substring(i + 1, close);
                int end = 0;
                while (end < ranges.length() && Character.isDigit(ranges.charAt(end))) {
                    end++;
                }
                if (end == 0) {
                    throw new IllegalArgumentException("'" + list + "' is not a Slurm host list: '[" + ranges
                            + "]' does not start with a number");
                }
                host.append(ranges, 0, end);
                i = close + 1;
            } else if (c == ']') {
                throw new IllegalArgumentException("'" + list + "' is not a Slurm host list: ']' without '['");
            } else {
                host.append(c);
                i++;
            }
        }
        if (host.isEmpty()) {
            throw new IllegalArgumentException("'" + list + "' is not a Slurm host list: it names no host first");
        }
        return host.toString();
    }
}
