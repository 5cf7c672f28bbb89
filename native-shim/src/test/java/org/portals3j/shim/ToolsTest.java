package org.portals3j.shim;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** portalscc, portals3.pc, and the header's dialect switch, as a porting user meets them. */
class ToolsTest {

    @Test
    void portalsccAddsTheIncludePathTheLibraryAndAnRpathToIt() throws Exception {
        CBuild.Outcome o = CBuild.portalscc("--showme", "prog.c", "-o", "prog");
        assertThat(o.status()).isZero();
        Path lib = CBuild.NATIVE.resolve("lib");
        assertThat(o.out().trim()).isEqualTo("cc -I" + CBuild.NATIVE.resolve("include") + " prog.c -o prog -L" + lib
                + " -Wl,-rpath," + lib + " -lportals3");
    }

    @Test
    void portalsccOnlyCompilingDoesNotLink() throws Exception {
        CBuild.Outcome o = CBuild.portalscc("--showme", "-c", "prog.c");
        assertThat(o.out().trim()).isEqualTo("cc -I" + CBuild.NATIVE.resolve("include") + " -c prog.c");
    }

    @Test
    void pkgConfigGivesWhatCcNeedsToBuildAndRunAPortalsProgram() throws Exception {
        Map<String, String> env = Map.of("PKG_CONFIG_PATH", CBuild.NATIVE.resolve("lib/pkgconfig").toString());
        CBuild.Outcome flags = CBuild.run(List.of("pkg-config", "--cflags", "--libs", "portals3"), env, CBuild.OUT);
        assertThat(flags.status()).as(flags.all()).isZero();
        Path exe = CBuild.OUT.resolve("no_portals_pc");
        List<String> cc = new java.util.ArrayList<>(List.of("cc", CBuild.SOURCES.resolve("no_portals.c").toString(),
                "-o", exe.toString()));
        cc.addAll(List.of(flags.out().trim().split("\\s+")));
        CBuild.Outcome build = CBuild.run(cc, env, CBuild.OUT);
        assertThat(build.status()).as(build.all()).isZero();
        CBuild.Outcome run = CJob.alone(exe, Map.of());
        assertThat(run.status()).as(run.all()).isZero();
        assertThat(run.out()).contains("no JVM");
    }

    @Test
    void portals33CallCompiledAs32StopsWithAMessageSayingToDefinePtlDialect33() throws Exception {
        Path src = CBuild.OUT.resolve("uses33.c");
        Files.createDirectories(CBuild.OUT);
        Files.writeString(src, """
                #include <portals3.h>
                int main(void) {
                    ptl_handle_eq_t eqs[1] = {PTL_EQ_NONE};
                    ptl_event_t ev;
                    int which;
                    return PtlEQPoll(eqs, 1, 10, &ev, &which);
                }
                """);
        CBuild.Outcome o = CBuild.portalscc("-Wall", "-Werror", "-c", src.toString(), "-o", CBuild.OUT.resolve("uses33.o").toString());
        assertThat(o.status()).isNotZero();
        assertThat(o.err()).contains("PtlEQPoll is Portals 3.3: compile with -DPTL_DIALECT_33");
    }

    @Test
    void askingForTheDialect33FromThisBuildStopsWithAMessage() throws Exception {
        CBuild.Outcome o = CBuild.portalscc("-DPTL_DIALECT_33", "-c", CBuild.SOURCES.resolve("no_portals.c").toString(),
                "-o", CBuild.OUT.resolve("d33.o").toString());
        assertThat(o.status()).isNotZero();
        assertThat(o.err()).contains("this build of libportals3 has only the Portals 3.2 API");
    }

    @Test
    void headersCompileCleanlyAsStrictC99AndAsCxx() throws Exception {
        Path src = CBuild.OUT.resolve("strict.c");
        Files.createDirectories(CBuild.OUT);
        Files.writeString(src, "#include <portals3.h>\n#include <portals3_rt.h>\nint main(void) { return 0; }\n");
        CBuild.Outcome c = CBuild.portalscc("-std=c99", "-pedantic", "-Wall", "-Wextra", "-Wstrict-prototypes", "-Werror",
                "-c", src.toString(), "-o", CBuild.OUT.resolve("strict.o").toString());
        assertThat(c.status()).as(c.all()).isZero();
        CBuild.Outcome cxx = CBuild.run(List.of("g++", "-Wall", "-Werror", "-I" + CBuild.NATIVE.resolve("include"), "-x",
                "c++", "-c", src.toString(), "-o", CBuild.OUT.resolve("strict-cxx.o").toString()), Map.of(), CBuild.OUT);
        assertThat(cxx.status()).as(cxx.all()).isZero();
    }
}
