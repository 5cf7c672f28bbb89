package org.portals3j.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
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
        List<String> arguments = new ArrayList<>(List.of("check-ignore", "--no-index"));
        arguments.addAll(paths);
        Git.Result git = Git.run(arguments);
        // 0: some are ignored, 1: none is, 128: not a git checkout (a source archive has no .git to keep clean)
        Assumptions.assumeTrue(git.status() == 0 || git.status() == 1, "the build's root is not a git checkout");
        return git.out().lines().toList();
    }
}
