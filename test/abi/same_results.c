/* SPDX-License-Identifier: BSD-3-Clause */
/* same_results.c -- built against OpenPMIx 4.2's installed headers only; prints what the data
 * helpers do (load, xfer, compare, unload, info lists, pack/unpack round trips, error strings).
 * test/abi/same_results.sh runs it on OpenPMIx's library and on ours and requires identical
 * output. It prints with its own printer, never with library print functions. */
#include <pmix.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void show(const char *what, const pmix_value_t *v);

static void show_array(const pmix_data_array_t *a)
{
    printf("array(type=%u,size=%zu)[", (unsigned)a->type, a->size);
    for (size_t i = 0; i < a->size; i++) {
        pmix_value_t e;
        memset(&e, 0, sizeof e);
        e.type = a->type;
        switch (a->type) {
        case PMIX_INT:
            e.data.integer = ((int *)a->array)[i];
            break;
        case PMIX_STRING:
            e.data.string = ((char **)a->array)[i];
            break;
        case PMIX_PROC:
            e.data.proc = &((pmix_proc_t *)a->array)[i];
            break;
        case PMIX_INFO: {
            pmix_info_t *in = &((pmix_info_t *)a->array)[i];
            printf("{%s:", in->key);
            show(NULL, &in->value);
            printf("}");
            continue;
        }
        default:
            printf("?");
            continue;
        }
        show(NULL, &e);
        printf(",");
    }
    printf("]");
}

static void show(const char *what, const pmix_value_t *v)
{
    if (what) {
        printf("%s: ", what);
    }
    printf("t%u=", (unsigned)v->type);
    switch (v->type) {
    case PMIX_BOOL:
        printf("%d", v->data.flag);
        break;
    case PMIX_BYTE:
        printf("%u", v->data.byte);
        break;
    case PMIX_STRING:
        printf("'%s'", v->data.string ? v->data.string : "(null)");
        break;
    case PMIX_SIZE:
        printf("%zu", v->data.size);
        break;
    case PMIX_PID:
        printf("%d", (int)v->data.pid);
        break;
    case PMIX_INT:
        printf("%d", v->data.integer);
        break;
    case PMIX_INT8:
        printf("%d", v->data.int8);
        break;
    case PMIX_INT16:
        printf("%d", v->data.int16);
        break;
    case PMIX_INT32:
        printf("%" PRId32, v->data.int32);
        break;
    case PMIX_INT64:
        printf("%" PRId64, v->data.int64);
        break;
    case PMIX_UINT:
        printf("%u", v->data.uint);
        break;
    case PMIX_UINT8:
        printf("%u", v->data.uint8);
        break;
    case PMIX_UINT16:
        printf("%u", v->data.uint16);
        break;
    case PMIX_UINT32:
        printf("%" PRIu32, v->data.uint32);
        break;
    case PMIX_UINT64:
        printf("%" PRIu64, v->data.uint64);
        break;
    case PMIX_FLOAT:
        printf("%g", v->data.fval);
        break;
    case PMIX_DOUBLE:
        printf("%g", v->data.dval);
        break;
    case PMIX_TIMEVAL:
        printf("%ld.%06ld", (long)v->data.tv.tv_sec, (long)v->data.tv.tv_usec);
        break;
    case PMIX_TIME:
        printf("%ld", (long)v->data.time);
        break;
    case PMIX_STATUS:
        printf("%d", v->data.status);
        break;
    case PMIX_PROC_RANK:
        printf("%u", v->data.rank);
        break;
    case PMIX_PROC:
        printf("%s:%u", v->data.proc->nspace, v->data.proc->rank);
        break;
    case PMIX_BYTE_OBJECT:
        printf("bo(%zu)", v->data.bo.size);
        for (size_t i = 0; i < v->data.bo.size; i++) {
            printf("%02x", (unsigned char)v->data.bo.bytes[i]);
        }
        break;
    case PMIX_ENVAR:
        printf("env(%s=%s,%c)", v->data.envar.envar, v->data.envar.value, v->data.envar.separator);
        break;
    case PMIX_PERSIST:
        printf("%u", v->data.persist);
        break;
    case PMIX_SCOPE:
        printf("%u", v->data.scope);
        break;
    case PMIX_DATA_RANGE:
        printf("%u", v->data.range);
        break;
    case PMIX_PROC_STATE:
        printf("%u", v->data.state);
        break;
    case PMIX_DATA_ARRAY:
        show_array(v->data.darray);
        break;
    default:
        printf("(unprinted)");
        break;
    }
    if (what) {
        printf("\n");
    }
}

/* One sample of each type: load, xfer, compare with the original, unload, pack/unpack. */
static void exercise(pmix_data_type_t t, const void *data)
{
    pmix_value_t a, b, *c = NULL;
    void *out = NULL;
    size_t sz = 0;
    pmix_status_t rc;
    pmix_data_buffer_t *buf;
    int32_t n = 1;

    PMIX_VALUE_CONSTRUCT(&a);
    PMIX_VALUE_CONSTRUCT(&b);
    rc = PMIx_Value_load(&a, data, t);
    printf("type %s load=%d ", PMIx_Data_type_string(t), rc);
    show("", &a);
    rc = PMIx_Value_xfer(&b, &a);
    printf("  xfer=%d ", rc);
    show("", &b);
    if (PMIX_DATA_ARRAY == t && PMIX_STRING == ((const pmix_data_array_t *)data)->type) {
        printf("  compare=(not compared: OpenPMIx compares string pointers)\n");
    } else {
        printf("  compare=%d\n", PMIx_Value_compare(&a, &b));
    }
    rc = PMIx_Value_unload(&a, &out, &sz);
    printf("  unload=%d size=%zu\n", rc, sz);
    if (PMIX_STRING == t || PMIX_PROC == t || PMIX_DATA_ARRAY == t || PMIX_ENVAR == t) {
        /* unload gave a copy the caller owns (byte objects point into the value) */
        if (PMIX_DATA_ARRAY == t) {
            pmix_data_array_t *arr = out;
            PMIX_DATA_ARRAY_FREE(arr);
        } else if (PMIX_PROC == t) {
            free(out);
        } else if (PMIX_ENVAR == t) {
            pmix_envar_t *env = out; /* (PMIx 5's FREE macros assign NULL to their argument) */
            PMIX_ENVAR_FREE(env, 1);
        } else {
            free(out);
        }
    } else if (PMIX_BYTE_OBJECT != t) {
        free(out);
    }
    PMIX_DATA_BUFFER_CREATE(buf);
    rc = PMIx_Data_pack(NULL, buf, &b, 1, PMIX_VALUE);
    printf("  pack=%d", rc);
    PMIX_VALUE_CREATE(c, 1);
    rc = PMIx_Data_unpack(NULL, buf, c, &n, PMIX_VALUE);
    printf(" unpack=%d n=%d ", rc, n);
    show("", c);
    if (!(PMIX_DATA_ARRAY == t && PMIX_STRING == ((const pmix_data_array_t *)data)->type)) {
        printf("  roundtrip compare=%d\n", PMIx_Value_compare(&b, c));
    }
    PMIX_VALUE_RELEASE(c);
    PMIX_DATA_BUFFER_RELEASE(buf);
    PMIX_VALUE_DESTRUCT(&a);
    PMIX_VALUE_DESTRUCT(&b);
}

int main(void)
{
    pmix_proc_t me, p = {"job.7", 3};
    bool flag = true;
    uint8_t byte = 200;
    char *s = "hello world";
    size_t size = 12345;
    pid_t pid = 4321;
    int i = -17;
    int8_t i8 = -8;
    int16_t i16 = -1600;
    int32_t i32 = -320000;
    int64_t i64 = -6400000000LL;
    unsigned u = 17;
    uint8_t u8 = 8;
    uint16_t u16 = 1600;
    uint32_t u32 = 320000;
    uint64_t u64 = 6400000000ULL;
    float f = 1.5f;
    double d = -2.25;
    struct timeval tv = {12, 345678};
    time_t tm = 1700000000;
    pmix_status_t st = PMIX_ERR_TIMEOUT;
    pmix_rank_t rank = PMIX_RANK_WILDCARD;
    pmix_byte_object_t bo = {"\x01\x02\xff", 3};
    pmix_envar_t env = {"PATH", "/bin", ':'};
    pmix_persistence_t pers = PMIX_PERSIST_SESSION;
    pmix_scope_t scope = PMIX_GLOBAL;
    pmix_data_range_t range = PMIX_RANGE_NAMESPACE;
    pmix_proc_state_t pstate = PMIX_PROC_STATE_RUNNING;
    int ints[3] = {1, -2, 3};
    char *strs[3] = {"a", "bb", NULL};
    pmix_data_array_t da_int = {PMIX_INT, 3, ints}, da_str = {PMIX_STRING, 2, strs};
    pmix_info_t *infos;
    pmix_data_array_t da_info;
    void *list;
    pmix_data_array_t conv;

    /* OpenPMIx wants an Init attempt before packing; without a server both answer an error,
     * which is not compared (ours and theirs differ until issue 4). */
    (void)PMIx_Init(&me, NULL, 0);

    exercise(PMIX_BOOL, &flag);
    exercise(PMIX_BYTE, &byte);
    exercise(PMIX_STRING, s);
    exercise(PMIX_SIZE, &size);
    exercise(PMIX_PID, &pid);
    exercise(PMIX_INT, &i);
    exercise(PMIX_INT8, &i8);
    exercise(PMIX_INT16, &i16);
    exercise(PMIX_INT32, &i32);
    exercise(PMIX_INT64, &i64);
    exercise(PMIX_UINT, &u);
    exercise(PMIX_UINT8, &u8);
    exercise(PMIX_UINT16, &u16);
    exercise(PMIX_UINT32, &u32);
    exercise(PMIX_UINT64, &u64);
    exercise(PMIX_FLOAT, &f);
    exercise(PMIX_DOUBLE, &d);
    exercise(PMIX_TIMEVAL, &tv);
    exercise(PMIX_TIME, &tm);
    exercise(PMIX_STATUS, &st);
    exercise(PMIX_PROC_RANK, &rank);
    exercise(PMIX_PROC, &p);
    exercise(PMIX_BYTE_OBJECT, &bo);
    exercise(PMIX_ENVAR, &env);
    exercise(PMIX_PERSIST, &pers);
    exercise(PMIX_SCOPE, &scope);
    exercise(PMIX_DATA_RANGE, &range);
    exercise(PMIX_PROC_STATE, &pstate);
    exercise(PMIX_DATA_ARRAY, &da_int);
    exercise(PMIX_DATA_ARRAY, &da_str);

    /* infos: load (NULL bool means true), xfer, an array of infos, the info list */
    PMIX_INFO_CREATE(infos, 3);
    PMIx_Info_load(&infos[0], PMIX_TIMEOUT, &i32, PMIX_INT32);
    PMIx_Info_load(&infos[1], PMIX_COLLECT_DATA, NULL, PMIX_BOOL);
    PMIx_Info_load(&infos[2], "my.key", s, PMIX_STRING);
    PMIX_INFO_REQUIRED(&infos[2]);
    for (int k = 0; k < 3; k++) {
        pmix_info_t x;
        PMIX_INFO_CONSTRUCT(&x);
        PMIx_Info_xfer(&x, &infos[k]);
        printf("info %s flags=%u reqd=%d ", x.key, (unsigned)x.flags, PMIX_INFO_IS_REQUIRED(&x));
        show("", &x.value);
        PMIX_INFO_DESTRUCT(&x);
    }
    da_info.type = PMIX_INFO;
    da_info.size = 3;
    da_info.array = infos;
    exercise(PMIX_DATA_ARRAY, &da_info);
    PMIX_INFO_FREE(infos, 3);

    list = PMIx_Info_list_start();
    PMIx_Info_list_add(list, PMIX_NSPACE, "ns", PMIX_STRING);
    PMIx_Info_list_add(list, PMIX_RANK, &u32, PMIX_UINT32);
    printf("list convert=%d\n", PMIx_Info_list_convert(list, &conv));
    printf("converted: ");
    show_array(&conv);
    printf("\n");
    PMIX_DATA_ARRAY_DESTRUCT(&conv);
    PMIx_Info_list_release(list);

    /* strings users print */
    for (int e = 0; e >= -400; e--) {
        printf("err %d %s\n", e, PMIx_Error_string(e));
    }
    for (int k = 0; k <= 70; k++) {
        printf("dt %d %s\n", k, PMIx_Data_type_string((pmix_data_type_t)k));
    }
    printf("scope %s range %s persist %s state %s\n", PMIx_Scope_string(PMIX_LOCAL),
           PMIx_Data_range_string(PMIX_RANGE_SESSION), PMIx_Persistence_string(PMIX_PERSIST_PROC),
           PMIx_Proc_state_string(PMIX_PROC_STATE_TERMINATED));
    printf("attr %s -> %s\n", PMIX_JOB_SIZE, PMIx_Get_attribute_name(PMIX_JOB_SIZE));
    printf("attr %s -> %s\n", "PMIX_JOB_SIZE", PMIx_Get_attribute_string("PMIX_JOB_SIZE"));

    /* the header's argv helpers */
    {
        char **argv = NULL, *joined;
        pmix_argv_append_nosize(&argv, "one");
        pmix_argv_append_nosize(&argv, "two");
        joined = pmix_argv_join(argv, ',');
        printf("argv count=%d joined=%s\n", pmix_argv_count(argv), joined);
        free(joined);
        pmix_argv_free(argv);
    }
    fprintf(stderr, "library: %s\n", PMIx_Get_version());
    return 0;
}
