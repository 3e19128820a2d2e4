/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_proto.c -- helpers shared by the client and the server for the protocol of wu_proto.h:
 * command names, lists of values and blob records. */
#include "pmix/common/wu_proto.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_value.h"

#include <stdlib.h>
#include <string.h>

const char *wu_proto_cmd_name(int cmd)
{
    static const char *const names[WU_CMD_MAX] = {
        [WU_CMD_CONNECT] = "connect",
        [WU_CMD_FINALIZE] = "finalize",
        [WU_CMD_ABORT] = "abort",
        [WU_CMD_COMMIT] = "commit",
        [WU_CMD_FENCE] = "fence",
        [WU_CMD_GET] = "get",
        [WU_CMD_JOB_CONTROL] = "job-control",
        [WU_CMD_QUERY] = "query",
        [WU_CMD_LOG] = "log",
        [WU_CMD_NOTIFY] = "notify",
        [WU_CMD_PUBLISH] = "publish",
        [WU_CMD_LOOKUP] = "lookup",
        [WU_CMD_UNPUBLISH] = "unpublish",
        [WU_CMD_CONNECT_PROCS] = "connect-procs",
        [WU_CMD_DISCONNECT_PROCS] = "disconnect-procs",
        [WU_CMD_REGISTER_EVENTS] = "register-events",
        [WU_CMD_SPAWN] = "spawn",
        [WU_CMD_GET_CRED] = "get-credential",
        [WU_CMD_VALIDATE_CRED] = "validate-credential",
        [WU_CMD_GROUP_CONSTRUCT] = "group-construct",
        [WU_CMD_GROUP_DESTRUCT] = "group-destruct",
        [WU_CMD_MONITOR] = "monitor",
    };
    if (cmd <= 0 || cmd >= WU_CMD_MAX || NULL == names[cmd]) {
        return "unknown";
    }
    return names[cmd];
}

int wu_proto_pack_list(wu_buffer_t *b, const void *elems, size_t n, pmix_data_type_t t)
{
    if (n > INT32_MAX) {
        return PMIX_ERR_BAD_PARAM;
    }
    return wu_pack(b, elems, (int32_t)n, t);
}

int wu_proto_unpack_list(wu_buffer_t *b, void **elems, size_t *n, pmix_data_type_t t)
{
    size_t sz = wu_data_elem_size(t);
    int32_t cnt = 0;
    void *arr;
    int rc;

    if (NULL == b || NULL == elems || NULL == n) {
        return PMIX_ERR_BAD_PARAM;
    }
    *elems = NULL;
    *n = 0;
    if (0 == sz) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    /* probe: with room for nothing, wu_unpack reports the count and leaves the cursor */
    rc = wu_unpack(b, NULL, &cnt, t);
    if (PMIX_SUCCESS == rc) {
        return PMIX_SUCCESS; /* an empty list */
    }
    if (PMIX_ERR_UNPACK_INADEQUATE_SPACE != rc) {
        return rc;
    }
    /* every element takes at least one byte on the wire: refuse counts the buffer cannot hold
     * before allocating for them */
    if (cnt <= 0 || (size_t)cnt > wu_buffer_remaining(b)) {
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    arr = calloc((size_t)cnt, sz);
    if (NULL == arr) {
        return PMIX_ERR_NOMEM;
    }
    rc = wu_unpack(b, arr, &cnt, t);
    if (PMIX_SUCCESS != rc) {
        free(arr);
        return rc;
    }
    *elems = arr;
    *n = (size_t)cnt;
    return PMIX_SUCCESS;
}

int wu_proto_blob_add(wu_buffer_t *blob, const pmix_proc_t *proc, const pmix_info_t *info, size_t n)
{
    size_t mark;
    int rc;

    if (NULL == blob || NULL == proc || (0 < n && NULL == info)) {
        return PMIX_ERR_BAD_PARAM;
    }
    mark = blob->used;
    rc = wu_pack(blob, proc, 1, PMIX_PROC);
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_pack_list(blob, info, n, PMIX_INFO);
    }
    if (PMIX_SUCCESS != rc) {
        blob->used = mark; /* a record is added whole or not at all */
    }
    return rc;
}

int wu_proto_blob_next(wu_buffer_t *blob, pmix_proc_t *proc, pmix_info_t **info, size_t *n)
{
    size_t mark;
    int32_t one = 1;
    void *arr = NULL;
    int rc;

    if (NULL == blob || NULL == proc || NULL == info || NULL == n) {
        return PMIX_ERR_BAD_PARAM;
    }
    *info = NULL;
    *n = 0;
    if (0 == wu_buffer_remaining(blob)) {
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    mark = blob->rpos;
    rc = wu_unpack(blob, proc, &one, PMIX_PROC);
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_unpack_list(blob, &arr, n, PMIX_INFO);
    }
    if (PMIX_SUCCESS != rc) {
        blob->rpos = mark;
        /* a record cut short is malformed, not the clean end */
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER == rc ? PMIX_ERR_UNPACK_FAILURE : rc;
    }
    *info = arr;
    return PMIX_SUCCESS;
}

int wu_proto_unpack_info_each(wu_buffer_t *b, const pmix_proc_t *proc, wu_proto_info_fn_t fn,
                              void *ctx)
{
    size_t mark;
    int32_t cnt = 0;
    int rc;

    if (NULL == b) {
        return PMIX_ERR_BAD_PARAM;
    }
    mark = b->rpos;
    if (PMIX_SUCCESS != (rc = wu_unpack_group(b, &cnt, PMIX_INFO))) {
        return rc;
    }
    for (int32_t i = 0; i < cnt; i++) {
        pmix_info_t info;
        memset(&info, 0, sizeof info);
        if (PMIX_SUCCESS != (rc = wu_unpack_one(b, &info, PMIX_INFO))) {
            b->rpos = mark;
            return rc;
        }
        rc = NULL == fn ? PMIX_SUCCESS : fn(proc, &info, ctx);
        PMIX_INFO_DESTRUCT(&info);
        if (PMIX_SUCCESS != rc) {
            return rc;
        }
    }
    return PMIX_SUCCESS;
}

int wu_proto_blob_next_each(wu_buffer_t *blob, pmix_proc_t *proc, wu_proto_info_fn_t fn, void *ctx)
{
    size_t mark;
    int32_t one = 1;
    int rc;

    if (NULL == blob || NULL == proc) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (0 == wu_buffer_remaining(blob)) {
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    mark = blob->rpos;
    rc = wu_unpack(blob, proc, &one, PMIX_PROC);
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_unpack_info_each(blob, proc, fn, ctx);
    }
    if (PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER == rc) {
        blob->rpos = mark;
        return PMIX_ERR_UNPACK_FAILURE; /* a record cut short is malformed, not the clean end */
    }
    return rc;
}

int wu_proto_list_begin(wu_proto_list_t *l, wu_buffer_t *b)
{
    if (NULL == l || NULL == b) {
        return PMIX_ERR_BAD_PARAM;
    }
    l->b = b;
    l->n = 0;
    return wu_pack_group_begin(b, PMIX_INFO, &l->mark);
}

pmix_status_t wu_proto_list_add(const char *key, const pmix_value_t *val, void *list)
{
    wu_proto_list_t *l = list;
    pmix_info_t info;
    if (NULL == l || NULL == key || NULL == val || strlen(key) > PMIX_MAX_KEYLEN) {
        return PMIX_ERR_BAD_PARAM;
    }
    /* a shallow info around val: packed, never destructed */
    memset(&info, 0, sizeof info);
    PMIX_LOAD_KEY(info.key, key);
    info.value = *val;
    l->n++;
    return wu_pack_one(l->b, &info, PMIX_INFO);
}

int wu_proto_list_end(wu_proto_list_t *l)
{
    return NULL == l ? PMIX_ERR_BAD_PARAM : wu_pack_group_end(l->b, l->mark, l->n);
}
