package org.portals3j.checks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs git in the build's root folder for a test: its exit status and standard output (standard error discarded);
 * the calling test is skipped, not failed, where git is not installed.
 */
final class Git {
    private Git() {
    }

    /** What one git command gave: its exit status and its standard output. */
    record Result(int status, String out) {
    }

    /** Runs {@code git -C <root> arguments...} and waits for it. */
    static Result run(List<String> arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-C", Build.root().toString()));
        command.addAll(arguments);
        Process git;
        try {
            git = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            Assumptions.abort("git is not installed: " + e.getMessage());
            throw e;
        }
        String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Result(git.waitFor(), out);
    }
}
