package org.portals3j.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** What the build and the tools write into a checkout is ignored by git, so that a user's status stays clean. */
class GitIgnoreTest {

    /** {@code portals tck} writes to {@code tck-report/} of the folder it runs in (its --report default). */
    @Test
    void theKitsDefaultReportFolderIsIgnoredWhereverItIsWritten() throws Exception {
        List<String> paths = List.of("tck-report/index.html", "tck-report/junit/inmem/TEST-x.xml",
                "launcher/tck-report/tck-udp.tap", "target/classes/X.class");
        assertThat(ignored(paths)).as("paths git ignores (a tck-report/ rule belongs in .gitignore)")
                .containsExactlyInAnyOrderElementsOf(paths);
    }

    /** The paths among {@code paths} that git ignores, asked of git itself ({@code git check-ignore --no-index}). */
    private static List<String> ignored(List<String> paths) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-C", Build.root().toString(), "check-ignore",
                "--no-index"));
        command.addAll(paths);
        Process git;
        try {
            git = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            Assumptions.abort("git is not installed: " + e.getMessage());
            throw e;
        }
        String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int status = git.waitFor();
        // 0: some are ignored, 1: none is, 128: not a git checkout (a source archive has no .git to keep clean)
        Assumptions.assumeTrue(status == 0 || status == 1, "the build's root is not a git checkout");
        return out.lines().toList();
    }
}
