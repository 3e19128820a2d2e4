/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_seeds.c -- writes the seed corpora of the fuzz targets (test/fuzz/corpus/decode/ and
 * corpus/server/), packed with the real pack functions so they are what a client sends:
 *   decode/  every sample type of pack_samples.h through each reader of fuzz_decode.c
 *   server/  one valid request of each command (and a few two-request conversations) in
 *            fuzz_server.c's input format, plus one raw frame.
 * Usage: fuzz_seeds OUTDIR   (contrib/fuzz.sh --seeds rewrites the corpus in the tree; run it
 * when the wire format or the protocol changes, and commit the result). */
#include "pmix.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"
#include "pmix/common/wu_value.h"
#include "test/fuzz/fuzz.h"
#include "test/unit/pmix/pack_samples.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *outdir;
static int nfiles;

static void check(int rc, const char *what)
{
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "fuzz_seeds: %s: %s\n", what, PMIx_Error_string(rc));
        exit(1);
    }
}

/* write b's bytes to OUTDIR/sub/name and empty b */
static void emit(const char *sub, const char *name, wu_buffer_t *b)
{
    char path[4096];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", outdir, sub);
    (void)mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/%s/%s", outdir, sub, name);
    if (NULL == (f = fopen(path, "wb")) || b->used != fwrite(b->base, 1, b->used, f) ||
        0 != fclose(f)) {
        fprintf(stderr, "fuzz_seeds: cannot write %s\n", path);
        exit(1);
    }
    nfiles++;
    wu_buffer_destruct(b);
}

/* ---- decode ------------------------------------------------------------------------------- */

static void decode_seed(uint8_t reader, size_t ti, const char *prefix)
{
    pmix_data_type_t t = sample_types[ti];
    const char *tn = PMIx_Data_type_string(t);
    char name[128];
    uint8_t sel[2] = {reader, (uint8_t)ti};
    void *a = sample_array(t, 2);
    wu_buffer_t b;
    size_t k;

    wu_buffer_construct(&b);
    check(wu_buffer_put(&b, sel, 2), "put");
    if (FZ_RD_LIST == reader) {
        check(wu_proto_pack_list(&b, a, 2, t), tn);
    } else {
        check(wu_pack(&b, a, 2, t), tn);
    }
    sample_free(a, t, 2);
    k = (size_t)snprintf(name, sizeof name, "%s-", prefix);
    for (const char *c = 0 == strncmp(tn, "PMIX_", 5) ? tn + 5 : tn;
         '\0' != *c && k + 1 < sizeof name; c++) {
        name[k++] = (char)tolower((unsigned char)*c);
    }
    name[k] = '\0';
    emit("decode", name, &b);
}

static void decode_seeds(void)
{
    wu_buffer_t b;
    pmix_info_t *info = sample_array(PMIX_INFO, 2);
    pmix_byte_object_t bo = {.bytes = "seed", .size = 4};
    pmix_proc_t p;
    uint8_t sel[2] = {FZ_RD_BLOB, 0};

    for (size_t i = 0; i < N_SAMPLE_TYPES; i++) {
        decode_seed(FZ_RD_UNPACK, i, "unpack");
        if (PMIX_INFO == sample_types[i] || PMIX_PROC == sample_types[i] ||
            PMIX_QUERY == sample_types[i] || PMIX_DATA_ARRAY == sample_types[i]) {
            decode_seed(FZ_RD_LIST, i, "list");
            decode_seed(FZ_RD_PUBLIC, i, "public");
        }
    }
    /* two blob records */
    wu_buffer_construct(&b);
    check(wu_buffer_put(&b, sel, 2), "put");
    for (pmix_rank_t r = 0; r < 2; r++) {
        PMIX_LOAD_PROCID(&p, FZ_NS, r);
        check(wu_proto_blob_add(&b, &p, info, 2), "blob");
    }
    emit("decode", "blob", &b);
    sample_free(info, PMIX_INFO, 2);
    /* byte object views */
    sel[0] = FZ_RD_BO_VIEW;
    wu_buffer_construct(&b);
    check(wu_buffer_put(&b, sel, 2), "put");
    check(wu_pack(&b, &bo, 1, PMIX_BYTE_OBJECT), "bo");
    check(wu_pack(&b, &bo, 1, PMIX_BYTE_OBJECT), "bo");
    emit("decode", "bo-view", &b);
}

/* ---- server -------------------------------------------------------------------------------- */

/* info lists: {key, type, value} triples, ended by a NULL key */
typedef struct {
    const char *key;
    pmix_data_type_t type;
    const void *val;
} kv_t;

static void put_infos(wu_buffer_t *b, const kv_t *kv)
{
    pmix_info_t info[8];
    size_t n = 0;
    for (; NULL != kv[n].key; n++) {
        PMIX_INFO_CONSTRUCT(&info[n]);
        check(PMIx_Info_load(&info[n], kv[n].key, kv[n].val, kv[n].type), kv[n].key);
    }
    check(wu_proto_pack_list(b, info, n, PMIX_INFO), "info list");
    for (size_t i = 0; i < n; i++) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
}

static void put_cmd(wu_buffer_t *b, uint8_t cmd)
{
    if (b->used > 0) {
        check(wu_buffer_put(b, FZ_SEP, 4), "sep");
    }
    check(wu_buffer_put_u8(b, cmd), "cmd");
}

static void put_proc(wu_buffer_t *b, pmix_rank_t rank)
{
    pmix_proc_t p;
    PMIX_LOAD_PROCID(&p, FZ_NS, rank);
    check(wu_pack(b, &p, 1, PMIX_PROC), "proc");
}

static void put_str(wu_buffer_t *b, const char *s)
{
    check(wu_pack(b, &s, 1, PMIX_STRING), "string");
}

static const bool yes = true;
static const int one_sec = 1;

static void put_commit(wu_buffer_t *b)
{
    uint32_t v = 7;
    pmix_status_t ok = PMIX_SUCCESS;
    /* status, local-scope list, remote-only list, names of the global keys (wu_proto.h) */
    put_cmd(b, WU_CMD_COMMIT);
    check(wu_pack(b, &ok, 1, PMIX_STATUS), "status");
    put_infos(
        b,
        (kv_t[]){{"fz.local", PMIX_UINT32, &v}, {"fz.global", PMIX_UINT32, &v}, {NULL, 0, NULL}});
    put_infos(b, (kv_t[]){{"fz.remote", PMIX_STRING, "seed"}, {NULL, 0, NULL}});
    put_infos(b, (kv_t[]){{"fz.global", PMIX_BOOL, &yes}, {NULL, 0, NULL}});
}

static void put_get(wu_buffer_t *b, pmix_rank_t rank, const char *key)
{
    put_cmd(b, WU_CMD_GET);
    put_proc(b, rank);
    put_str(b, key);
    put_infos(b, (kv_t[]){{PMIX_OPTIONAL, PMIX_BOOL, &yes}, {NULL, 0, NULL}});
}

static void put_fence(wu_buffer_t *b, bool all)
{
    pmix_proc_t p;
    PMIX_LOAD_PROCID(&p, FZ_NS, PMIX_RANK_WILDCARD);
    put_cmd(b, WU_CMD_FENCE);
    check(wu_proto_pack_list(b, &p, all ? 1 : 0, PMIX_PROC), "procs");
    put_infos(b, (kv_t[]){{PMIX_COLLECT_DATA, PMIX_BOOL, &yes},
                          {PMIX_TIMEOUT, PMIX_INT, &one_sec},
                          {NULL, 0, NULL}});
}

static void server_seeds(void)
{
    wu_buffer_t b;
    const char *ver = WU_PROTO_VERSION, *none = NULL;
    pmix_byte_object_t cred = {.bytes = NULL, .size = 0};
    pmix_status_t st = PMIX_EXTERNAL_ERR_BASE - 1; /* a user-defined event */
    pid_t pid = 1;
    uint32_t caps = WU_PROTO_CAP_SEGMENTS;
    pmix_data_range_t range = PMIX_RANGE_NAMESPACE;
    pmix_query_t q;

    wu_buffer_construct(&b);
    put_cmd(&b, WU_CMD_CONNECT); /* the handshake itself, as rank 1 */
    check(wu_pack(&b, &ver, 1, PMIX_STRING), "version");
    check(wu_pack(&b, &none, 1, PMIX_STRING), "mode");
    check(wu_pack(&b, &cred, 1, PMIX_BYTE_OBJECT), "cred");
    put_proc(&b, 1);
    check(wu_pack(&b, &pid, 1, PMIX_PID), "pid");
    emit("server", "connect", &b);

    put_cmd(&b, WU_CMD_CONNECT); /* with capabilities and a programming model */
    check(wu_pack(&b, &ver, 1, PMIX_STRING), "version");
    check(wu_pack(&b, &none, 1, PMIX_STRING), "mode");
    check(wu_pack(&b, &cred, 1, PMIX_BYTE_OBJECT), "cred");
    put_proc(&b, 1);
    check(wu_pack(&b, &pid, 1, PMIX_PID), "pid");
    check(wu_pack(&b, &caps, 1, PMIX_UINT32), "caps");
    put_infos(&b, (kv_t[]){{PMIX_PROGRAMMING_MODEL, PMIX_STRING, "fuzz"},
                           {PMIX_MODEL_LIBRARY_NAME, PMIX_STRING, "fuzz_seeds"},
                           {PMIX_THREADING_MODEL, PMIX_STRING, "NONE"},
                           {NULL, 0, NULL}});
    emit("server", "connect-model", &b);

    put_cmd(&b, WU_CMD_FINALIZE);
    emit("server", "finalize", &b);

    put_cmd(&b, WU_CMD_ABORT);
    check(wu_pack(&b, &st, 1, PMIX_STATUS), "status");
    put_str(&b, "fuzz seed abort");
    check(wu_proto_pack_list(&b, NULL, 0, PMIX_PROC), "procs");
    emit("server", "abort", &b);

    put_commit(&b);
    emit("server", "commit", &b);

    put_fence(&b, false);
    emit("server", "fence", &b);
    put_fence(&b, true);
    emit("server", "fence-wildcard", &b);

    put_get(&b, 0, "fz.local");
    emit("server", "get", &b);
    put_get(&b, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    emit("server", "get-job", &b);
    put_get(&b, 2, "fz.remote");
    emit("server", "get-remote", &b);
    put_commit(&b);
    put_get(&b, 0, "fz.local");
    emit("server", "commit-get", &b);
    put_commit(&b);
    put_fence(&b, false);
    emit("server", "commit-fence", &b);

    put_cmd(&b, WU_CMD_JOB_CONTROL);
    check(wu_proto_pack_list(&b, NULL, 0, PMIX_PROC), "targets");
    put_infos(&b, (kv_t[]){{PMIX_JOB_CTRL_KILL, PMIX_BOOL, &yes},
                           {PMIX_REGISTER_CLEANUP, PMIX_STRING, "/nonexistent/wu-fuzz/x"},
                           {NULL, 0, NULL}});
    emit("server", "job-control", &b);

    PMIX_QUERY_CONSTRUCT(&q);
    q.keys = (char *[]){PMIX_QUERY_NAMESPACES,        PMIX_JOB_SIZE, PMIX_QUERY_PROC_TABLE,
                        PMIX_QUERY_ATTRIBUTE_SUPPORT, "fz.unknown",  NULL};
    put_cmd(&b, WU_CMD_QUERY);
    check(wu_proto_pack_list(&b, &q, 1, PMIX_QUERY), "query");
    emit("server", "query", &b);

    put_cmd(&b, WU_CMD_LOG);
    put_infos(&b, (kv_t[]){{PMIX_LOG_STDERR, PMIX_STRING, "fuzz seed log\n"}, {NULL, 0, NULL}});
    put_infos(&b, (kv_t[]){{NULL, 0, NULL}});
    emit("server", "log", &b);

    put_cmd(&b, WU_CMD_NOTIFY);
    check(wu_pack(&b, &st, 1, PMIX_STATUS), "status");
    put_proc(&b, 0);
    check(wu_pack(&b, &range, 1, PMIX_DATA_RANGE), "range");
    put_infos(&b, (kv_t[]){{NULL, 0, NULL}});
    emit("server", "notify", &b);

    /* an environment event (cached), then a registration for it (answered with it) */
    range = PMIX_RANGE_LOCAL;
    put_cmd(&b, WU_CMD_NOTIFY);
    check(wu_pack(&b, &st, 1, PMIX_STATUS), "status");
    put_proc(&b, 0);
    check(wu_pack(&b, &range, 1, PMIX_DATA_RANGE), "range");
    put_infos(&b, (kv_t[]){{PMIX_EVENT_TEXT_MESSAGE, PMIX_STRING, "seed"}, {NULL, 0, NULL}});
    put_cmd(&b, WU_CMD_REGISTER_EVENTS);
    check(wu_pack(&b, &(size_t){3}, 1, PMIX_SIZE), "ref");
    check(wu_proto_pack_list(&b, &st, 1, PMIX_STATUS), "codes");
    {
        pmix_proc_t all;
        PMIX_LOAD_PROCID(&all, FZ_NS, PMIX_RANK_WILDCARD);
        check(wu_proto_pack_list(&b, &all, 1, PMIX_PROC), "affected");
    }
    emit("server", "notify-register", &b);

    /* the data service */
    put_cmd(&b, WU_CMD_PUBLISH);
    put_infos(&b, (kv_t[]){{"fz.pub", PMIX_STRING, "v"},
                           {PMIX_RANGE, PMIX_DATA_RANGE, &range},
                           {NULL, 0, NULL}});
    emit("server", "publish", &b);
    put_cmd(&b, WU_CMD_LOOKUP);
    {
        char *keys[] = {"fz.pub", "fz.other"};
        check(wu_proto_pack_list(&b, keys, 2, PMIX_STRING), "keys");
    }
    put_infos(&b, (kv_t[]){{PMIX_WAIT, PMIX_BOOL, &yes}, {NULL, 0, NULL}});
    emit("server", "lookup", &b);
    put_cmd(&b, WU_CMD_UNPUBLISH);
    check(wu_proto_pack_list(&b, NULL, 0, PMIX_STRING), "keys");
    put_infos(&b, (kv_t[]){{NULL, 0, NULL}});
    emit("server", "unpublish", &b);

    /* connect and disconnect, with a participant of another namespace (the host's upcalls) */
    for (int k = 0; k < 2; k++) {
        pmix_proc_t two[2];
        PMIX_LOAD_PROCID(&two[0], FZ_NS, PMIX_RANK_WILDCARD);
        PMIX_LOAD_PROCID(&two[1], "fz.other", 0);
        put_cmd(&b, 0 == k ? WU_CMD_CONNECT_PROCS : WU_CMD_DISCONNECT_PROCS);
        check(wu_proto_pack_list(&b, two, 2, PMIX_PROC), "procs");
        put_infos(&b, (kv_t[]){{PMIX_TIMEOUT, PMIX_INT, &one_sec}, {NULL, 0, NULL}});
        emit("server", 0 == k ? "connect-procs" : "disconnect-procs", &b);
    }

    /* a spawn of one application with a job directive */
    {
        pmix_app_t app;
        char *argv[] = {"fz-prog", "-x", NULL};
        char *env[] = {"FZ=1", NULL};
        PMIX_APP_CONSTRUCT(&app);
        app.cmd = "fz-prog";
        app.argv = argv;
        app.env = env;
        app.maxprocs = 2;
        put_cmd(&b, WU_CMD_SPAWN);
        put_infos(&b, (kv_t[]){{PMIX_MAPBY, PMIX_STRING, "slot"}, {NULL, 0, NULL}});
        check(wu_proto_pack_list(&b, &app, 1, PMIX_APP), "apps");
        emit("server", "spawn", &b);
    }

    /* credentials: one asked for, one (made up) to validate */
    put_cmd(&b, WU_CMD_GET_CRED);
    put_infos(&b, (kv_t[]){{PMIX_CRED_TYPE, PMIX_STRING, "munge,native"}, {NULL, 0, NULL}});
    emit("server", "get-cred", &b);
    put_cmd(&b, WU_CMD_VALIDATE_CRED);
    {
        pmix_byte_object_t bo = {"wucred1:0:0:0:0:fz:00000000000000000000000000000000", 50};
        check(wu_pack(&b, &bo, 1, PMIX_BYTE_OBJECT), "cred");
    }
    put_infos(&b, (kv_t[]){{NULL, 0, NULL}});
    emit("server", "validate-cred", &b);

    /* a group of this rank and another process, with a context id; its destruct */
    for (int k = 0; k < 2; k++) {
        pmix_proc_t two[2];
        const char *grp = "fz.grp";
        PMIX_LOAD_PROCID(&two[0], FZ_NS, 0);
        PMIX_LOAD_PROCID(&two[1], FZ_NS, 1);
        put_cmd(&b, 0 == k ? WU_CMD_GROUP_CONSTRUCT : WU_CMD_GROUP_DESTRUCT);
        check(wu_pack(&b, &grp, 1, PMIX_STRING), "group");
        check(wu_proto_pack_list(&b, two, 2, PMIX_PROC), "members");
        put_infos(&b, (kv_t[]){{PMIX_GROUP_ASSIGN_CONTEXT_ID, PMIX_BOOL, &yes},
                               {PMIX_TIMEOUT, PMIX_INT, &one_sec},
                               {NULL, 0, NULL}});
        emit("server", 0 == k ? "group-construct" : "group-destruct", &b);
    }

    /* unframed: a frame header and a CONNECT's command byte, then nothing */
    check(wu_buffer_put(&b, (uint8_t[]){FZ_RAW, 'W', 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 7}, 13), "raw");
    check(wu_buffer_put_u16(&b, PMIX_UINT8), "raw");
    emit("server", "raw-short", &b);
}

int main(int argc, char **argv)
{
    if (2 != argc) {
        fprintf(stderr, "usage: fuzz_seeds OUTDIR\n");
        return 2;
    }
    outdir = argv[1];
    decode_seeds();
    server_seeds();
    printf("fuzz_seeds: %d files in %s\n", nfiles, outdir);
    return 0;
}
