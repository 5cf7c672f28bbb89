package org.portals3j.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.portals3j.transport.IdleMode;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options {@link PingPong} and {@link GmPingPong} share, a picocli mixin; {@link #parse} reads a command line
 * into a command that mixes it in and turns picocli's errors into an {@link IllegalArgumentException}.
 */
final class PingPongArgs {
    @Option(names = {"-h", "--help"}, usageHelp = true)
    boolean help;

    @Option(names = "--sizes")
    String sizes = "";

    @Option(names = "--iterations")
    String iterations = "";

    @Option(names = "--idle")
    String idle = "backoff";

    @Option(names = "--option")
    List<String> options = new ArrayList<>();

    @Option(names = "--quick")
    boolean quick;

    /** The message sizes given, or {@code defaults}. */
    int[] sizes(int[] defaults) {
        return sizes.isEmpty() ? defaults : PingPong.Options.parseSizes(sizes);
    }

    /** The round trips given, or {@value PingPong#QUICK_ITERATIONS} for a quick run, or {@code defaults}. */
    int iterations(int defaults) {
        return !iterations.isEmpty() ? count("--iterations", iterations)
                : quick ? PingPong.QUICK_ITERATIONS : defaults;
    }

    IdleMode idle() {
        return IdleMode.parse(idle);
    }

    /**
     * The {@code --option KEY=VALUE}s in order, a later one for a key replacing an earlier one.
     *
     * @param what what the error says a value must be ({@code KEY=VALUE} and any restriction)
     */
    Map<String, String> transportOptions(String what) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String value : options) {
            int at = value.indexOf('=');
            if (at <= 0) {
                throw new IllegalArgumentException("--option needs " + what + ", not '" + value + "'");
            }
            map.put(value.substring(0, at).trim(), value.substring(at + 1).trim());
        }
        return map;
    }

    static int count(String option, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " needs a number, not '" + value + "'", e);
        }
    }

    /**
     * Reads {@code args} into {@code command}'s options ({@code --name value} or {@code --name=value}; a later one
     * replaces an earlier one).
     *
     * @return false if help was asked for
     * @throws IllegalArgumentException saying what is wrong: an unknown option, or one without its value
     */
    static boolean parse(Object command, String... args) {
        CommandLine cl = new CommandLine(command);
        cl.setOverwrittenOptionsAllowed(true);
        try {
            return !cl.parseArgs(args).isUsageHelpRequested();
        } catch (CommandLine.UnmatchedArgumentException e) {
            throw new IllegalArgumentException("unknown option '" + e.getUnmatched().get(0) + "'", e);
        } catch (CommandLine.MissingParameterException e) {
            throw new IllegalArgumentException(e.getMissing().stream().map(PingPongArgs::name).findFirst()
                    .orElse("an option") + " needs a value", e);
        } catch (CommandLine.ParameterException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private static String name(CommandLine.Model.ArgSpec spec) {
        return spec instanceof CommandLine.Model.OptionSpec o ? o.longestName() : spec.paramLabel();
    }
}
