package org.portals3j.transport.gm.internal.nativeaccess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When libgm cannot be loaded or bound, or a provider name is wrong, one line says what to install or choose. */
class LibgmMessagesTest {

    @Test
    void aLibraryWhoseLibfabricIsMissingSaysToInstallLibfabric1(@TempDir Path dir) {
        Path lib = dir.resolve("libgm.so");
        assertThatThrownBy(() -> Libgm.fromLibrary(lib, p -> {
            throw new IllegalArgumentException("Cannot open library: libfabric.so.1: cannot open shared object file:"
                    + " No such file or directory");
        })).isInstanceOf(IllegalStateException.class)
                .hasMessage("libfabric.so.1 not found: apt-get install libfabric1 (libfabric-dev to build libgm)");
    }

    @Test
    void aFileThatIsNotALibrarySaysWhatToInstallAndRebuild(@TempDir Path dir) throws IOException {
        Path notElf = Files.writeString(dir.resolve("libgm.so"), "not an ELF file\n");
        assertThatThrownBy(() -> Libgm.fromLibrary(notElf, p -> SymbolLookup.libraryLookup(p, Arena.global())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("cannot load " + notElf)
                .hasMessageEndingWith("install libfabric1 and rebuild libgm")
                .message().doesNotContain("\n");
    }

    @Test
    void aLibraryWithoutGmsFunctionsSaysToRebuildLibgm() {
        assertThatThrownBy(() -> Libgm.fromLibrary(Path.of("libm.so.6"),
                p -> SymbolLookup.libraryLookup(p.toString(), Arena.global())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("libgm.so has no gm_init: it is older than this transport; rebuild native-shim/libgm");
    }

    @Test
    void aProviderNameGmDoesNotKnowSaysWhichToChoose() {
        Libgm lib = loadedOrSkip();
        String why = String.valueOf(lib.providerUnavailable("bogus"));
        assertThat(why).doesNotContain("\n")
                .startsWith("gm.provider=bogus is not a provider gm runs on")
                .contains("tcp, shm, udp or net");
        assertThat(lib.providerUnavailable("tcp") == null).as("the default provider works here").isTrue();
    }

    private static Libgm loadedOrSkip() {
        try {
            return Libgm.load();
        } catch (IllegalStateException e) {
            Assumptions.abort("libgm cannot be loaded here: " + e.getMessage());
            throw e;
        }
    }
}
