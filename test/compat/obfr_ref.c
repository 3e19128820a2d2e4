/* SPDX-License-Identifier: BSD-3-Clause */
/* obfr_ref.c -- the reference side of test/compat/obfr_openpmix.sh: built against OpenPMIx's
 * own headers and library (Debian's libpmix-dev, not this tree), it packs the samples of
 * obfr_samples.h with PMIx_Data_pack, or reads such lines (from obfr_ours) back with
 * PMIx_Data_unpack and checks that they pack again to the same bytes.
 *
 *   obfr_ref pack          one "<name> <hex>" line a sample on stdout
 *   obfr_ref check < FILE  one "<name> ok" or "<name> FAIL: <why>" line for each line read
 *                          ("<name> skipped" for a sample OpenPMIx does not read back as it
 *                          packs it: OBFR_S_REF_ASYM in obfr_samples.h)
 *
 * The buffer type is OpenPMIx's: PMIX_BFROP_BUFFER_TYPE in the environment selects it (the
 * tool reads it at PMIx_tool_init, see the script). The tool never looks for a server
 * (PMIX_TOOL_DO_NOT_CONNECT). */
#include <pmix_tool.h>

#include "obfr_samples.h"

static int repack(const obfr_sample_t *s, void *vals, int32_t n, const unsigned char *bytes,
                  size_t len, const char **why)
{
    pmix_data_buffer_t *buf;
    int ok;

    PMIX_DATA_BUFFER_CREATE(buf);
    if (PMIX_SUCCESS != PMIx_Data_pack(NULL, buf, vals, n, s->type)) {
        *why = "does not pack again";
        PMIX_DATA_BUFFER_RELEASE(buf);
        return 0;
    }
    ok = buf->bytes_used == len && 0 == memcmp(buf->base_ptr, bytes, len);
    if (!ok) {
        *why = "packs again to other bytes";
        obfr_hex_print("# repacked", (const unsigned char *)buf->base_ptr, buf->bytes_used);
    }
    PMIX_DATA_BUFFER_RELEASE(buf);
    return ok;
}

static int check(void)
{
    char line[65536], name[64];
    int bad = 0;

    while (NULL != fgets(line, sizeof(line), stdin)) {
        const obfr_sample_t *s;
        const char *why = NULL;
        unsigned char *bytes = NULL;
        size_t len = 0, room;
        pmix_data_buffer_t buf;
        pmix_byte_object_t bo;
        void *vals;
        int32_t n;
        int rc;

        if (!obfr_hex_parse(line, name, sizeof(name), &bytes, &len)) {
            continue;
        }
        if (NULL == (s = obfr_sample_find(name)) || 0 != (s->flags & OBFR_S_REF_ASYM)) {
            printf("%s %s\n", name, NULL == s ? "FAIL: no such sample" : "skipped");
            bad |= NULL == s;
            free(bytes);
            continue;
        }
        room = (size_t)s->n + 1;
        vals = calloc(room, obfr_sample_elem_size(s->type));
        n = (int32_t)room;
        PMIX_DATA_BUFFER_CONSTRUCT(&buf);
        bo.bytes = (char *)bytes;
        bo.size = len;
        PMIx_Data_load(&buf, &bo); /* takes the bytes */
        rc = PMIx_Data_unpack(NULL, &buf, vals, &n, s->type);
        if (PMIX_SUCCESS != rc) {
            why = PMIx_Error_string(rc);
        } else if (n != s->n) {
            why = "another count";
        } else if (buf.unpack_ptr != buf.pack_ptr) {
            why = "bytes left over";
        } else if (repack(s, vals, n, (const unsigned char *)buf.base_ptr, buf.bytes_used, &why)) {
            why = NULL;
        }
        if (NULL == why) {
            printf("%s ok\n", name);
        } else {
            printf("%s FAIL: %s\n", name, why);
            bad = 1;
        }
        /* the decoded values are left to the exit: this is a short-lived test program */
        PMIX_DATA_BUFFER_DESTRUCT(&buf);
    }
    return bad;
}

int main(int argc, char **argv)
{
    pmix_proc_t me;
    pmix_info_t info;
    bool yes = true;
    int rc, bad = 0;

    if (argc != 2 || (0 != strcmp(argv[1], "pack") && 0 != strcmp(argv[1], "check"))) {
        fprintf(stderr, "usage: obfr_ref pack|check\n");
        return 2;
    }
    PMIX_INFO_LOAD(&info, PMIX_TOOL_DO_NOT_CONNECT, &yes, PMIX_BOOL);
    if (PMIX_SUCCESS != (rc = PMIx_tool_init(&me, &info, 1))) {
        fprintf(stderr, "obfr_ref: PMIx_tool_init: %s\n", PMIx_Error_string(rc));
        return 2;
    }
    if (0 == strcmp(argv[1], "check")) {
        bad = check();
    } else {
        size_t count;
        const obfr_sample_t *s = obfr_samples(&count);
        for (size_t i = 0; i < count; i++) {
            pmix_data_buffer_t *buf;
            PMIX_DATA_BUFFER_CREATE(buf);
            rc = PMIx_Data_pack(NULL, buf, (void *)s[i].data, s[i].n, s[i].type);
            if (PMIX_SUCCESS == rc) {
                obfr_hex_print(s[i].name, (const unsigned char *)buf->base_ptr, buf->bytes_used);
            } else {
                printf("%s ERROR %s\n", s[i].name, PMIx_Error_string(rc));
                bad = 1;
            }
            PMIX_DATA_BUFFER_RELEASE(buf);
        }
    }
    fflush(stdout);
    PMIx_tool_finalize();
    return bad;
}
