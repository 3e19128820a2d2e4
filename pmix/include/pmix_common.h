/* SPDX-License-Identifier: BSD-3-Clause */
/* pmix_common.h -- Wireup's PMIx 4.2 common definitions: the types, constants, helper macros and
 * callback types that pmix.h, pmix_server.h and pmix_tool.h share.
 *
 * This header is an ABI contract. Programs compiled against OpenPMIx 4.2's headers run on our
 * libpmix.so.2, so every numeric value, attribute key string and struct layout here equals
 * OpenPMIx 4.2.2's (test/abi checks sizes, offsets and every constant against them). The text is
 * Wireup's own. Layout of the header:
 *   1. limits, ranks, process/job states, status codes, data type codes, small enums
 *   2. attribute keys (pmix_wu_attrs.h)
 *   3. memory/string/argv/env helpers (pmix_wu_helpers.h: static inline, never exported)
 *   4. the public structs, each followed by its STATIC_INIT/CREATE/CONSTRUCT/DESTRUCT/FREE macros
 *   5. callback function types, then pmix_deprecated.h
 * Macros that need library code call the exported PMIx_* functions declared below (implemented in
 * pmix/common). Lowercase pmix_* names appear only as static inline helpers, as in OpenPMIx. */
#ifndef PMIx_COMMON_H
#define PMIx_COMMON_H

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* Marks the library's public entry points; everything else is built -fvisibility=hidden. */
#define PMIX_HAVE_VISIBILITY 1
#define PMIX_EXPORT          __attribute__((visibility("default")))

#include <pmix_version.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ===== 1. Basic limits and identifiers ===== */

/* Longest namespace and key, without the terminating NUL. */
#define PMIX_MAX_NSLEN  255
#define PMIX_MAX_KEYLEN 511

typedef char pmix_nspace_t[PMIX_MAX_NSLEN + 1];
typedef char pmix_key_t[PMIX_MAX_KEYLEN + 1];
typedef uint32_t pmix_rank_t;

/* Special ranks, all at the top of the range: UNDEF (no particular rank / job-level data),
 * WILDCARD (every rank), LOCAL_NODE and LOCAL_PEERS (the procs on this node), INVALID. Real ranks
 * are below PMIX_RANK_VALID. */
#define PMIX_RANK_UNDEF       UINT32_MAX
#define PMIX_RANK_WILDCARD    (UINT32_MAX - 1)
#define PMIX_RANK_LOCAL_NODE  (UINT32_MAX - 2)
#define PMIX_RANK_LOCAL_PEERS (UINT32_MAX - 4)
#define PMIX_RANK_INVALID     (UINT32_MAX - 3)
#define PMIX_RANK_VALID       (UINT32_MAX - 50)
#define PMIX_RANK_IS_VALID(r) ((r) < PMIX_RANK_VALID)

/* App number meaning "every app of the job". */
#define PMIX_APP_WILDCARD UINT32_MAX

/* ===== Process and job states ===== */

/* Values below UNTERMINATED: still alive; at or above ERROR: ended abnormally. */
typedef uint8_t pmix_proc_state_t;
#define PMIX_PROC_STATE_UNDEF                 0
#define PMIX_PROC_STATE_PREPPED               1
#define PMIX_PROC_STATE_LAUNCH_UNDERWAY       2
#define PMIX_PROC_STATE_RESTART               3
#define PMIX_PROC_STATE_TERMINATE             4
#define PMIX_PROC_STATE_RUNNING               5
#define PMIX_PROC_STATE_CONNECTED             6
#define PMIX_PROC_STATE_UNTERMINATED          15
#define PMIX_PROC_STATE_TERMINATED            20
#define PMIX_PROC_STATE_ERROR                 50
#define PMIX_PROC_STATE_KILLED_BY_CMD         (PMIX_PROC_STATE_ERROR + 1)
#define PMIX_PROC_STATE_ABORTED               (PMIX_PROC_STATE_ERROR + 2)
#define PMIX_PROC_STATE_FAILED_TO_START       (PMIX_PROC_STATE_ERROR + 3)
#define PMIX_PROC_STATE_ABORTED_BY_SIG        (PMIX_PROC_STATE_ERROR + 4)
#define PMIX_PROC_STATE_TERM_WO_SYNC          (PMIX_PROC_STATE_ERROR + 5)
#define PMIX_PROC_STATE_COMM_FAILED           (PMIX_PROC_STATE_ERROR + 6)
#define PMIX_PROC_STATE_SENSOR_BOUND_EXCEEDED (PMIX_PROC_STATE_ERROR + 7)
#define PMIX_PROC_STATE_CALLED_ABORT          (PMIX_PROC_STATE_ERROR + 8)
#define PMIX_PROC_STATE_HEARTBEAT_FAILED      (PMIX_PROC_STATE_ERROR + 9)
#define PMIX_PROC_STATE_MIGRATING             (PMIX_PROC_STATE_ERROR + 10)
#define PMIX_PROC_STATE_CANNOT_RESTART        (PMIX_PROC_STATE_ERROR + 11)
#define PMIX_PROC_STATE_TERM_NON_ZERO         (PMIX_PROC_STATE_ERROR + 12)
#define PMIX_PROC_STATE_FAILED_TO_LAUNCH      (PMIX_PROC_STATE_ERROR + 13)

typedef uint8_t pmix_job_state_t;
#define PMIX_JOB_STATE_UNDEF                 0
#define PMIX_JOB_STATE_AWAITING_ALLOC        1
#define PMIX_JOB_STATE_LAUNCH_UNDERWAY       2
#define PMIX_JOB_STATE_RUNNING               3
#define PMIX_JOB_STATE_SUSPENDED             4
#define PMIX_JOB_STATE_CONNECTED             5
#define PMIX_JOB_STATE_UNTERMINATED          15
#define PMIX_JOB_STATE_TERMINATED            20
#define PMIX_JOB_STATE_TERMINATED_WITH_ERROR 50

/* ===== Status codes: 0 is success, errors and events are negative ===== */

typedef int pmix_status_t;

/* general results */
#define PMIX_SUCCESS                            0
#define PMIX_ERROR                              -1
#define PMIX_ERR_PROC_RESTART                   -4
#define PMIX_ERR_PROC_CHECKPOINT                -5
#define PMIX_ERR_PROC_MIGRATE                   -6
#define PMIX_ERR_EXISTS                         -11
#define PMIX_ERR_INVALID_CRED                   -12
#define PMIX_ERR_WOULD_BLOCK                    -15
#define PMIX_ERR_UNKNOWN_DATA_TYPE              -16
#define PMIX_ERR_TYPE_MISMATCH                  -18
#define PMIX_ERR_UNPACK_INADEQUATE_SPACE        -19
#define PMIX_ERR_UNPACK_FAILURE                 -20
#define PMIX_ERR_PACK_FAILURE                   -21
#define PMIX_ERR_NO_PERMISSIONS                 -23
#define PMIX_ERR_TIMEOUT                        -24
#define PMIX_ERR_UNREACH                        -25
#define PMIX_ERR_BAD_PARAM                      -27
#define PMIX_ERR_RESOURCE_BUSY                  -28
#define PMIX_ERR_OUT_OF_RESOURCE                -29
#define PMIX_ERR_INIT                           -31
#define PMIX_ERR_NOMEM                          -32
#define PMIX_ERR_NOT_FOUND                      -46
#define PMIX_ERR_NOT_SUPPORTED                  -47
#define PMIX_ERR_PARAM_VALUE_NOT_SUPPORTED      -59
#define PMIX_ERR_COMM_FAILURE                   -49
#define PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER -50
#define PMIX_ERR_CONFLICTING_CLEANUP_DIRECTIVES -51
#define PMIX_ERR_PARTIAL_SUCCESS                -52
#define PMIX_ERR_DUPLICATE_KEY                  -53
#define PMIX_ERR_EMPTY                          -60
#define PMIX_ERR_LOST_CONNECTION                -61
#define PMIX_ERR_EXISTS_OUTSIDE_SCOPE           -62
/* process sets, debuggers, queries */
#define PMIX_PROCESS_SET_DEFINE    -55
#define PMIX_PROCESS_SET_DELETE    -56
#define PMIX_DEBUGGER_RELEASE      -3
#define PMIX_READY_FOR_DEBUG       -58
#define PMIX_QUERY_PARTIAL_SUCCESS -104
/* job control and monitoring events */
#define PMIX_JCTRL_CHECKPOINT          -106
#define PMIX_JCTRL_CHECKPOINT_COMPLETE -107
#define PMIX_JCTRL_PREEMPT_ALERT       -108
#define PMIX_MONITOR_HEARTBEAT_ALERT   -109
#define PMIX_MONITOR_FILE_ALERT        -110
/* operational events: models, launcher, groups, I/O forwarding, fabrics */
#define PMIX_PROC_TERMINATED              -111
#define PMIX_ERR_EVENT_REGISTRATION       -144
#define PMIX_MODEL_DECLARED               -147
#define PMIX_MODEL_RESOURCES              -151
#define PMIX_OPENMP_PARALLEL_ENTERED      -152
#define PMIX_OPENMP_PARALLEL_EXITED       -153
#define PMIX_LAUNCHER_READY               -155
#define PMIX_OPERATION_IN_PROGRESS        -156
#define PMIX_OPERATION_SUCCEEDED          -157
#define PMIX_ERR_INVALID_OPERATION        -158
#define PMIX_GROUP_INVITED                -159
#define PMIX_GROUP_LEFT                   -160
#define PMIX_GROUP_INVITE_ACCEPTED        -161
#define PMIX_GROUP_INVITE_DECLINED        -162
#define PMIX_GROUP_INVITE_FAILED          -163
#define PMIX_GROUP_MEMBERSHIP_UPDATE      -164
#define PMIX_GROUP_CONSTRUCT_ABORT        -165
#define PMIX_GROUP_CONSTRUCT_COMPLETE     -166
#define PMIX_GROUP_LEADER_SELECTED        -167
#define PMIX_GROUP_LEADER_FAILED          -168
#define PMIX_GROUP_CONTEXT_ID_ASSIGNED    -169
#define PMIX_GROUP_MEMBER_FAILED          -170
#define PMIX_ERR_REPEAT_ATTR_REGISTRATION -171
#define PMIX_ERR_IOF_FAILURE              -172
#define PMIX_ERR_IOF_COMPLETE             -173
#define PMIX_LAUNCH_COMPLETE              -174
#define PMIX_FABRIC_UPDATED               -175
#define PMIX_FABRIC_UPDATE_PENDING        -176
#define PMIX_FABRIC_UPDATE_ENDPOINTS      -113
/* job and session lifecycle */
#define PMIX_ERR_JOB_APP_NOT_EXECUTABLE     -177
#define PMIX_ERR_JOB_NO_EXE_SPECIFIED       -178
#define PMIX_ERR_JOB_FAILED_TO_MAP          -179
#define PMIX_ERR_JOB_CANCELED               -180
#define PMIX_ERR_JOB_FAILED_TO_LAUNCH       -181
#define PMIX_ERR_JOB_ABORTED                -182
#define PMIX_ERR_JOB_KILLED_BY_CMD          -183
#define PMIX_ERR_JOB_ABORTED_BY_SIG         -184
#define PMIX_ERR_JOB_TERM_WO_SYNC           -185
#define PMIX_ERR_JOB_SENSOR_BOUND_EXCEEDED  -186
#define PMIX_ERR_JOB_NON_ZERO_TERM          -187
#define PMIX_ERR_JOB_ALLOC_FAILED           -188
#define PMIX_ERR_JOB_ABORTED_BY_SYS_EVENT   -189
#define PMIX_ERR_JOB_EXE_NOT_FOUND          -190
#define PMIX_ERR_JOB_WDIR_NOT_FOUND         -233
#define PMIX_ERR_JOB_INSUFFICIENT_RESOURCES -234
#define PMIX_ERR_JOB_SYS_OP_FAILED          -235
#define PMIX_EVENT_JOB_START                -191
#define PMIX_EVENT_JOB_END                  -145
#define PMIX_EVENT_SESSION_START            -192
#define PMIX_EVENT_SESSION_END              -193
/* process lifecycle */
#define PMIX_ERR_PROC_REQUESTED_ABORT       -8
#define PMIX_ERR_PROC_TERM_WO_SYNC          -200
#define PMIX_EVENT_PROC_TERMINATED          -201
#define PMIX_ERR_PROC_KILLED_BY_CMD         -400
#define PMIX_ERR_PROC_FAILED_TO_START       -401
#define PMIX_ERR_PROC_ABORTED_BY_SIG        -402
#define PMIX_ERR_PROC_SENSOR_BOUND_EXCEEDED -403
#define PMIX_ERR_EXIT_NONZERO_TERM          -404
/* system events: everything from SYS_BASE down to SYS_OTHER */
#define PMIX_EVENT_SYS_BASE     -230
#define PMIX_EVENT_NODE_DOWN    -231
#define PMIX_EVENT_NODE_OFFLINE -232
#define PMIX_EVENT_SYS_OTHER    -330
#define PMIX_SYSTEM_EVENT(a)    ((a) <= PMIX_EVENT_SYS_BASE && PMIX_EVENT_SYS_OTHER <= (a))
/* what an event handler did with an event */
#define PMIX_EVENT_NO_ACTION_TAKEN      -331
#define PMIX_EVENT_PARTIAL_ACTION_TAKEN -332
#define PMIX_EVENT_ACTION_DEFERRED      -333
#define PMIX_EVENT_ACTION_COMPLETE      -334
/* user-defined codes must be below this base */
#define PMIX_EXTERNAL_ERR_BASE -3000

/* Result of PMIx_Value_compare. */
typedef enum {
    PMIX_EQUAL,
    PMIX_VALUE1_GREATER,
    PMIX_VALUE2_GREATER,
    PMIX_VALUE_TYPE_DIFFERENT,
    PMIX_VALUE_INCOMPATIBLE_OBJECTS,
    PMIX_VALUE_COMPARISON_NOT_AVAIL
} pmix_value_cmp_t;

/* ===== Data type codes (pmix_value_t.type, pmix_data_array_t.type, pack/unpack) ===== */

/* Gaps: 26 (BUFFER), 29 (MODEX) and 44 (INFO_ARRAY) are retired. */
typedef uint16_t pmix_data_type_t;
#define PMIX_UNDEF                  0
#define PMIX_BOOL                   1
#define PMIX_BYTE                   2
#define PMIX_STRING                 3
#define PMIX_SIZE                   4
#define PMIX_PID                    5
#define PMIX_INT                    6
#define PMIX_INT8                   7
#define PMIX_INT16                  8
#define PMIX_INT32                  9
#define PMIX_INT64                  10
#define PMIX_UINT                   11
#define PMIX_UINT8                  12
#define PMIX_UINT16                 13
#define PMIX_UINT32                 14
#define PMIX_UINT64                 15
#define PMIX_FLOAT                  16
#define PMIX_DOUBLE                 17
#define PMIX_TIMEVAL                18
#define PMIX_TIME                   19
#define PMIX_STATUS                 20
#define PMIX_VALUE                  21
#define PMIX_PROC                   22
#define PMIX_APP                    23
#define PMIX_INFO                   24
#define PMIX_PDATA                  25
#define PMIX_BYTE_OBJECT            27
#define PMIX_KVAL                   28
#define PMIX_PERSIST                30
#define PMIX_POINTER                31
#define PMIX_SCOPE                  32
#define PMIX_DATA_RANGE             33
#define PMIX_COMMAND                34
#define PMIX_INFO_DIRECTIVES        35
#define PMIX_DATA_TYPE              36
#define PMIX_PROC_STATE             37
#define PMIX_PROC_INFO              38
#define PMIX_DATA_ARRAY             39
#define PMIX_PROC_RANK              40
#define PMIX_QUERY                  41
#define PMIX_COMPRESSED_STRING      42
#define PMIX_ALLOC_DIRECTIVE        43
#define PMIX_IOF_CHANNEL            45
#define PMIX_ENVAR                  46
#define PMIX_COORD                  47
#define PMIX_REGATTR                48
#define PMIX_REGEX                  49
#define PMIX_JOB_STATE              50
#define PMIX_LINK_STATE             51
#define PMIX_PROC_CPUSET            52
#define PMIX_GEOMETRY               53
#define PMIX_DEVICE_DIST            54
#define PMIX_ENDPOINT               55
#define PMIX_TOPO                   56
#define PMIX_DEVTYPE                57
#define PMIX_LOCTYPE                58
#define PMIX_COMPRESSED_BYTE_OBJECT 59
#define PMIX_PROC_NSPACE            60
#define PMIX_PROC_STATS             61
#define PMIX_DISK_STATS             62
#define PMIX_NET_STATS              63
#define PMIX_NODE_STATS             64
#define PMIX_DATA_BUFFER            65
#define PMIX_STOR_MEDIUM            66
#define PMIX_STOR_ACCESS            67
#define PMIX_STOR_PERSIST           68
#define PMIX_STOR_ACCESS_TYPE       69
/* implementations may define their own types above this */
#define PMIX_DATA_TYPE_MAX 500

/* ===== Scope of Put data, range of published data and events, persistence ===== */

typedef uint8_t pmix_scope_t;
#define PMIX_SCOPE_UNDEF 0
#define PMIX_LOCAL       1
#define PMIX_REMOTE      2
#define PMIX_GLOBAL      3
#define PMIX_INTERNAL    4

typedef uint8_t pmix_data_range_t;
#define PMIX_RANGE_UNDEF      0
#define PMIX_RANGE_RM         1
#define PMIX_RANGE_LOCAL      2
#define PMIX_RANGE_NAMESPACE  3
#define PMIX_RANGE_SESSION    4
#define PMIX_RANGE_GLOBAL     5
#define PMIX_RANGE_CUSTOM     6
#define PMIX_RANGE_PROC_LOCAL 7
#define PMIX_RANGE_INVALID    UINT8_MAX

typedef uint8_t pmix_persistence_t;
#define PMIX_PERSIST_INDEF      0
#define PMIX_PERSIST_FIRST_READ 1
#define PMIX_PERSIST_PROC       2
#define PMIX_PERSIST_APP        3
#define PMIX_PERSIST_SESSION    4
#define PMIX_PERSIST_INVALID    UINT8_MAX

/* ===== pmix_info_t.flags: directive bits ===== */

/* The upper 16 bits (PMIX_INFO_DIR_RESERVED) are for the implementation's own use. */
typedef uint32_t pmix_info_directives_t;
#define PMIX_INFO_REQD           0x00000001
#define PMIX_INFO_ARRAY_END      0x00000002
#define PMIX_INFO_REQD_PROCESSED 0x00000004
#define PMIX_INFO_QUALIFIER      0x00000008
#define PMIX_INFO_PERSISTENT     0x00000010
#define PMIX_INFO_DIR_RESERVED   0xffff0000

/* ===== Allocation requests ===== */

/* Values from PMIX_ALLOC_EXTERNAL up are for implementations. */
typedef uint8_t pmix_alloc_directive_t;
#define PMIX_ALLOC_NEW        1
#define PMIX_ALLOC_EXTEND     2
#define PMIX_ALLOC_RELEASE    3
#define PMIX_ALLOC_REAQUIRE   4
#define PMIX_ALLOC_REQ_CANCEL 5 /* PMIx 5: cancel the indicated allocation request */
#define PMIX_ALLOC_EXTERNAL   128

/* ===== I/O forwarding channels (bit mask) ===== */

typedef uint16_t pmix_iof_channel_t;
#define PMIX_FWD_NO_CHANNELS     0x0000
#define PMIX_FWD_STDIN_CHANNEL   0x0001
#define PMIX_FWD_STDOUT_CHANNEL  0x0002
#define PMIX_FWD_STDERR_CHANNEL  0x0004
#define PMIX_FWD_STDDIAG_CHANNEL 0x0008
#define PMIX_FWD_ALL_CHANNELS    0x00ff

/* ===== Groups ===== */

/* Answer to a group invitation (PMIx_Group_join). */
typedef enum { PMIX_GROUP_DECLINE, PMIX_GROUP_ACCEPT } pmix_group_opt_t;

typedef enum { PMIX_GROUP_CONSTRUCT, PMIX_GROUP_DESTRUCT, PMIX_GROUP_NONE } pmix_group_operation_t;

/* ===== Storage systems (bit masks) ===== */

typedef uint64_t pmix_storage_medium_t;
#define PMIX_STORAGE_MEDIUM_UNKNOWN 0x0000000000000001
#define PMIX_STORAGE_MEDIUM_TAPE    0x0000000000000002
#define PMIX_STORAGE_MEDIUM_HDD     0x0000000000000004
#define PMIX_STORAGE_MEDIUM_SSD     0x0000000000000008
#define PMIX_STORAGE_MEDIUM_NVME    0x0000000000000010
#define PMIX_STORAGE_MEDIUM_PMEM    0x0000000000000020
#define PMIX_STORAGE_MEDIUM_RAM     0x0000000000000040

typedef uint64_t pmix_storage_accessibility_t;
#define PMIX_STORAGE_ACCESSIBILITY_NODE    0x0000000000000001
#define PMIX_STORAGE_ACCESSIBILITY_SESSION 0x0000000000000002
#define PMIX_STORAGE_ACCESSIBILITY_JOB     0x0000000000000004
#define PMIX_STORAGE_ACCESSIBILITY_RACK    0x0000000000000008
#define PMIX_STORAGE_ACCESSIBILITY_CLUSTER 0x0000000000000010
#define PMIX_STORAGE_ACCESSIBILITY_REMOTE  0x0000000000000020

typedef uint64_t pmix_storage_persistence_t;
#define PMIX_STORAGE_PERSISTENCE_TEMPORARY 0x0000000000000001
#define PMIX_STORAGE_PERSISTENCE_NODE      0x0000000000000002
#define PMIX_STORAGE_PERSISTENCE_SESSION   0x0000000000000004
#define PMIX_STORAGE_PERSISTENCE_JOB       0x0000000000000008
#define PMIX_STORAGE_PERSISTENCE_SCRATCH   0x0000000000000010
#define PMIX_STORAGE_PERSISTENCE_PROJECT   0x0000000000000020
#define PMIX_STORAGE_PERSISTENCE_ARCHIVE   0x0000000000000040

typedef uint16_t pmix_storage_access_type_t;
#define PMIX_STORAGE_ACCESS_RD   0x0001
#define PMIX_STORAGE_ACCESS_WR   0x0002
#define PMIX_STORAGE_ACCESS_RDWR 0x0003

/* ===== Coordinates, links, binding, locality, devices ===== */

typedef uint8_t pmix_coord_view_t;
#define PMIX_COORD_VIEW_UNDEF    0x00
#define PMIX_COORD_LOGICAL_VIEW  0x01
#define PMIX_COORD_PHYSICAL_VIEW 0x02

typedef uint8_t pmix_link_state_t;
#define PMIX_LINK_STATE_UNKNOWN 0
#define PMIX_LINK_DOWN          1
#define PMIX_LINK_UP            2

/* Whether a cpuset was requested for the whole process or the calling thread. */
typedef uint8_t pmix_bind_envelope_t;
#define PMIX_CPUBIND_PROCESS 0
#define PMIX_CPUBIND_THREAD  1

/* Relative locality of two processes (bit mask of what they share). */
typedef uint16_t pmix_locality_t;
#define PMIX_LOCALITY_UNKNOWN        0x0000
#define PMIX_LOCALITY_NONLOCAL       0x8000
#define PMIX_LOCALITY_SHARE_HWTHREAD 0x0001
#define PMIX_LOCALITY_SHARE_CORE     0x0002
#define PMIX_LOCALITY_SHARE_L1CACHE  0x0004
#define PMIX_LOCALITY_SHARE_L2CACHE  0x0008
#define PMIX_LOCALITY_SHARE_L3CACHE  0x0010
#define PMIX_LOCALITY_SHARE_PACKAGE  0x0020
#define PMIX_LOCALITY_SHARE_NUMA     0x0040
#define PMIX_LOCALITY_SHARE_NODE     0x4000

typedef uint64_t pmix_device_type_t;
#define PMIX_DEVTYPE_UNKNOWN     0x00
#define PMIX_DEVTYPE_BLOCK       0x01
#define PMIX_DEVTYPE_GPU         0x02
#define PMIX_DEVTYPE_NETWORK     0x04
#define PMIX_DEVTYPE_OPENFABRICS 0x08
#define PMIX_DEVTYPE_DMA         0x10
#define PMIX_DEVTYPE_COPROC      0x20

#ifdef __cplusplus
}
#endif

/* ===== 2. Attribute keys ===== */
#include <pmix_wu_attrs.h>

/* ===== 3. Inline helpers (pmix_malloc, pmix_strncpy, pmix_argv_*, pmix_setenv, ...) ===== */
#include <pmix_wu_helpers.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ===== 4. Public structs and their helper macros ===== */

/* Helpers shared by the CREATE/FREE macros below (not part of the PMIx API). ALLOC gives n zeroed
 * elements of type t, or NULL when n is 0 or memory is short. */
#define WU_PMIX_ALLOC(m, n, t)                      \
    do {                                            \
        if (0 == (n)) {                             \
            (m) = NULL;                             \
        } else {                                    \
            (m) = (t *)pmix_calloc((n), sizeof(t)); \
        }                                           \
    } while (0)
/* Destructs the first n elements of array m with DESTRUCT, then frees m (m may be NULL). */
#define WU_PMIX_DESTRUCT_FREE(m, n, DESTRUCT)                      \
    do {                                                           \
        if (NULL != (m)) {                                         \
            for (size_t wu_k_ = 0; wu_k_ < (size_t)(n); wu_k_++) { \
                DESTRUCT(&(m)[wu_k_]);                             \
            }                                                      \
            pmix_free((void *)(m));                                \
        }                                                          \
    } while (0)

/* --- pmix_coord_t: a point in a fabric's coordinate system --- */
typedef struct pmix_coord {
    pmix_coord_view_t view;
    uint32_t *coord; /* dims entries */
    size_t dims;
} pmix_coord_t;

#define PMIX_COORD_STATIC_INIT                                  \
    {                                                           \
        .view = PMIX_COORD_VIEW_UNDEF, .coord = NULL, .dims = 0 \
    }
/* d coordinates of n dimensions each, zeroed. */
#define PMIX_COORD_CREATE(m, d, n)                                                     \
    do {                                                                               \
        WU_PMIX_ALLOC((m), (d), pmix_coord_t);                                         \
        if (NULL != (m)) {                                                             \
            for (size_t wu_c_ = 0; wu_c_ < (size_t)(d); wu_c_++) {                     \
                (m)[wu_c_].dims = (n);                                                 \
                if (0 < (n)) {                                                         \
                    (m)[wu_c_].coord = (uint32_t *)pmix_calloc((n), sizeof(uint32_t)); \
                }                                                                      \
            }                                                                          \
        }                                                                              \
    } while (0)
#define PMIX_COORD_CONSTRUCT(m)            \
    do {                                   \
        (m)->view = PMIX_COORD_VIEW_UNDEF; \
        (m)->coord = NULL;                 \
        (m)->dims = 0;                     \
    } while (0)
#define PMIX_COORD_DESTRUCT(m)             \
    do {                                   \
        (m)->view = PMIX_COORD_VIEW_UNDEF; \
        if (NULL != (m)->coord) {          \
            pmix_free((m)->coord);         \
            (m)->coord = NULL;             \
            (m)->dims = 0;                 \
        }                                  \
    } while (0)
#define PMIX_COORD_FREE(m, n)                                 \
    do {                                                      \
        WU_PMIX_DESTRUCT_FREE((m), (n), PMIX_COORD_DESTRUCT); \
        (m) = NULL;                                           \
    } while (0)

/* --- pmix_cpuset_t and pmix_topology_t: opaque hwloc objects tagged with their source --- */
typedef struct {
    char *source; /* e.g. "hwloc" */
    void *bitmap;
} pmix_cpuset_t;

#define PMIX_CPUSET_STATIC_INIT        \
    {                                  \
        .source = NULL, .bitmap = NULL \
    }
#define PMIX_CPUSET_CONSTRUCT(m) memset((m), 0, sizeof(pmix_cpuset_t))
#define PMIX_CPUSET_CREATE(m, n) WU_PMIX_ALLOC((m), (n), pmix_cpuset_t)

typedef struct {
    char *source;
    void *topology;
} pmix_topology_t;

#define PMIX_TOPOLOGY_STATIC_INIT        \
    {                                    \
        .source = NULL, .topology = NULL \
    }
#define PMIX_TOPOLOGY_CONSTRUCT(m) memset((m), 0, sizeof(pmix_topology_t))
#define PMIX_TOPOLOGY_CREATE(m, n) WU_PMIX_ALLOC((m), (n), pmix_topology_t)

/* --- pmix_geometry_t: where a device sits in a fabric --- */
typedef struct pmix_geometry {
    size_t fabric;
    char *uuid;
    char *osname;
    pmix_coord_t *coordinates;
    size_t ncoords;
} pmix_geometry_t;

#define PMIX_GEOMETRY_STATIC_INIT                                                    \
    {                                                                                \
        .fabric = 0, .uuid = NULL, .osname = NULL, .coordinates = NULL, .ncoords = 0 \
    }
#define PMIX_GEOMETRY_CONSTRUCT(m) memset((m), 0, sizeof(pmix_geometry_t))
#define PMIX_GEOMETRY_DESTRUCT(m)                            \
    do {                                                     \
        pmix_free((m)->uuid);                                \
        (m)->uuid = NULL;                                    \
        pmix_free((m)->osname);                              \
        (m)->osname = NULL;                                  \
        if (NULL != (m)->coordinates) {                      \
            PMIX_COORD_FREE((m)->coordinates, (m)->ncoords); \
        }                                                    \
    } while (0)
#define PMIX_GEOMETRY_CREATE(m, n) WU_PMIX_ALLOC((m), (n), pmix_geometry_t)
/* (an explicit loop: the destructor itself uses WU_PMIX_DESTRUCT_FREE) */
#define PMIX_GEOMETRY_FREE(m, n)                                   \
    do {                                                           \
        if (NULL != (m)) {                                         \
            for (size_t wu_g_ = 0; wu_g_ < (size_t)(n); wu_g_++) { \
                PMIX_GEOMETRY_DESTRUCT(&(m)[wu_g_]);               \
            }                                                      \
            pmix_free((m));                                        \
        }                                                          \
        (m) = NULL;                                                \
    } while (0)

/* --- pmix_device_distance_t: min/max distance from a process to a device --- */
typedef struct pmix_device_distance {
    char *uuid;
    char *osname;
    pmix_device_type_t type;
    uint16_t mindist;
    uint16_t maxdist;
} pmix_device_distance_t;

#define PMIX_DEVICE_DIST_STATIC_INIT                                                           \
    {                                                                                          \
        .uuid = NULL, .osname = NULL, .type = PMIX_DEVTYPE_UNKNOWN, .mindist = 0, .maxdist = 0 \
    }
/* An unknown distance is UINT16_MAX. */
#define PMIX_DEVICE_DIST_CONSTRUCT(m)                   \
    do {                                                \
        memset((m), 0, sizeof(pmix_device_distance_t)); \
        (m)->mindist = UINT16_MAX;                      \
        (m)->maxdist = UINT16_MAX;                      \
    } while (0)
#define PMIX_DEVICE_DIST_DESTRUCT(m) \
    do {                             \
        pmix_free((m)->uuid);        \
        pmix_free((m)->osname);      \
    } while (0)
#define PMIX_DEVICE_DIST_CREATE(m, n)                              \
    do {                                                           \
        WU_PMIX_ALLOC((m), (n), pmix_device_distance_t);           \
        if (NULL != (m)) {                                         \
            for (size_t wu_d_ = 0; wu_d_ < (size_t)(n); wu_d_++) { \
                (m)[wu_d_].mindist = UINT16_MAX;                   \
                (m)[wu_d_].maxdist = UINT16_MAX;                   \
            }                                                      \
        }                                                          \
    } while (0)
#define PMIX_DEVICE_DIST_FREE(m, n)                                 \
    do {                                                            \
        WU_PMIX_DESTRUCT_FREE((m), (n), PMIX_DEVICE_DIST_DESTRUCT); \
        (m) = NULL;                                                 \
    } while (0)

/* --- pmix_byte_object_t: a counted blob --- */
typedef struct pmix_byte_object {
    char *bytes;
    size_t size;
} pmix_byte_object_t;

#define PMIX_BYTE_OBJECT_STATIC_INIT \
    {                                \
        .bytes = NULL, .size = 0     \
    }
#define PMIX_BYTE_OBJECT_CREATE(m, n) WU_PMIX_ALLOC((m), (n), pmix_byte_object_t)
#define PMIX_BYTE_OBJECT_CONSTRUCT(m) \
    do {                              \
        (m)->bytes = NULL;            \
        (m)->size = 0;                \
    } while (0)
#define PMIX_BYTE_OBJECT_DESTRUCT(m) \
    do {                             \
        pmix_free((m)->bytes);       \
        (m)->bytes = NULL;           \
        (m)->size = 0;               \
    } while (0)
#define PMIX_BYTE_OBJECT_FREE(m, n)                                 \
    do {                                                            \
        WU_PMIX_DESTRUCT_FREE((m), (n), PMIX_BYTE_OBJECT_DESTRUCT); \
        (m) = NULL;                                                 \
    } while (0)
/* Hands the buffer d of s bytes to the object b; d becomes NULL and s 0. */
#define PMIX_BYTE_OBJECT_LOAD(b, d, s) \
    do {                               \
        (b)->bytes = (char *)(d);      \
        (b)->size = (s);               \
        (d) = NULL;                    \
        (s) = 0;                       \
    } while (0)

/* --- pmix_endpoint_t: a device's fabric address --- */
typedef struct pmix_endpoint {
    char *uuid;
    char *osname;
    pmix_byte_object_t endpt;
} pmix_endpoint_t;

#define PMIX_ENDPOINT_STATIC_INIT                                           \
    {                                                                       \
        .uuid = NULL, .osname = NULL, .endpt = PMIX_BYTE_OBJECT_STATIC_INIT \
    }
#define PMIX_ENDPOINT_CONSTRUCT(m) memset((m), 0, sizeof(pmix_endpoint_t))
#define PMIX_ENDPOINT_DESTRUCT(m)    \
    do {                             \
        pmix_free((m)->uuid);        \
        pmix_free((m)->osname);      \
        pmix_free((m)->endpt.bytes); \
    } while (0)
#define PMIX_ENDPOINT_CREATE(m, n) WU_PMIX_ALLOC((m), (n), pmix_endpoint_t)
#define PMIX_ENDPOINT_FREE(m, n)                                 \
    do {                                                         \
        WU_PMIX_DESTRUCT_FREE((m), (n), PMIX_ENDPOINT_DESTRUCT); \
        (m) = NULL;                                              \
    } while (0)

/* --- pmix_envar_t: an environment variable operation (set/add/prepend/append) --- */
typedef struct {
    char *envar;
    char *value;
    char separator; /* list separator for prepend/append */
} pmix_envar_t;

#define PMIX_ENVAR_STATIC_INIT                          \
    {                                                   \
        .envar = NULL, .value = NULL, .separator = '\0' \
    }
#define PMIX_ENVAR_CREATE(m, n) WU_PMIX_ALLOC((m), (n), pmix_envar_t)
#define PMIX_ENVAR_FREE(m, n)   WU_PMIX_DESTRUCT_FREE((m), (n), PMIX_ENVAR_DESTRUCT)
#define PMIX_ENVAR_CONSTRUCT(m) \
    do {                        \
        (m)->envar = NULL;      \
        (m)->value = NULL;      \
        (m)->separator = '\0';  \
    } while (0)
#define PMIX_ENVAR_DESTRUCT(m) \
    do {                       \
        pmix_free((m)->envar); \
        (m)->envar = NULL;     \
        pmix_free((m)->value); \
        (m)->value = NULL;     \
    } while (0)
/* Copies the strings e and v (NULL leaves the field untouched). */
#define PMIX_ENVAR_LOAD(m, e, v, s) \
    do {                            \
        if (NULL != (e)) {          \
            (m)->envar = strdup(e); \
        }                           \
        if (NULL != (v)) {          \
            (m)->value = strdup(v); \
        }                           \
        (m)->separator = (s);       \
    } while (0)

/* --- pmix_proc_t: a process name (namespace, rank) --- */
typedef struct pmix_proc {
    pmix_nspace_t nspace;
    pmix_rank_t rank;
} pmix_proc_t;

#define PMIX_PROC_STATIC_INIT                  \
    {                                          \
        .nspace = {0}, .rank = PMIX_RANK_UNDEF \
    }
#define PMIX_PROC_CREATE(m, n) WU_PMIX_ALLOC((m), (n), pmix_proc_t)
#define PMIX_PROC_CONSTRUCT(m) memset((m), 0, sizeof(pmix_proc_t))
#define PMIX_PROC_DESTRUCT(m)
#define PMIX_PROC_RELEASE(m) \
    do {                     \
        pmix_free((m));      \
        (m) = NULL;          \
    } while (0)
#define PMIX_PROC_FREE(m, n) PMIX_PROC_RELEASE(m)
#define PMIX_PROC_LOAD(m, n, r)                                 \
    do {                                                        \
        PMIX_PROC_CONSTRUCT(m);                                 \
        pmix_strncpy((char *)(m)->nspace, (n), PMIX_MAX_NSLEN); \
        (m)->rank = (r);                                        \
    } while (0)

/* Namespace, key and proc-id helpers. A NULL or empty namespace matches any namespace, and
 * PMIX_RANK_WILDCARD matches any rank. */
#define PMIX_CHECK_KEY(a, b)       (0 == strncmp((a)->key, (b), PMIX_MAX_KEYLEN))
#define PMIX_CHECK_RESERVED_KEY(a) (0 == strncmp((a), "pmix", 4))
#define PMIX_LOAD_KEY(a, b)                                                \
    do {                                                                   \
        memset((a), 0, PMIX_MAX_KEYLEN + 1);                               \
        if (NULL != (b)) {                                                 \
            pmix_strncpy((char *)(a), (const char *)(b), PMIX_MAX_KEYLEN); \
        }                                                                  \
    } while (0)
#define PMIX_LOAD_NSPACE(a, b)                                            \
    do {                                                                  \
        memset((a), 0, PMIX_MAX_NSLEN + 1);                               \
        if (NULL != (b)) {                                                \
            pmix_strncpy((char *)(a), (const char *)(b), PMIX_MAX_NSLEN); \
        }                                                                 \
    } while (0)
#define PMIX_NSPACE_INVALID(a) (NULL == (a) || 0 == pmix_nslen((a)))
#define PMIX_CHECK_NSPACE(a, b) \
    (PMIX_NSPACE_INVALID((a)) || PMIX_NSPACE_INVALID((b)) || 0 == strncmp((a), (b), PMIX_MAX_NSLEN))
#define PMIX_CHECK_RANK(a, b) ((a) == (b) || PMIX_RANK_WILDCARD == (a) || PMIX_RANK_WILDCARD == (b))
#define PMIX_LOAD_PROCID(a, b, c)           \
    do {                                    \
        PMIX_LOAD_NSPACE((a)->nspace, (b)); \
        (a)->rank = (c);                    \
    } while (0)
#define PMIX_XFER_PROCID(a, b) memcpy((a), (b), sizeof(pmix_proc_t))
#define PMIX_PROCID_XFER(a, b) PMIX_XFER_PROCID(a, b)
#define PMIX_CHECK_PROCID(a, b) \
    (PMIX_CHECK_NSPACE((a)->nspace, (b)->nspace) && PMIX_CHECK_RANK((a)->rank, (b)->rank))
#define PMIX_PROCID_INVALID(a) (PMIX_NSPACE_INVALID((a)->nspace) || PMIX_RANK_INVALID == (a)->rank)

/* Multi-cluster namespaces are "cluster:nspace". CONSTRUCT writes t only when both parts fit
 * (t is zeroed otherwise); PARSE splits t into c and n (which the caller zeroes beforehand). */
#define PMIX_MULTICLUSTER_NSPACE_CONSTRUCT(t, c, n)                               \
    do {                                                                          \
        size_t wu_cl_ = pmix_nslen((c));                                          \
        memset((t), 0, PMIX_MAX_NSLEN + 1);                                       \
        if (wu_cl_ + pmix_nslen((n)) < PMIX_MAX_NSLEN) {                          \
            pmix_strncpy((char *)(t), (c), PMIX_MAX_NSLEN);                       \
            (t)[wu_cl_] = ':';                                                    \
            pmix_strncpy((char *)&(t)[wu_cl_ + 1], (n), PMIX_MAX_NSLEN - wu_cl_); \
        }                                                                         \
    } while (0)
#define PMIX_MULTICLUSTER_NSPACE_PARSE(t, c, n)                                      \
    do {                                                                             \
        size_t wu_p_ = 0, wu_q_ = 0;                                                 \
        while (wu_p_ <= PMIX_MAX_NSLEN && '\0' != (t)[wu_p_] && ':' != (t)[wu_p_]) { \
            (c)[wu_p_] = (t)[wu_p_];                                                 \
            wu_p_++;                                                                 \
        }                                                                            \
        for (wu_p_++; wu_p_ <= PMIX_MAX_NSLEN && '\0' != (t)[wu_p_]; wu_p_++) {      \
            (n)[wu_q_++] = (t)[wu_p_];                                               \
        }                                                                            \
    } while (0)

/* --- pmix_proc_info_t: what a process table entry says about one process --- */
typedef struct pmix_proc_info {
    pmix_proc_t proc;
    char *hostname;
    char *executable_name;
    pid_t pid;
    int exit_code;
    pmix_proc_state_t state;
} pmix_proc_info_t;

#define PMIX_PROC_INFO_STATIC_INIT                                                          \
    {                                                                                       \
        .proc = PMIX_PROC_STATIC_INIT, .hostname = NULL, .executable_name = NULL, .pid = 0, \
        .exit_code = 0, .state = PMIX_PROC_STATE_UNDEF                                      \
    }
#define PMIX_PROC_INFO_CREATE(m, n) WU_PMIX_ALLOC((m), (n), pmix_proc_info_t)
#define PMIX_PROC_INFO_CONSTRUCT(m) memset((m), 0, sizeof(pmix_proc_info_t))
#define PMIX_PROC_INFO_DESTRUCT(m)       \
    do {                                 \
        pmix_free((m)->hostname);        \
        (m)->hostname = NULL;            \
        pmix_free((m)->executable_name); \
        (m)->executable_name = NULL;     \
    } while (0)
#define PMIX_PROC_INFO_FREE(m, n) WU_PMIX_DESTRUCT_FREE((m), (n), PMIX_PROC_INFO_DESTRUCT)
#define PMIX_PROC_INFO_RELEASE(m) PMIX_PROC_INFO_FREE((m), 1)

/* --- pmix_data_array_t: a typed array (type is a PMIx data type code) --- */
typedef struct pmix_data_array {
    pmix_data_type_t type;
    size_t size;
    void *array;
} pmix_data_array_t;

#define PMIX_DATA_ARRAY_STATIC_INIT                  \
    {                                                \
        .type = PMIX_UNDEF, .size = 0, .array = NULL \
    }

/* --- pmix_data_buffer_t: a pack/unpack buffer (PMIx_Data_pack and friends) --- */
typedef struct pmix_data_buffer {
    char *base_ptr;         /* start of the allocation */
    char *pack_ptr;         /* where the next pack writes */
    char *unpack_ptr;       /* where the next unpack reads */
    size_t bytes_allocated; /* size of the allocation */
    size_t bytes_used;      /* bytes packed so far */
} pmix_data_buffer_t;

#define PMIX_DATA_BUFFER_STATIC_INIT                                                  \
    {                                                                                 \
        .base_ptr = NULL, .pack_ptr = NULL, .unpack_ptr = NULL, .bytes_allocated = 0, \
        .bytes_used = 0                                                               \
    }
#define PMIX_DATA_BUFFER_CREATE(m) \
    (m) = (pmix_data_buffer_t *)pmix_calloc(1, sizeof(pmix_data_buffer_t))
#define PMIX_DATA_BUFFER_CONSTRUCT(m) memset((m), 0, sizeof(pmix_data_buffer_t))
#define PMIX_DATA_BUFFER_DESTRUCT(m)                \
    do {                                            \
        pmix_free((m)->base_ptr);                   \
        memset((m), 0, sizeof(pmix_data_buffer_t)); \
    } while (0)
#define PMIX_DATA_BUFFER_RELEASE(m) \
    do {                            \
        pmix_free((m)->base_ptr);   \
        pmix_free((m));             \
        (m) = NULL;                 \
    } while (0)
/* LOAD gives the s bytes at d to buffer b (PMIx_Data_load takes ownership); UNLOAD takes the
 * buffer's unread bytes out into d/s (NULL/0 on failure). */
#define PMIX_DATA_BUFFER_LOAD(b, d, s) \
    do {                               \
        pmix_byte_object_t wu_bo_;     \
        wu_bo_.bytes = (char *)(d);    \
        wu_bo_.size = (s);             \
        PMIx_Data_load((b), &wu_bo_);  \
    } while (0)
#define PMIX_DATA_BUFFER_UNLOAD(b, d, s)                          \
    do {                                                          \
        pmix_byte_object_t wu_bo_ = PMIX_BYTE_OBJECT_STATIC_INIT; \
        if (PMIX_SUCCESS == PMIx_Data_unload((b), &wu_bo_)) {     \
            (d) = wu_bo_.bytes;                                   \
            (s) = wu_bo_.size;                                    \
        } else {                                                  \
            (d) = NULL;                                           \
            (s) = 0;                                              \
        }                                                         \
    } while (0)

/* --- Statistics: process, disk, network, node (sizes in MBytes) --- */
typedef struct pmix_proc_stats {
    char *node;
    pmix_proc_t proc;
    pid_t pid;
    char *cmd;
    char state;
    struct timeval time;
    float percent_cpu;
    int32_t priority;
    uint16_t num_threads;
    float pss;
    float vsize;
    float rss;
    float peak_vsize;
    uint16_t processor;
    struct timeval sample_time;
} pmix_proc_stats_t;

#define PMIX_PROC_STATS_STATIC_INIT                                                       \
    {                                                                                     \
        .node = NULL, .proc = PMIX_PROC_STATIC_INIT, .pid = 0, .cmd = NULL, .state = '0', \
        .time = {0, 0}, .percent_cpu = 0.0, .priority = 0, .num_threads = 0, .pss = 0.0,  \
        .vsize = 0.0, .rss = 0.0, .peak_vsize = 0.0, .processor = 0, .sample_time = {     \
            0,                                                                            \
            0                                                                             \
        }                                                                                 \
    }
#define PMIX_PROC_STATS_CREATE(m, n) WU_PMIX_ALLOC((m), (n), pmix_proc_stats_t)
#define PMIX_PROC_STATS_CONSTRUCT(m) memset((m), 0, sizeof(pmix_proc_stats_t))
#define PMIX_PROC_STATS_DESTRUCT(m) \
    do {                            \
        pmix_free((m)->node);       \
        (m)->node = NULL;           \
        pmix_free((m)->cmd);        \
        (m)->cmd = NULL;            \
    } while (0)
#define PMIX_PROC_STATS_FREE(m, n)      \
    do {                                \
        pmix_proc_stats_free((m), (n)); \
        pmix_free((m));                 \
        (m) = NULL;                     \
    } while (0)
#define PMIX_PROC_STATS_RELEASE(m) PMIX_PROC_STATS_FREE((m), 1)

/* Destructs (does not free) the n entries of ps. */
static inline void pmix_proc_stats_free(pmix_proc_stats_t *ps, size_t n)
{
    for (size_t k = 0; NULL != ps && k < n; k++) {
        PMIX_PROC_STATS_DESTRUCT(&ps[k]);
    }
}

typedef struct {
    char *disk;
    uint64_t num_reads_completed;
    uint64_t num_reads_merged;
    uint64_t num_sectors_read;
    uint64_t milliseconds_reading;
    uint64_t num_writes_completed;
    uint64_t num_writes_merged;
    uint64_t num_sectors_written;
    uint64_t milliseconds_writing;
    uint64_t num_ios_in_progress;
    uint64_t milliseconds_io;
    uint64_t weighted_milliseconds_io;
} pmix_disk_stats_t;

#define PMIX_DISK_STATS_STATIC_INIT                                                           \
    {                                                                                         \
        .disk = NULL, .num_reads_completed = 0, .num_reads_merged = 0, .num_sectors_read = 0, \
        .milliseconds_reading = 0, .num_writes_completed = 0, .num_writes_merged = 0,         \
        .num_sectors_written = 0, .milliseconds_writing = 0, .num_ios_in_progress = 0,        \
        .milliseconds_io = 0, .weighted_milliseconds_io = 0                                   \
    }
#define PMIX_DISK_STATS_CREATE(m, n) WU_PMIX_ALLOC((m), (n), pmix_disk_stats_t)
#define PMIX_DISK_STATS_CONSTRUCT(m) memset((m), 0, sizeof(pmix_disk_stats_t))
#define PMIX_DISK_STATS_DESTRUCT(m) \
    do {                            \
        pmix_free((m)->disk);       \
        (m)->disk = NULL;           \
    } while (0)
#define PMIX_DISK_STATS_FREE(m, n)      \
    do {                                \
        pmix_disk_stats_free((m), (n)); \
        pmix_free((m));                 \
        (m) = NULL;                     \
    } while (0)
#define PMIX_DISK_STATS_RELEASE(m) PMIX_DISK_STATS_FREE((m), 1)

static inline void pmix_disk_stats_free(pmix_disk_stats_t *d, size_t n)
{
    for (size_t k = 0; NULL != d && k < n; k++) {
        PMIX_DISK_STATS_DESTRUCT(&d[k]);
    }
}

typedef struct {
    char *net_interface;
    uint64_t num_bytes_recvd;
    uint64_t num_packets_recvd;
    uint64_t num_recv_errs;
    uint64_t num_bytes_sent;
    uint64_t num_packets_sent;
    uint64_t num_send_errs;
} pmix_net_stats_t;

#define PMIX_NET_STATS_STATIC_INIT                                                               \
    {                                                                                            \
        .net_interface = NULL, .num_bytes_recvd = 0, .num_packets_recvd = 0, .num_recv_errs = 0, \
        .num_bytes_sent = 0, .num_packets_sent = 0, .num_send_errs = 0                           \
    }
#define PMIX_NET_STATS_CREATE(m, n) WU_PMIX_ALLOC((m), (n), pmix_net_stats_t)
#define PMIX_NET_STATS_CONSTRUCT(m) memset((m), 0, sizeof(pmix_net_stats_t))
#define PMIX_NET_STATS_DESTRUCT(m)     \
    do {                               \
        pmix_free((m)->net_interface); \
        (m)->net_interface = NULL;     \
    } while (0)
#define PMIX_NET_STATS_FREE(m, n)      \
    do {                               \
        pmix_net_stats_free((m), (n)); \
        pmix_free((m));                \
        (m) = NULL;                    \
    } while (0)
#define PMIX_NET_STATS_RELEASE(m) PMIX_NET_STATS_FREE((m), 1)

static inline void pmix_net_stats_free(pmix_net_stats_t *nst, size_t n)
{
    for (size_t k = 0; NULL != nst && k < n; k++) {
        PMIX_NET_STATS_DESTRUCT(&nst[k]);
    }
}

typedef struct {
    char *node;
    float la; /* load averages: 1, 5 and 15 minutes */
    float la5;
    float la15;
    float total_mem;
    float free_mem;
    float buffers;
    float cached;
    float swap_cached;
    float swap_total;
    float swap_free;
    float mapped;
    struct timeval sample_time;
    pmix_disk_stats_t *diskstats;
    size_t ndiskstats;
    pmix_net_stats_t *netstats;
    size_t nnetstats;
} pmix_node_stats_t;

#define PMIX_NODE_STATS_STATIC_INIT                                                             \
    {                                                                                           \
        .node = NULL, .la = 0, .la5 = 0, .la15 = 0, .total_mem = 0.0, .free_mem = 0.0,          \
        .buffers = 0.0, .cached = 0.0, .swap_cached = 0.0, .swap_total = 0.0, .swap_free = 0.0, \
        .mapped = 0.0, .sample_time = {0, 0}, .diskstats = NULL, .ndiskstats = 0,               \
        .netstats = NULL, .nnetstats = 0                                                        \
    }
#define PMIX_NODE_STATS_CREATE(m, n) WU_PMIX_ALLOC((m), (n), pmix_node_stats_t)
#define PMIX_NODE_STATS_CONSTRUCT(m) memset((m), 0, sizeof(pmix_node_stats_t))
#define PMIX_NODE_STATS_DESTRUCT(m)                                \
    do {                                                           \
        pmix_free((m)->node);                                      \
        (m)->node = NULL;                                          \
        if (NULL != (m)->diskstats) {                              \
            PMIX_DISK_STATS_FREE((m)->diskstats, (m)->ndiskstats); \
        }                                                          \
        if (NULL != (m)->netstats) {                               \
            PMIX_NET_STATS_FREE((m)->netstats, (m)->nnetstats);    \
        }                                                          \
    } while (0)
#define PMIX_NODE_STATS_FREE(m, n)      \
    do {                                \
        pmix_node_stats_free((m), (n)); \
        pmix_free((m));                 \
        (m) = NULL;                     \
    } while (0)
/* As in OpenPMIx, RELEASE destructs one entry but does not free it. */
#define PMIX_NODE_STATS_RELEASE(m) pmix_node_stats_free((m), 1)

static inline void pmix_node_stats_free(pmix_node_stats_t *nd, size_t n)
{
    for (size_t k = 0; NULL != nd && k < n; k++) {
        PMIX_NODE_STATS_DESTRUCT(&nd[k]);
    }
}

/* --- pmix_value_t: a typed value; `type` says which union member is valid --- */
typedef struct pmix_value {
    pmix_data_type_t type;
    union {
        bool flag;
        uint8_t byte;
        char *string;
        size_t size;
        pid_t pid;
        int integer;
        int8_t int8;
        int16_t int16;
        int32_t int32;
        int64_t int64;
        unsigned int uint;
        uint8_t uint8;
        uint16_t uint16;
        uint32_t uint32;
        uint64_t uint64;
        float fval;
        double dval;
        struct timeval tv;
        time_t time;
        pmix_status_t status;
        pmix_rank_t rank;
        pmix_nspace_t *nspace;
        pmix_proc_t *proc;
        pmix_byte_object_t bo;
        pmix_persistence_t persist;
        pmix_scope_t scope;
        pmix_data_range_t range;
        pmix_proc_state_t state;
        pmix_proc_info_t *pinfo;
        pmix_data_array_t *darray;
        void *ptr;
        pmix_alloc_directive_t adir;
        pmix_envar_t envar;
        pmix_coord_t *coord;
        pmix_link_state_t linkstate;
        pmix_job_state_t jstate;
        pmix_topology_t *topo;
        pmix_cpuset_t *cpuset;
        pmix_locality_t locality;
        pmix_geometry_t *geometry;
        pmix_device_type_t devtype;
        pmix_device_distance_t *devdist;
        pmix_endpoint_t *endpoint;
        pmix_data_buffer_t *dbuf;
        pmix_proc_stats_t *pstats;
        pmix_disk_stats_t *dkstats;
        pmix_net_stats_t *netstats;
        pmix_node_stats_t *ndstats;
    } data;
} pmix_value_t;

#define PMIX_VALUE_STATIC_INIT               \
    {                                        \
        .type = PMIX_UNDEF, .data.ptr = NULL \
    }
#define PMIX_VALUE_CREATE(m, n) WU_PMIX_ALLOC((m), (n), pmix_value_t)
#define PMIX_VALUE_CONSTRUCT(m)               \
    do {                                      \
        memset((m), 0, sizeof(pmix_value_t)); \
        (m)->type = PMIX_UNDEF;               \
    } while (0)
/* Releases what the value owns (strings, arrays, ...): PMIx_Value_destruct. */
#define PMIX_VALUE_DESTRUCT(m) PMIx_Value_destruct(m)
#define PMIX_VALUE_RELEASE(m)     \
    do {                          \
        PMIX_VALUE_DESTRUCT((m)); \
        pmix_free((m));           \
        (m) = NULL;               \
    } while (0)
#define PMIX_VALUE_FREE(m, n)                                 \
    do {                                                      \
        WU_PMIX_DESTRUCT_FREE((m), (n), PMIX_VALUE_DESTRUCT); \
        (m) = NULL;                                           \
    } while (0)
/* Converts a numeric value m to type t into n; s is PMIX_SUCCESS, or PMIX_ERR_BAD_PARAM when m
 * does not hold a number. */
#define PMIX_VALUE_GET_NUMBER(s, m, n, t) \
    do {                                  \
        (s) = PMIX_SUCCESS;               \
        switch ((m)->type) {              \
        case PMIX_SIZE:                   \
            (n) = (t)((m)->data.size);    \
            break;                        \
        case PMIX_INT:                    \
            (n) = (t)((m)->data.integer); \
            break;                        \
        case PMIX_INT8:                   \
            (n) = (t)((m)->data.int8);    \
            break;                        \
        case PMIX_INT16:                  \
            (n) = (t)((m)->data.int16);   \
            break;                        \
        case PMIX_INT32:                  \
            (n) = (t)((m)->data.int32);   \
            break;                        \
        case PMIX_INT64:                  \
            (n) = (t)((m)->data.int64);   \
            break;                        \
        case PMIX_UINT:                   \
            (n) = (t)((m)->data.uint);    \
            break;                        \
        case PMIX_UINT8:                  \
            (n) = (t)((m)->data.uint8);   \
            break;                        \
        case PMIX_UINT16:                 \
            (n) = (t)((m)->data.uint16);  \
            break;                        \
        case PMIX_UINT32:                 \
            (n) = (t)((m)->data.uint32);  \
            break;                        \
        case PMIX_UINT64:                 \
            (n) = (t)((m)->data.uint64);  \
            break;                        \
        case PMIX_FLOAT:                  \
            (n) = (t)((m)->data.fval);    \
            break;                        \
        case PMIX_DOUBLE:                 \
            (n) = (t)((m)->data.dval);    \
            break;                        \
        case PMIX_PID:                    \
            (n) = (t)((m)->data.pid);     \
            break;                        \
        case PMIX_PROC_RANK:              \
            (n) = (t)((m)->data.rank);    \
            break;                        \
        default:                          \
            (s) = PMIX_ERR_BAD_PARAM;     \
            break;                        \
        }                                 \
    } while (0)

/* --- pmix_info_t: a key, directive flags and a value --- */
typedef struct pmix_info {
    pmix_key_t key;
    pmix_info_directives_t flags;
    pmix_value_t value;
} pmix_info_t;

#define PMIX_INFO_STATIC_INIT                                   \
    {                                                           \
        .key = {0}, .flags = 0, .value = PMIX_VALUE_STATIC_INIT \
    }
#define PMIX_INFO_CONSTRUCT(m)               \
    do {                                     \
        memset((m), 0, sizeof(pmix_info_t)); \
        (m)->value.type = PMIX_UNDEF;        \
    } while (0)
/* n zeroed entries, the last flagged PMIX_INFO_ARRAY_END. */
#define PMIX_INFO_CREATE(m, n)                                       \
    do {                                                             \
        WU_PMIX_ALLOC((m), (n), pmix_info_t);                        \
        if (NULL != (m)) {                                           \
            ((pmix_info_t *)(m))[(n)-1].flags = PMIX_INFO_ARRAY_END; \
        }                                                            \
    } while (0)
/* A persistent info does not own its value: DESTRUCT leaves it alone. */
#define PMIX_INFO_DESTRUCT(m)                 \
    do {                                      \
        if (!PMIX_INFO_IS_PERSISTENT((m))) {  \
            PMIX_VALUE_DESTRUCT(&(m)->value); \
        }                                     \
    } while (0)
#define PMIX_INFO_FREE(m, n)                                 \
    do {                                                     \
        WU_PMIX_DESTRUCT_FREE((m), (n), PMIX_INFO_DESTRUCT); \
        (m) = NULL;                                          \
    } while (0)

/* Flag accessors. */
#define PMIX_INFO_REQUIRED(m)        ((m)->flags |= PMIX_INFO_REQD)
#define PMIX_INFO_OPTIONAL(m)        ((m)->flags &= ~PMIX_INFO_REQD)
#define PMIX_INFO_IS_REQUIRED(m)     ((m)->flags & PMIX_INFO_REQD)
#define PMIX_INFO_IS_OPTIONAL(m)     (!((m)->flags & PMIX_INFO_REQD))
#define PMIX_INFO_PROCESSED(m)       ((m)->flags |= PMIX_INFO_REQD_PROCESSED)
#define PMIX_INFO_WAS_PROCESSED(m)   ((m)->flags & PMIX_INFO_REQD_PROCESSED)
#define PMIX_INFO_SET_END(m)         ((m)->flags |= PMIX_INFO_ARRAY_END)
#define PMIX_INFO_IS_END(m)          ((m)->flags & PMIX_INFO_ARRAY_END)
#define PMIX_INFO_SET_QUALIFIER(i)   ((i)->flags |= PMIX_INFO_QUALIFIER)
#define PMIX_INFO_IS_QUALIFIER(i)    ((i)->flags & PMIX_INFO_QUALIFIER)
#define PMIX_INFO_SET_PERSISTENT(ii) ((ii)->flags |= PMIX_INFO_PERSISTENT)
#define PMIX_INFO_IS_PERSISTENT(ii)  ((ii)->flags & PMIX_INFO_PERSISTENT)

/* Reading a value as a boolean: pmix_check_true() says TRUE for a true bool, an unset (UNDEF)
 * value, a NULL or blank string, a string starting with a non-zero number or with "yes"/"true";
 * FALSE for a false bool or a string starting with 0, "no" or "false"; NON_BOOL otherwise. */
typedef enum { PMIX_BOOL_TRUE, PMIX_BOOL_FALSE, PMIX_NON_BOOL } pmix_boolean_t;

static inline pmix_boolean_t pmix_check_true(const pmix_value_t *value)
{
    const char *s;

    switch (value->type) {
    case PMIX_UNDEF:
        return PMIX_BOOL_TRUE;
    case PMIX_BOOL:
        return value->data.flag ? PMIX_BOOL_TRUE : PMIX_BOOL_FALSE;
    case PMIX_STRING:
        break;
    default:
        return PMIX_NON_BOOL;
    }
    s = value->data.string;
    if (NULL == s) {
        return PMIX_BOOL_TRUE;
    }
    while (isspace((unsigned char)*s)) {
        s++;
    }
    if ('\0' == *s) {
        return PMIX_BOOL_TRUE;
    }
    if (isdigit((unsigned char)*s)) {
        return 0 == atoi(s) ? PMIX_BOOL_FALSE : PMIX_BOOL_TRUE;
    }
    if (0 == strncasecmp(s, "yes", 3) || 0 == strncasecmp(s, "true", 4)) {
        return PMIX_BOOL_TRUE;
    }
    if (0 == strncasecmp(s, "no", 2) || 0 == strncasecmp(s, "false", 5)) {
        return PMIX_BOOL_FALSE;
    }
    return PMIX_NON_BOOL;
}

#define PMIX_CHECK_TRUE(a) (PMIX_BOOL_TRUE == pmix_check_true(a))
#define PMIX_CHECK_BOOL(a) (PMIX_NON_BOOL != pmix_check_true(a))
#define PMIX_INFO_TRUE(m)  (PMIX_BOOL_TRUE == pmix_check_true(&(m)->value))

/* --- pmix_pdata_t: a published datum (who published it, key, value) --- */
typedef struct pmix_pdata {
    pmix_proc_t proc;
    pmix_key_t key;
    pmix_value_t value;
} pmix_pdata_t;

#define PMIX_LOOKUP_STATIC_INIT                                                    \
    {                                                                              \
        .proc = PMIX_PROC_STATIC_INIT, .key = {0}, .value = PMIX_VALUE_STATIC_INIT \
    }
#define PMIX_PDATA_CREATE(m, n) WU_PMIX_ALLOC((m), (n), pmix_pdata_t)
#define PMIX_PDATA_CONSTRUCT(m)               \
    do {                                      \
        memset((m), 0, sizeof(pmix_pdata_t)); \
        (m)->value.type = PMIX_UNDEF;         \
    } while (0)
#define PMIX_PDATA_DESTRUCT(m) PMIX_VALUE_DESTRUCT(&(m)->value)
#define PMIX_PDATA_RELEASE(m)   \
    do {                        \
        PMIX_PDATA_DESTRUCT(m); \
        pmix_free((m));         \
        (m) = NULL;             \
    } while (0)
#define PMIX_PDATA_FREE(m, n)      \
    do {                           \
        pmix_pdata_free((m), (n)); \
        pmix_free((m));            \
        (m) = NULL;                \
    } while (0)

/* --- pmix_app_t: one application of a spawn request --- */
typedef struct pmix_app {
    char *cmd;
    char **argv; /* NULL-terminated */
    char **env;  /* NULL-terminated "NAME=value" */
    char *cwd;
    int maxprocs;
    pmix_info_t *info;
    size_t ninfo;
} pmix_app_t;

#define PMIX_APP_STATIC_INIT                                                              \
    {                                                                                     \
        .cmd = NULL, .argv = NULL, .env = NULL, .cwd = NULL, .maxprocs = 0, .info = NULL, \
        .ninfo = 0                                                                        \
    }
#define PMIX_APP_CREATE(m, n) WU_PMIX_ALLOC((m), (n), pmix_app_t)
#define PMIX_APP_CONSTRUCT(m) memset((m), 0, sizeof(pmix_app_t))
#define PMIX_APP_INFO_CREATE(m, n)               \
    do {                                         \
        (m)->ninfo = (n);                        \
        PMIX_INFO_CREATE((m)->info, (m)->ninfo); \
    } while (0)
#define PMIX_APP_DESTRUCT(m)                       \
    do {                                           \
        pmix_free((m)->cmd);                       \
        (m)->cmd = NULL;                           \
        pmix_argv_free((m)->argv);                 \
        (m)->argv = NULL;                          \
        pmix_argv_free((m)->env);                  \
        (m)->env = NULL;                           \
        pmix_free((m)->cwd);                       \
        (m)->cwd = NULL;                           \
        if (NULL != (m)->info) {                   \
            PMIX_INFO_FREE((m)->info, (m)->ninfo); \
            (m)->ninfo = 0;                        \
        }                                          \
    } while (0)
#define PMIX_APP_RELEASE(m)     \
    do {                        \
        PMIX_APP_DESTRUCT((m)); \
        pmix_free((m));         \
        (m) = NULL;             \
    } while (0)
#define PMIX_APP_FREE(m, n)      \
    do {                         \
        pmix_app_free((m), (n)); \
        pmix_free((m));          \
        (m) = NULL;              \
    } while (0)

/* --- pmix_query_t: keys to query plus qualifiers --- */
typedef struct pmix_query {
    char **keys; /* NULL-terminated */
    pmix_info_t *qualifiers;
    size_t nqual;
} pmix_query_t;

#define PMIX_QUERY_STATIC_INIT                       \
    {                                                \
        .keys = NULL, .qualifiers = NULL, .nqual = 0 \
    }
#define PMIX_QUERY_CREATE(m, n) WU_PMIX_ALLOC((m), (n), pmix_query_t)
#define PMIX_QUERY_CONSTRUCT(m) memset((m), 0, sizeof(pmix_query_t))
#define PMIX_QUERY_QUALIFIERS_CREATE(m, n)             \
    do {                                               \
        (m)->nqual = (n);                              \
        PMIX_INFO_CREATE((m)->qualifiers, (m)->nqual); \
    } while (0)
#define PMIX_QUERY_DESTRUCT(m)                           \
    do {                                                 \
        pmix_argv_free((m)->keys);                       \
        (m)->keys = NULL;                                \
        if (NULL != (m)->qualifiers) {                   \
            PMIX_INFO_FREE((m)->qualifiers, (m)->nqual); \
            (m)->nqual = 0;                              \
        }                                                \
    } while (0)
#define PMIX_QUERY_RELEASE(m)     \
    do {                          \
        PMIX_QUERY_DESTRUCT((m)); \
        pmix_free((m));           \
        (m) = NULL;               \
    } while (0)
/* (an explicit loop: the destructor itself uses WU_PMIX_DESTRUCT_FREE) */
#define PMIX_QUERY_FREE(m, n)                                      \
    do {                                                           \
        if (NULL != (m)) {                                         \
            for (size_t wu_q_ = 0; wu_q_ < (size_t)(n); wu_q_++) { \
                PMIX_QUERY_DESTRUCT(&(m)[wu_q_]);                  \
            }                                                      \
            pmix_free((m));                                        \
        }                                                          \
        (m) = NULL;                                                \
    } while (0)

/* --- pmix_regattr_t: a registered attribute (name, key string, type, description lines) --- */
typedef struct pmix_regattr_t {
    char *name;
    pmix_key_t string;
    pmix_data_type_t type;
    char **description;
} pmix_regattr_t;

#define PMIX_REGATTR_STATIC_INIT                                             \
    {                                                                        \
        .name = NULL, .string = {0}, .type = PMIX_UNDEF, .description = NULL \
    }
#define PMIX_REGATTR_CONSTRUCT(a)                   \
    do {                                            \
        if (NULL != (a)) {                          \
            memset((a), 0, sizeof(pmix_regattr_t)); \
            (a)->type = PMIX_UNDEF;                 \
        }                                           \
    } while (0)
/* Copies name n and key k, sets type t and appends description line v (NULLs are skipped). */
#define PMIX_REGATTR_LOAD(a, n, k, t, v)                           \
    do {                                                           \
        if (NULL != (n)) {                                         \
            (a)->name = strdup((n));                               \
        }                                                          \
        if (NULL != (k)) {                                         \
            PMIX_LOAD_KEY((a)->string, (k));                       \
        }                                                          \
        (a)->type = (t);                                           \
        if (NULL != (v)) {                                         \
            (void)pmix_argv_append_nosize(&(a)->description, (v)); \
        }                                                          \
    } while (0)
#define PMIX_REGATTR_DESTRUCT(a)              \
    do {                                      \
        if (NULL != (a)) {                    \
            pmix_free((a)->name);             \
            pmix_argv_free((a)->description); \
        }                                     \
    } while (0)
#define PMIX_REGATTR_CREATE(m, n) WU_PMIX_ALLOC((m), (n), pmix_regattr_t)
#define PMIX_REGATTR_FREE(m, n)                                                   \
    do {                                                                          \
        WU_PMIX_DESTRUCT_FREE((pmix_regattr_t *)(m), (n), PMIX_REGATTR_DESTRUCT); \
        (m) = NULL;                                                               \
    } while (0)
/* Deep copy of b into a. */
#define PMIX_REGATTR_XFER(a, b)                                  \
    do {                                                         \
        PMIX_REGATTR_CONSTRUCT((a));                             \
        if (NULL != (b)->name) {                                 \
            (a)->name = strdup((b)->name);                       \
        }                                                        \
        PMIX_LOAD_KEY((a)->string, (b)->string);                 \
        (a)->type = (b)->type;                                   \
        if (NULL != (b)->description) {                          \
            (a)->description = pmix_argv_copy((b)->description); \
        }                                                        \
    } while (0)

/* --- pmix_fabric_t: a handle on a fabric (PMIx_Fabric_register) --- */
typedef struct pmix_fabric_s {
    char *name;
    size_t index;
    pmix_info_t *info;
    size_t ninfo;
    void *module; /* the implementation's own */
} pmix_fabric_t;

#define PMIX_FABRIC_STATIC_INIT                                            \
    {                                                                      \
        .name = NULL, .index = 0, .info = NULL, .ninfo = 0, .module = NULL \
    }
#define PMIX_FABRIC_CONSTRUCT(x) memset((x), 0, sizeof(pmix_fabric_t))

typedef enum { PMIX_FABRIC_REQUEST_INFO, PMIX_FABRIC_UPDATE_INFO } pmix_fabric_operation_t;

/* ===== Data arrays ===== */

#define PMIX_DATA_ARRAY_INIT(m, t) \
    do {                           \
        (m)->array = NULL;         \
        (m)->type = (t);           \
        (m)->size = 0;             \
    } while (0)
/* Sets m to n zeroed elements of type t (see wu_pmix_data_array_alloc); an unknown type leaves
 * m empty. */
#define PMIX_DATA_ARRAY_CONSTRUCT(m, n, t)               \
    do {                                                 \
        (m)->type = (t);                                 \
        (m)->size = (n);                                 \
        (m)->array = wu_pmix_data_array_alloc((n), (t)); \
        if (0 < (n) && NULL == (m)->array) {             \
            (m)->size = 0;                               \
        }                                                \
    } while (0)
#define PMIX_DATA_ARRAY_CREATE(m, n, t)                                       \
    do {                                                                      \
        (m) = (pmix_data_array_t *)pmix_calloc(1, sizeof(pmix_data_array_t)); \
        if (NULL != (m)) {                                                    \
            PMIX_DATA_ARRAY_CONSTRUCT((m), (n), (t));                         \
        }                                                                     \
    } while (0)
/* Releases the elements and their contents: PMIx_Data_array_destruct. */
#define PMIX_DATA_ARRAY_DESTRUCT(m) PMIx_Data_array_destruct(m)
#define PMIX_DATA_ARRAY_FREE(m)          \
    do {                                 \
        if (NULL != (m)) {               \
            PMIX_DATA_ARRAY_DESTRUCT(m); \
            pmix_free((m));              \
            (m) = NULL;                  \
        }                                \
    } while (0)

/* Element size for the data array types, 0 for types a data array cannot hold. */
static inline size_t wu_pmix_data_array_elsize(pmix_data_type_t t)
{
    switch (t) {
    case PMIX_INFO:
        return sizeof(pmix_info_t);
    case PMIX_PROC:
        return sizeof(pmix_proc_t);
    case PMIX_PROC_INFO:
        return sizeof(pmix_proc_info_t);
    case PMIX_ENVAR:
        return sizeof(pmix_envar_t);
    case PMIX_VALUE:
        return sizeof(pmix_value_t);
    case PMIX_PDATA:
        return sizeof(pmix_pdata_t);
    case PMIX_QUERY:
        return sizeof(pmix_query_t);
    case PMIX_APP:
        return sizeof(pmix_app_t);
    case PMIX_BYTE_OBJECT:
    case PMIX_COMPRESSED_STRING:
        return sizeof(pmix_byte_object_t);
    case PMIX_ALLOC_DIRECTIVE:
    case PMIX_PROC_STATE:
    case PMIX_PERSIST:
    case PMIX_SCOPE:
    case PMIX_DATA_RANGE:
    case PMIX_BYTE:
    case PMIX_INT8:
    case PMIX_UINT8:
        return 1;
    case PMIX_POINTER:
        return sizeof(void *); /* OpenPMIx 4.2.2 allocates only a byte each */
    case PMIX_STRING:
        return sizeof(char *);
    case PMIX_SIZE:
        return sizeof(size_t);
    case PMIX_PID:
        return sizeof(pid_t);
    case PMIX_INT:
    case PMIX_UINT:
    case PMIX_STATUS:
        return sizeof(int);
    case PMIX_IOF_CHANNEL:
    case PMIX_DATA_TYPE:
    case PMIX_INT16:
    case PMIX_UINT16:
        return sizeof(int16_t);
    case PMIX_PROC_RANK:
    case PMIX_INFO_DIRECTIVES:
    case PMIX_INT32:
    case PMIX_UINT32:
        return sizeof(int32_t);
    case PMIX_INT64:
    case PMIX_UINT64:
        return sizeof(int64_t);
    case PMIX_FLOAT:
        return sizeof(float);
    case PMIX_DOUBLE:
        return sizeof(double);
    case PMIX_TIMEVAL:
        return sizeof(struct timeval);
    case PMIX_TIME:
        return sizeof(time_t);
    case PMIX_REGATTR:
        return sizeof(pmix_regattr_t);
    case PMIX_BOOL:
        return sizeof(bool);
    case PMIX_COORD:
        return sizeof(pmix_coord_t);
    case PMIX_LINK_STATE:
        return sizeof(pmix_link_state_t);
    case PMIX_ENDPOINT:
        return sizeof(pmix_endpoint_t);
    case PMIX_PROC_NSPACE:
        return sizeof(pmix_nspace_t);
    case PMIX_PROC_STATS:
        return sizeof(pmix_proc_stats_t);
    case PMIX_DISK_STATS:
        return sizeof(pmix_disk_stats_t);
    case PMIX_NET_STATS:
        return sizeof(pmix_net_stats_t);
    case PMIX_NODE_STATS:
        return sizeof(pmix_node_stats_t);
    case PMIX_DEVICE_DIST:
        return sizeof(pmix_device_distance_t);
    case PMIX_GEOMETRY:
        return sizeof(pmix_geometry_t);
    case PMIX_PROC_CPUSET:
        return sizeof(pmix_cpuset_t);
    default:
        return 0;
    }
}

/* n zeroed elements of type t for PMIX_DATA_ARRAY_CONSTRUCT, with the same per-type set-up as the
 * type's CREATE macro (info arrays get their end flag, device distances UINT16_MAX). NULL when n
 * is 0, t cannot be held, or memory is short. */
static inline void *wu_pmix_data_array_alloc(size_t n, pmix_data_type_t t)
{
    size_t sz = wu_pmix_data_array_elsize(t);
    void *a;

    if (0 == n || 0 == sz) {
        return NULL;
    }
    a = pmix_calloc(n, sz);
    if (NULL != a && PMIX_INFO == t) {
        ((pmix_info_t *)a)[n - 1].flags = PMIX_INFO_ARRAY_END;
    } else if (NULL != a && PMIX_DEVICE_DIST == t) {
        for (size_t i = 0; i < n; i++) {
            ((pmix_device_distance_t *)a)[i].mindist = UINT16_MAX;
            ((pmix_device_distance_t *)a)[i].maxdist = UINT16_MAX;
        }
    }
    return a;
}

/* ===== Exported functions the macros above rely on (implemented in pmix/common) ===== */

/* Releases the storage a value owns and resets it to PMIX_UNDEF. */
PMIX_EXPORT void PMIx_Value_destruct(pmix_value_t *val);
/* Releases every element of d (with its contents) and empties d. */
PMIX_EXPORT void PMIx_Data_array_destruct(pmix_data_array_t *d);
/* Gives the payload's bytes to buffer (takes ownership) / takes the unread bytes out of it. */
PMIX_EXPORT pmix_status_t PMIx_Data_load(pmix_data_buffer_t *buffer, pmix_byte_object_t *payload);
PMIX_EXPORT pmix_status_t PMIx_Data_unload(pmix_data_buffer_t *buffer, pmix_byte_object_t *payload);
/* Releases what the topology / cpuset object holds. */
PMIX_EXPORT void PMIx_Topology_destruct(pmix_topology_t *topo);
PMIX_EXPORT void PMIx_Cpuset_destruct(pmix_cpuset_t *cpuset);

static inline void pmix_app_free(pmix_app_t *ap, size_t n)
{
    for (size_t k = 0; NULL != ap && k < n; k++) {
        PMIX_APP_DESTRUCT(&ap[k]);
    }
}

static inline void pmix_pdata_free(pmix_pdata_t *pd, size_t n)
{
    for (size_t k = 0; NULL != pd && k < n; k++) {
        PMIX_PDATA_DESTRUCT(&pd[k]);
    }
}

/* ===== 5. Callback function types ===== */

/* Lets the library release data it passed to a callback. */
typedef void (*pmix_release_cbfunc_t)(void *cbdata);
/* Delivers a blob of modex data (direct modex, fence). */
typedef void (*pmix_modex_cbfunc_t)(pmix_status_t status, const char *data, size_t ndata,
                                    void *cbdata, pmix_release_cbfunc_t release_fn,
                                    void *release_cbdata);
/* Completion of a spawn, with the new job's namespace. */
typedef void (*pmix_spawn_cbfunc_t)(pmix_status_t status, pmix_nspace_t nspace, void *cbdata);
/* Completion of an operation that returns only a status. */
typedef void (*pmix_op_cbfunc_t)(pmix_status_t status, void *cbdata);
/* Completion of a lookup. */
typedef void (*pmix_lookup_cbfunc_t)(pmix_status_t status, pmix_pdata_t data[], size_t ndata,
                                     void *cbdata);
/* An event handler calls this when done, passing its results to the next handler. */
typedef void (*pmix_event_notification_cbfunc_fn_t)(pmix_status_t status, pmix_info_t *results,
                                                    size_t nresults, pmix_op_cbfunc_t cbfunc,
                                                    void *thiscbdata, void *notification_cbdata);
/* An event handler. */
typedef void (*pmix_notification_fn_t)(size_t evhdlr_registration_id, pmix_status_t status,
                                       const pmix_proc_t *source, pmix_info_t info[], size_t ninfo,
                                       pmix_info_t *results, size_t nresults,
                                       pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata);
/* Completion of a handler registration, with its reference id. */
typedef void (*pmix_hdlr_reg_cbfunc_t)(pmix_status_t status, size_t refid, void *cbdata);
typedef void (*pmix_evhdlr_reg_cbfunc_t)(pmix_status_t status, size_t refid, void *cbdata);
/* Completion of a Get. */
typedef void (*pmix_value_cbfunc_t)(pmix_status_t status, pmix_value_t *kv, void *cbdata);
/* Delivers an info array (query, allocate, job control, ...). */
typedef void (*pmix_info_cbfunc_t)(pmix_status_t status, pmix_info_t *info, size_t ninfo,
                                   void *cbdata, pmix_release_cbfunc_t release_fn,
                                   void *release_cbdata);
/* Delivers a credential. */
typedef void (*pmix_credential_cbfunc_t)(pmix_status_t status, pmix_byte_object_t *credential,
                                         pmix_info_t info[], size_t ninfo, void *cbdata);
/* Result of a credential validation. */
typedef void (*pmix_validation_cbfunc_t)(pmix_status_t status, pmix_info_t info[], size_t ninfo,
                                         void *cbdata);
/* Delivers device distances. */
typedef void (*pmix_device_dist_cbfunc_t)(pmix_status_t status, pmix_device_distance_t *dist,
                                          size_t ndist, void *cbdata,
                                          pmix_release_cbfunc_t release_fn, void *release_cbdata);

#ifdef __cplusplus
}
#endif

/* Deprecated names, value/info load and transfer helpers, info lists. */
#include <pmix_deprecated.h>

#endif /* PMIx_COMMON_H */
