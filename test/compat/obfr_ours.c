/* SPDX-License-Identifier: BSD-3-Clause */
/* obfr_ours.c -- our side of test/compat/obfr_openpmix.sh: the samples of obfr_samples.h
 * through Wireup's codec of OpenPMIx's serialization (pmix/common/wu_obfr.h), in the same line
 * format as obfr_ref, which is built on OpenPMIx's own library.
 *
 *   obfr_ours pack BTYPE          one "<name> <hex>" line a sample (BTYPE 1: non-described,
 *                                 2: fully described)
 *   obfr_ours check BTYPE < FILE  reads such lines (from obfr_ref): each must decode whole,
 *                                 with the sample's count, and encode again to the same bytes */
#include "pmix.h"
#include "pmix/common/wu_obfr.h"
#include "test/compat/obfr_samples.h"

static const char *check_one(const obfr_sample_t *s, int btype, const unsigned char *bytes,
                             size_t len)
{
    size_t room = (size_t)s->n + 1, sz = obfr_sample_elem_size(s->type);
    void *vals = calloc(room, sz);
    int32_t n = (int32_t)room;
    const char *why = NULL;
    wu_buffer_t in, out;
    int rc;

    wu_buffer_construct(&in);
    wu_buffer_construct(&out);
    if (NULL == vals || PMIX_SUCCESS != wu_buffer_put(&in, bytes, len)) {
        why = "out of memory";
    } else if (PMIX_SUCCESS != (rc = wu_obfr_unpack(&in, btype, vals, &n, s->type))) {
        why = PMIx_Error_string(rc);
        n = 0;
    } else if (n != s->n) {
        why = "another count";
    } else if (0 != wu_buffer_remaining(&in)) {
        why = "bytes left over";
    } else if (PMIX_SUCCESS != wu_obfr_pack(&out, btype, vals, n, s->type)) {
        why = "does not pack again";
    } else if (out.used != len || 0 != memcmp(out.base, bytes, len)) {
        why = "packs again to other bytes";
        obfr_hex_print("# repacked", (const unsigned char *)out.base, out.used);
    }
    wu_obfr_free(vals, (size_t)n, s->type);
    free(vals);
    wu_buffer_destruct(&in);
    wu_buffer_destruct(&out);
    return why;
}

int main(int argc, char **argv)
{
    char line[65536], name[64];
    int btype = argc == 3 ? atoi(argv[2]) : 0, bad = 0;
    size_t count;
    const obfr_sample_t *s = obfr_samples(&count);

    if ((WU_OBFR_NON_DESC != btype && WU_OBFR_FULLY_DESC != btype) ||
        (0 != strcmp(argv[1], "pack") && 0 != strcmp(argv[1], "check"))) {
        fprintf(stderr, "usage: obfr_ours pack|check 1|2\n");
        return 2;
    }
    if (0 == strcmp(argv[1], "pack")) {
        for (size_t i = 0; i < count; i++) {
            wu_buffer_t b;
            int rc;
            wu_buffer_construct(&b);
            rc = wu_obfr_pack(&b, btype, s[i].data, s[i].n, s[i].type);
            if (PMIX_SUCCESS == rc) {
                obfr_hex_print(s[i].name, (const unsigned char *)b.base, b.used);
            } else {
                printf("%s ERROR %s\n", s[i].name, PMIx_Error_string(rc));
                bad = 1;
            }
            wu_buffer_destruct(&b);
        }
        return bad;
    }
    while (NULL != fgets(line, sizeof(line), stdin)) {
        const obfr_sample_t *smp;
        unsigned char *bytes = NULL;
        const char *why;
        size_t len = 0;

        if (!obfr_hex_parse(line, name, sizeof(name), &bytes, &len)) {
            continue;
        }
        if (NULL == (smp = obfr_sample_find(name))) {
            why = "no such sample";
        } else {
            why = check_one(smp, btype, bytes, len);
        }
        if (NULL == why) {
            printf("%s ok\n", name);
        } else {
            printf("%s FAIL: %s\n", name, why);
            bad = 1;
        }
        free(bytes);
    }
    return bad;
}
