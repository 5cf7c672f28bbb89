package org.portals3j.transport.gm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.Availability;

/**
 * A libfabric provider that is not there (hidden from a child JVM's libfabric with {@code FI_PROVIDER}) makes
 * {@code availability} say in one line that it is not usable and what to install or choose.
 */
class ProviderMissingTest {

    /** Prints, on one line, whether gm is available over provider {@code args[0]} and why not. */
    public static void main(String[] args) {
        Availability a = GmTransportProvider.availability(args[0]);
        System.out.println((a.available() ? "yes " : "no ") + a.reason());
    }

    @Test
    void aProviderLibfabricDoesNotOfferSaysWhatToInstall() throws IOException, InterruptedException {
        GmTestSupport.assumeAvailable("shm");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder pb = new ProcessBuilder(List.of(java.toString(), "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), ProviderMissingTest.class.getName(), "tcp"))
                .redirectErrorStream(true);
        pb.environment().put("FI_PROVIDER", "shm"); // libfabric offers shm only: no tcp, no ofi_rxm
        Process p = pb.start();
        String out;
        try {
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the child JVM ended").isTrue();
        } finally {
            p.destroyForcibly();
        }
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).doesNotContain("\n").startsWith("no libfabric provider tcp is not usable here")
                .contains("tcp;ofi_rxm").contains("apt-get install libfabric1").contains("choose another gm.provider");
    }
}
