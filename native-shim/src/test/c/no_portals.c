/*
 * no_portals: a program linked with libportals3 that calls no Ptl* or ptl_rt_* function runs as any
 * program does: no JVM is started in it (libjvm is not mapped), whatever PORTALS3J_* says.
 */
#include <stdio.h>
#include <string.h>

#include <portals3.h>

/* Referenced, never called: the program is linked with libportals3 (the linker keeps it) without using it. */
int (*volatile portals_init)(int *) = PtlInit;

int main(int argc, char **argv) {
    FILE *maps = fopen("/proc/self/maps", "r");
    if (maps == NULL) {
        printf("FAIL: cannot read /proc/self/maps\n");
        return 1;
    }
    char line[4096];
    int portals = 0;
    while (fgets(line, sizeof line, maps) != NULL) {
        if (strstr(line, "libjvm") != NULL) {
            printf("FAIL: a JVM is mapped: %s", line);
            return 1;
        }
        portals |= strstr(line, "libportals3.so") != NULL;
    }
    fclose(maps);
    if (!portals) {
        printf("FAIL: libportals3.so is not loaded (the program must be linked with it)\n");
        return 1;
    }
    printf("no_portals: %d arguments, no JVM\n", argc - 1);
    (void) argv;
    return 0;
}
