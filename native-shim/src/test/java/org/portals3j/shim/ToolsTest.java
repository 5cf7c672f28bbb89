package org.portals3j.shim;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * portalscc, portals3.pc, and the header's dialect switch (-DPTL_DIALECT_33), as a porting user meets them:
 * a name of the other dialect stops the compiler with a message saying what to do.
 */
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
    void portalsccWhoseLibraryIsGoneSaysWhereItShouldBeAndHowToBuildIt(@TempDir Path dir) throws Exception {
        // The same script with its prefix pointing at an installation whose library was removed.
        String script = Files.readString(CBuild.NATIVE.resolve("bin/portalscc"))
                .replace("prefix='" + CBuild.NATIVE + "'", "prefix='" + dir + "'");
        assertThat(script).contains("prefix='" + dir + "'");
        Path moved = Files.writeString(dir.resolve("portalscc"), script);
        CBuild.Outcome o = CBuild.run(List.of("sh", moved.toString(), "prog.c", "-o", "prog"), Map.of(), dir);
        assertThat(o.status()).isEqualTo(1);
        assertThat(o.err()).isEqualTo("portalscc: " + dir + "/lib/libportals3.so is missing; build it with ./portals cc"
                + " (or mvn -pl native-shim -am package) in the Portals3J tree\n");
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
        List<String> cc = new ArrayList<>(List.of("cc", CBuild.SOURCES.resolve("no_portals.c").toString(),
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
        CBuild.Outcome o = CBuild.portalscc("-Wall", "-Werror", "-c", src.toString(), "-o",
                CBuild.OUT.resolve("uses33.o").toString());
        assertThat(o.status()).isNotZero();
        assertThat(o.err()).contains("PtlEQPoll is Portals 3.3: compile with -DPTL_DIALECT_33");
    }

    @Test
    void a33ReturnCodeNameCompiledAs32StopsWithAMessageNamingThe32Name() throws Exception {
        CBuild.Outcome o = compileSnippet("code33", List.of(), "return PTL_NO_INIT;");
        assertThat(o.status()).isNotZero();
        assertThat(o.err()).contains("PTL_NO_INIT is Portals 3.3 (3.2: PTL_NOINIT): compile with -DPTL_DIALECT_33");
    }

    @Test
    void aPortals33ProgramCompiledWithTheDefineCallsThe33EntryPointsOfLibportals3() throws Exception {
        CBuild.Outcome o = compileSnippet("uses33ok", List.of("-DPTL_DIALECT_33"), """
                ptl_handle_eq_t eqs[2] = {PTL_EQ_NONE, PTL_EQ_NONE};
                ptl_event_t ev;
                int which;
                ptl_md_t md = {0, 0, 1, 0, PTL_MD_MAX_SIZE | PTL_MD_EVENT_START_DISABLE, 0, PTL_EQ_NONE};
                ptl_handle_md_t h;
                ptl_jid_t jid;
                return PtlEQPoll(eqs, 2, PTL_TIME_FOREVER, &ev, &which) + PtlMDBind(0, md, PTL_UNLINK, &h)
                        + PtlGetJid(0, &jid) + PtlHandleIsEqual(h, PTL_INVALID_HANDLE) + PtlMDUnlink(h);
                """);
        assertThat(o.status()).as(o.all()).isZero();
        CBuild.Outcome nm = CBuild.run(List.of("nm", "-u", CBuild.OUT.resolve("uses33ok.o").toString()), Map.of(),
                CBuild.OUT);
        assertThat(nm.out()).contains("ptl33_PtlEQPoll", "ptl33_PtlMDBind", "ptl33_PtlGetJid", "ptl33_PtlHandleIsEqual",
                "ptl33_PtlMDUnlink");
        assertThat(nm.out().lines().map(String::trim)).as("no 3.2 entry point").noneMatch(l -> l.matches("U Ptl\\w+"));
        CBuild.Outcome lib = CBuild.run(List.of("nm", "-D", "--defined-only",
                CBuild.NATIVE.resolve("lib/libportals3.so")
                .toString()), Map.of(), CBuild.OUT);
        assertThat(lib.out()).as("one library serves both dialects").contains(" PtlMDBind", " ptl33_PtlMDBind");
    }

    @Test
    void a32CallWrittenInA33ProgramIsAWrongNumberOfArguments() throws Exception {
        CBuild.Outcome o = compileSnippet("uses32in33", List.of("-DPTL_DIALECT_33"), """
                ptl_md_t md = {0, 0, 1, 0, 0, 0, PTL_EQ_NONE};
                ptl_handle_md_t h;
                return PtlMDBind(0, md, &h);
                """);
        assertThat(o.status()).isNotZero();
        assertThat(o.err()).contains("PtlMDBind").containsIgnoringCase("argument");
    }

    @Test
    void iovecMdsStopWithAMessageInBothDialects() throws Exception {
        for (List<String> flags : List.of(List.<String>of(), List.of("-DPTL_DIALECT_33"))) {
            CBuild.Outcome o = compileSnippet("iovec", flags, "return (int) PTL_MD_IOVEC;");
            assertThat(o.status()).as("%s", flags).isNotZero();
            assertThat(o.err()).contains("PTL_MD_IOVEC is not implemented by Portals3J");
        }
    }

    @Test
    void eqWaitTimeoutAndProgressStopTheCompilerWithWhatToUseInsteadInBothDialects() throws Exception {
        String v33 = "-DPTL_DIALECT_33";
        record Case(List<String> flags, String call, String message) { }
        List<Case> cases = List.of(
                new Case(List.of(), "PtlEQWait_timeout(0, &ev, 10)", "PtlEQWait_timeout is not Portals 3.2 (an"
                        + " extension of Lustre's Portals): loop on PtlEQGet, or compile with -DPTL_DIALECT_33"
                        + " and wait with PtlEQPoll's timeout"),
                new Case(List.of(v33), "PtlEQWait_timeout(0, &ev, 10)", "PtlEQWait_timeout is not provided (the"
                        + " 3.3 reference implementation declares it but never defined it): wait with"
                        + " PtlEQPoll(&eq, 1, timeout_ms, &event, &which)"),
                new Case(List.of(), "PtlProgress(0)", "PtlProgress is not needed: the Portals3J engine makes"
                        + " progress on its own threads; remove the call"),
                new Case(List.of(v33), "PtlProgress(0)", "PtlProgress is not needed: the Portals3J engine makes"
                        + " progress on its own threads; remove the call (PtlEQPoll waits for an event with a"
                        + " timeout)"));
        for (Case c : cases) {
            CBuild.Outcome o = compileSnippet("unprovided", c.flags(), "ptl_event_t ev;\n(void) ev;\nreturn "
                    + c.call() + ";");
            assertThat(o.status()).as("%s %s", c.flags(), c.call()).isNotZero();
            assertThat(o.err()).as("%s %s", c.flags(), c.call()).contains("error: " + c.message());
        }
    }

    /** Compiles (-c) a main() whose body is {@code body}, with portals3.h. */
    private static CBuild.Outcome compileSnippet(String name, List<String> flags, String body) throws Exception {
        Path src = CBuild.OUT.resolve(name + ".c");
        Files.createDirectories(CBuild.OUT);
        Files.writeString(src, "#include <portals3.h>\nint main(void) {\n" + body + "\n}\n");
        List<String> args = new ArrayList<>(List.of("-Wall", "-Werror"));
        args.addAll(flags);
        args.addAll(List.of("-c", src.toString(), "-o", CBuild.OUT.resolve(name + ".o").toString()));
        return CBuild.portalscc(args.toArray(String[]::new));
    }

    @Test
    void headersCompileCleanlyAsStrictC99AndAsCxxInBothDialects() throws Exception {
        Path src = CBuild.OUT.resolve("strict.c");
        Files.createDirectories(CBuild.OUT);
        Files.writeString(src, "#include <portals3.h>\n#include <portals3_rt.h>\nint main(void) { return 0; }\n");
        for (List<String> dialect : List.of(List.<String>of(), List.of("-DPTL_DIALECT_33"))) {
            List<String> c = new ArrayList<>(dialect);
            c.addAll(List.of("-std=c99", "-pedantic", "-Wall", "-Wextra", "-Wstrict-prototypes", "-Werror", "-c",
                    src.toString(), "-o", CBuild.OUT.resolve("strict.o").toString()));
            CBuild.Outcome cc = CBuild.portalscc(c.toArray(String[]::new));
            assertThat(cc.status()).as(dialect + ": " + cc.all()).isZero();
            List<String> cxx = new ArrayList<>(List.of("g++"));
            cxx.addAll(dialect);
            cxx.addAll(List.of("-Wall", "-Werror", "-I" + CBuild.NATIVE.resolve("include"), "-x", "c++", "-c",
                    src.toString(), "-o", CBuild.OUT.resolve("strict-cxx.o").toString()));
            CBuild.Outcome cxxOut = CBuild.run(cxx, Map.of(), CBuild.OUT);
            assertThat(cxxOut.status()).as(dialect + ": " + cxxOut.all()).isZero();
        }
    }
}
