/*
 * gm_map.c: how C GM programs find each other without GM's mapper (gm.h header comment). Each port opened with
 * gm_open and GM_SHIM_MAP_DIR set writes DIR/gm-NODE-PORT: line 1 its host name, line 2 its libfabric
 * endpoint name in hex. The file is written to a temporary name and renamed, so a reader sees all or nothing;
 * gm_close removes it. Unknown (node, port) pairs are read from it lazily, by progress, until the send's timeout.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gm_internal.h"

static void map_path(const struct gm_port *p, unsigned node, unsigned port, char *path, size_t len) {
    snprintf(path, len, "%s/gm-%u-%u", p->map_dir, node, port);
}

void gmi_map_publish(struct gm_port *p) {
    if (p->map_dir[0] == '\0') {
        return;
    }
    char path[320], temporary[340];
    map_path(p, p->node_id, p->port_id, path, sizeof path);
    snprintf(temporary, sizeof temporary, "%s.%d.tmp", path, (int) getpid());
    FILE *f = fopen(temporary, "w");
    if (f == NULL) {
        gmi_set_message("cannot write the map directory (GM_SHIM_MAP_DIR): peers will not find this port");
        return;
    }
    fprintf(f, "%s\n", p->host_name);
    for (size_t i = 0; i < p->name_len; i++) {
        fprintf(f, "%02x", p->name[i]);
    }
    fprintf(f, "\n");
    if (fclose(f) != 0 || rename(temporary, path) != 0) {
        unlink(temporary);
        gmi_set_message("cannot write the map directory (GM_SHIM_MAP_DIR): peers will not find this port");
    }
}

void gmi_map_unpublish(struct gm_port *p) {
    if (p->map_dir[0] != '\0') {
        char path[320];
        map_path(p, p->node_id, p->port_id, path, sizeof path);
        unlink(path);
    }
}

/* Reads DIR/gm-NODE-PORT into host (capacity GM_MAX_HOST_NAME_LEN + 1) and name; false when absent or bad. */
static bool read_entry(const struct gm_port *p, unsigned node, unsigned port, char *host, uint8_t *name,
                       size_t *name_len) {
    char path[320], hex[2 * GMI_NAME_MAX + 2];
    map_path(p, node, port, path, sizeof path);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return false;
    }
    bool ok = fgets(host, GM_MAX_HOST_NAME_LEN + 1, f) != NULL && fgets(hex, sizeof hex, f) != NULL;
    fclose(f);
    if (!ok) {
        return false;
    }
    host[strcspn(host, "\n")] = '\0';
    size_t digits = strcspn(hex, "\n");
    if (digits == 0 || digits % 2 != 0 || digits / 2 > GMI_NAME_MAX) {
        return false;
    }
    for (size_t i = 0; i < digits / 2; i++) {
        unsigned byte;
        if (sscanf(hex + 2 * i, "%2x", &byte) != 1) {
            return false;
        }
        name[i] = (uint8_t) byte;
    }
    *name_len = digits / 2;
    return true;
}

bool gmi_map_resolve(struct gm_port *p, struct gmi_peer *peer) {
    if (p->map_dir[0] == '\0') {
        return peer->resolved;
    }
    char host[GM_MAX_HOST_NAME_LEN + 1];
    uint8_t name[GMI_NAME_MAX];
    size_t len = 0;
    if (!read_entry(p, peer->node, peer->port, host, name, &len)) {
        return peer->resolved;
    }
    if (gmi_peer_insert(p, peer, name, len) != GM_SUCCESS) {
        return false;
    }
    snprintf(peer->host_name, sizeof peer->host_name, "%s", host);
    return true;
}

bool gmi_map_find_host(struct gm_port *p, const char *host_name, unsigned *node) {
    if (p->map_dir[0] == '\0') {
        return false;
    }
    DIR *dir = opendir(p->map_dir);
    if (dir == NULL) {
        return false;
    }
    unsigned best = 0;
    struct dirent *d;
    while ((d = readdir(dir)) != NULL) {
        unsigned n, port;
        char tail;
        if (sscanf(d->d_name, "gm-%u-%u%c", &n, &port, &tail) != 2 || n == 0 || n > GM_MAX_NODE_ID
            || port >= GM_NUM_PORTS) {
            continue;
        }
        char host[GM_MAX_HOST_NAME_LEN + 1];
        uint8_t name[GMI_NAME_MAX];
        size_t len;
        if (read_entry(p, n, port, host, name, &len) && strcmp(host, host_name) == 0 && (best == 0 || n < best)) {
            best = n;
        }
    }
    closedir(dir);
    *node = best;
    return best != 0;
}
