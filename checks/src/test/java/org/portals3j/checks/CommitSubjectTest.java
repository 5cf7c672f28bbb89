package org.portals3j.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Commit subjects since the rule was enforced are under 72 characters with a component prefix
 * ({@code udp: bound the send queue}), merges excepted; {@code .githooks/commit-msg} applies the same rule.
 */
class CommitSubjectTest {

    /**
     * The last commit before the rule was enforced (c0b8710, "bench: warm up the raw Put and process-mode MPI
     * baselines too"): earlier history has some 200 subjects of 72 characters or more and some without a prefix,
     * which stay as they were written; every commit after it obeys the rule.
     */
    static final String BASELINE = "c0b871092684ef2391113a3b9b8691d0269d1149";

    /** Subjects are under this many characters (code points). */
    static final int LIMIT = 72;

    /** A component prefix: a name (letters, digits, {@code _./,-} and spaces, at most 40) then ": " and text. */
    static final Pattern PREFIX = Pattern.compile("^[A-Za-z][A-Za-z0-9_./, -]{0,39}: \\S");

    @Test
    void everyCommitAfterTheBaselineHasAShortPrefixedSubject() throws Exception {
        Git.Result inside = Git.run(List.of("rev-parse", "--is-inside-work-tree"));
        Assumptions.assumeTrue(inside.status() == 0, "the build's root is not a git checkout (a source archive):"
                + " there is no history to check");
        Assumptions.assumeTrue(Git.run(List.of("cat-file", "-e", BASELINE + "^{commit}")).status() == 0,
                "the baseline commit " + BASELINE + " is not in this history (a shallow clone): the commits after"
                        + " it cannot be told from the ones before");
        Git.Result log = Git.run(List.of("log", "--no-merges", "--format=%h%x09%s", BASELINE + "..HEAD"));
        assertThat(log.status()).as("git log status").isZero();
        List<String> offences = new ArrayList<>();
        for (String line : log.out().lines().toList()) {
            int tab = line.indexOf('\t');
            String subject = line.substring(tab + 1);
            String why = problem(subject);
            if (!why.isEmpty()) {
                offences.add(line.substring(0, tab) + " \"" + subject + "\": " + why);
            }
        }
        assertThat(offences).as("commit subjects after " + BASELINE.substring(0, 7) + " must be under " + LIMIT
                + " characters with a component prefix (\"udp: bound the send queue\"); reword them (git rebase -i)"
                + " before merging, and enable the hook: git config core.hooksPath .githooks").isEmpty();
    }

    @Test
    void theRuleTellsGoodSubjectsFromBadOnes() {
        assertThat(problem("udp: bound the send queue")).isEmpty();
        assertThat(problem("spi, tck-selftest: pass the nullness checker")).isEmpty();
        assertThat(problem("mpi: " + "§".repeat(66))).as("71 characters, more bytes").isEmpty();
        assertThat(problem("bound the send queue")).contains("prefix");
        assertThat(problem("udp:bound the send queue")).contains("prefix");
        assertThat(problem("udp: " + "x".repeat(67))).contains("72 characters; subjects are under 72");
    }

    @Test
    void theCommitMsgHookAppliesTheSameRule(@TempDir Path dir) throws Exception {
        Path hook = Build.root().resolve(".githooks/commit-msg");
        assertThat(hook).as("the commit-msg hook the README tells developers to enable").isExecutable();
        assertThat(Files.readString(Build.root().resolve("README.md"))).as("README's Contributing section")
                .contains("`git config core.hooksPath .githooks`");
        // git's subject is the first paragraph: a body not set off by a blank line makes it long
        List<String> subjects = List.of("udp: bound the send queue", "bound the send queue",
                "mpi: " + "§".repeat(66), "udp: " + "x".repeat(67), "udp:bound the send queue",
                "udp: bound the send queue\nas the body should say, after a blank line");
        for (String subject : subjects) {
            Path message = dir.resolve("COMMIT_EDITMSG");
            Files.writeString(message, "# a comment git strips\n\n" + subject + "\n\nThe body, any length: "
                    + "x".repeat(100) + "\n", StandardCharsets.UTF_8);
            Process run;
            try {
                run = new ProcessBuilder("sh", hook.toString(), message.toString()).directory(dir.toFile())
                        .redirectErrorStream(true).start();
            } catch (IOException e) {
                Assumptions.abort("sh is not installed: " + e.getMessage());
                throw e;
            }
            String out = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            boolean accepted = run.waitFor() == 0;
            assertThat(accepted).as("the hook on \"" + subject + "\" (it said: " + out + ")")
                    .isEqualTo(problem(subject.replace('\n', ' ')).isEmpty());
        }
    }

    /** What is wrong with {@code subject}, or "" when it obeys the rule. */
    static String problem(String subject) {
        List<String> wrong = new ArrayList<>();
        int length = subject.codePointCount(0, subject.length());
        if (length >= LIMIT) {
            wrong.add(length + " characters; subjects are under " + LIMIT);
        }
        if (!PREFIX.matcher(subject).find()) {
            wrong.add("no component prefix");
        }
        return String.join("; ", wrong);
    }
}
