/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_strings.c -- the PMIx_*_string pretty-printers and the attribute name <-> key tables.
 *
 * Programs print these strings, and some parse them, so every text is the one OpenPMIx 4.2.2
 * returns: they were read off its libpmix.so.2 by a probe compiled against its headers, and
 * test/unit/pmix/check_pmix_strings.c pins them. Codes OpenPMIx does not name get its fallback
 * text ("ERROR STRING NOT FOUND", "UNKNOWN", ...). Every returned string is static except
 * PMIx_Info_directives_string's, which the caller frees.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "pmix_common.h"

#include "pmix.h"

typedef struct {
    int code;
    const char *text;
} wu_code_text_t;

static const char *lookup(const wu_code_text_t *tab, size_t n, int code, const char *fallback)
{
    for (size_t i = 0; i < n; i++) {
        if (tab[i].code == code) {
            return tab[i].text;
        }
    }
    return fallback;
}

#define LOOKUP(tab, code, fallback) lookup(tab, sizeof(tab) / sizeof(tab[0]), (int)(code), fallback)

/* Status codes, including OpenPMIx's internal ones (-1363...) a peer may send us. */
static const wu_code_text_t error_texts[] = {
    {0, "SUCCESS"},
    {-1, "ERROR"},
    {-2, "SILENT_ERROR"},
    {-3, "DEBUGGER-RELEASE"},
    {-4, "PROC_RESTART"},
    {-5, "PROC-CHECKPOINT-ERROR"},
    {-6, "PROC-MIGRATE"},
    {-7, "PROC-ABORTED"},
    {-8, "PROC-ABORT-REQUESTED"},
    {-9, "PROC-ABORTING"},
    {-10, "SERVER FAILED REQUEST"},
    {-11, "EXISTS"},
    {-12, "INVALID-CREDENTIAL"},
    {-13, "HANDSHAKE-FAILED"},
    {-14, "READY-FOR-HANDSHAKE"},
    {-15, "WOULD-BLOCK"},
    {-16, "UNKNOWN-DATA-TYPE"},
    {-17, "PROC-ENTRY-NOT-FOUND"},
    {-18, "TYPE-MISMATCH"},
    {-19, "UNPACK-INADEQUATE-SPACE"},
    {-20, "UNPACK-FAILURE"},
    {-21, "PACK-FAILURE"},
    {-22, "PACK-MISMATCH"},
    {-23, "NO-PERMISSIONS"},
    {-24, "TIMEOUT"},
    {-25, "UNREACHABLE"},
    {-26, "ERR-IN-ERRNO"},
    {-27, "BAD-PARAM"},
    {-28, "RESOURCE-BUSY"},
    {-29, "OUT-OF-RESOURCE"},
    {-30, "DATA-VALUE-NOT-FOUND"},
    {-31, "INIT"},
    {-32, "NO-MEM"},
    {-33, "INVALID-ARG"},
    {-34, "INVALID-KEY"},
    {-35, "INVALID-KEY-LENGTH"},
    {-36, "INVALID-VAL"},
    {-37, "INVALID-VAL-LENGTH"},
    {-38, "INVALID-LENGTH"},
    {-39, "INVALID-NUM-ARGS"},
    {-40, "INVALID-ARGS"},
    {-41, "INVALID-NUM-PARSED"},
    {-42, "INVALID-KEYVAL"},
    {-43, "INVALID-SIZE"},
    {-44, "INVALID-NAMESPACE"},
    {-45, "SERVER-NOT-AVAIL"},
    {-46, "NOT-FOUND"},
    {-47, "NOT-SUPPORTED"},
    {-48, "NOT-IMPLEMENTED"},
    {-49, "COMM-FAILURE"},
    {-50, "UNPACK-PAST-END"},
    {-51, "PMIX CONFLICTING CLEANUP DIRECTIVES"},
    {-52, "PARTIAL SUCCESS"},
    {-53, "DUPLICATE KEY"},
    {-55, "PROCESS SET DEFINED"},
    {-58, "READY-FOR-DEBUG"},
    {-59, "PARAM-VALUE-NOT-SUPPORTED"},
    {-60, "EMPTY"},
    {-61, "LOST_CONNECTION"},
    {-62, "OUTSIDE-SCOPE"},
    {-63, "FATAL"},
    {-64, "NOT_AVAILABLE"},
    {-65, "VALUE_OUT_OF_BOUNDS"},
    {-67, "FILE_OPEN_FAILURE"},
    {-68, "FILE_READ_FAILURE"},
    {-69, "FILE_WRITE_FAILURE"},
    {-70, "SYS_LIMITS_PIPES"},
    {-71, "SYS_LIMITS_CHILDREN"},
    {-72, "PIPE_SETUP_FAILURE"},
    {-73, "EXE NOT ACCESSIBLE"},
    {-74, "WDIR NOT ACCESSIBLE"},
    {-104, "QUERY-PARTIAL-SUCCESS"},
    {-105, "PMIX ALLOC OPERATION COMPLETE"},
    {-106, "PMIX JOB CONTROL CHECKPOINT"},
    {-107, "PMIX JOB CONTROL CHECKPOINT COMPLETE"},
    {-108, "PMIX PRE-EMPTION ALERT"},
    {-109, "PMIX HEARTBEAT ALERT"},
    {-110, "PMIX FILE MONITOR ALERT"},
    {-111, "PROC-TERMINATED"},
    {-112, "INVALID-TERMINATION"},
    {-113, "FABRIC-UPDATE-ENDPOINTS"},
    {-144, "EVENT-REGISTRATION"},
    {-145, "JOB ENDED"},
    {-146, "UPDATE-ENDPOINTS"},
    {-147, "PMIX MODEL DECLARED"},
    {-148, "GDS-ACTION-COMPLETE"},
    {-149, "PROC-HAS-CONNECTED"},
    {-150, "CONNECT-REQUESTED"},
    {-152, "OPENMP-PARALLEL-ENTERED"},
    {-153, "OPENMP-PARALLEL-EXITED"},
    {-155, "LAUNCHER-READY"},
    {-156, "OPERATION-IN-PROGRESS"},
    {-157, "OPERATION-SUCCEEDED"},
    {-158, "INVALID-OPERATION"},
    {-159, "GROUP-INVITED"},
    {-160, "GROUP-LEFT"},
    {-161, "GROUP-INVITE-ACCEPTED"},
    {-162, "GROUP-INVITE-DECLINED"},
    {-163, "GROUP-INVITE-FAILED"},
    {-164, "GROUP-MEMBERSHIP-UPDATE"},
    {-165, "GROUP-CONSTRUCT-ABORT"},
    {-166, "GROUP-CONSTRUCT-COMPLETE"},
    {-167, "GROUP-LEADER-SELECTED"},
    {-168, "GROUP-LEADER-FAILED"},
    {-169, "GROUP-CONTEXT-ID-ASSIGNED"},
    {-170, "GROUP-MEMBER-FAILED"},
    {-171, "REPEAT-ATTRIBUTE-REGISTRATION"},
    {-172, "IOF FAILURE"},
    {-173, "IOF COMPLETE"},
    {-174, "PMIX LAUNCH COMPLETE"},
    {-175, "FABRIC-UPDATED"},
    {-176, "FABRIC-UPDATE-PENDING"},
    {-177, "APPLICATION NOT EXECUTABLE"},
    {-178, "NO EXECUTABLE SPECIFIED"},
    {-179, "JOB FAILED TO MAP"},
    {-180, "JOB CANCELED"},
    {-181, "JOB FAILED TO LAUNCH"},
    {-182, "JOB ABORTED"},
    {-183, "KILLED BY COMMAND"},
    {-184, "ABORTED BY SIGNAL"},
    {-185, "TERMINATED WITHOUT SYNC"},
    {-186, "SENSOR BOUND EXCEEDED"},
    {-187, "NON-ZERO TERMINATION"},
    {-188, "FAILED TO OBTAIN ALLOCATION"},
    {-189, "JOB ABORTED BY SYSTEM EVENT"},
    {-190, "EXECUTABLE NOT FOUND"},
    {-191, "JOB STARTED"},
    {-192, "SESSION STARTED"},
    {-193, "SESSION ENDED"},
    {-200, "PROC TERMINATED WITHOUT SYNC"},
    {-201, "PROC TERMINATED"},
    {-230, "SYSTEM BASE EVENT"},
    {-231, "NODE-DOWN"},
    {-232, "NODE-OFFLINE"},
    {-233, "WORKING DIRECTORY NOT FOUND"},
    {-234, "INSUFFICIENT RESOURCES"},
    {-235, "SYSTEM OPERATION FAILED"},
    {-330, "UNDEFINED-SYSTEM-EVENT"},
    {-331, "EVENT-NO-ACTION-TAKEN"},
    {-332, "EVENT-PARTIAL-ACTION-TAKEN"},
    {-333, "EVENT-ACTION-DEFERRED"},
    {-334, "EVENT-ACTION-COMPLETE"},
    {-400, "PROC-KILLED-BY-CMD"},
    {-401, "PROC-FAILED-TO-START"},
    {-402, "PROC-ABORTED-BY-SIG"},
    {-403, "PROC-SENSOR-BOUND-EXCEEDED"},
    {-404, "PROC-EXIT-NONZERO-TERM"},
    {-1363, "FABRIC_NOT_PARSEABLE"},
    {-1366, "TAKE-NEXT-OPTION"},
    {-1367, "PMIX TEMPORARILY UNAVAILABLE"},
    /* PMIX_MAX_ERR_CONSTANT */
    {INT_MIN, "PMIX_ERR_WILDCARD"},
};

PMIX_EXPORT const char *PMIx_Error_string(pmix_status_t status)
{
    return LOOKUP(error_texts, status, "ERROR STRING NOT FOUND");
}

static const wu_code_text_t proc_state_texts[] = {
    {0, "UNDEFINED"},
    {1, "PREPPED FOR LAUNCH"},
    {2, "LAUNCH UNDERWAY"},
    {3, "PROC READY FOR RESTART"},
    {4, "PROC MARKED FOR TERMINATION"},
    {5, "PROC EXECUTING"},
    {6, "PROC HAS CONNECTED TO LOCAL PMIX SERVER"},
    {15, "PROC HAS NOT TERMINATED"},
    {20, "PROC HAS TERMINATED"},
    {50, "PROC ERROR"},
    {51, "PROC KILLED BY CMD"},
    {52, "PROC ABNORMALLY ABORTED"},
    {53, "PROC FAILED TO START"},
    {54, "PROC ABORTED BY SIGNAL"},
    {55, "PROC TERMINATED WITHOUT CALLING PMIx_Finalize"},
    {56, "PROC LOST COMMUNICATION"},
    {57, "PROC SENSOR BOUND EXCEEDED"},
    {58, "PROC CALLED PMIx_Abort"},
    {59, "PROC FAILED TO REPORT HEARTBEAT"},
    {60, "PROC WAITING TO MIGRATE"},
    {61, "PROC CANNOT BE RESTARTED"},
    {62, "PROC TERMINATED WITH NON-ZERO STATUS"},
    {63, "PROC FAILED TO LAUNCH"},
};

PMIX_EXPORT const char *PMIx_Proc_state_string(pmix_proc_state_t state)
{
    return LOOKUP(proc_state_texts, state, "UNKNOWN STATE");
}

static const wu_code_text_t job_state_texts[] = {
    {0, "UNDEFINED"},     {1, "PREPPED FOR LAUNCH"}, {2, "LAUNCHING"},
    {3, "RUNNING"},       {4, "SUSPENDED"},          {5, "CONNECTED"},
    {15, "UNTERMINATED"}, {20, "TERMINATED"},        {50, "TERMINATED WITH ERROR"},
};

PMIX_EXPORT const char *PMIx_Job_state_string(pmix_job_state_t state)
{
    return LOOKUP(job_state_texts, state, "UNKNOWN");
}

static const wu_code_text_t scope_texts[] = {
    {0, "UNDEFINED"},
    {1, "SHARE ON LOCAL NODE ONLY"},
    {2, "SHARE ON REMOTE NODES ONLY"},
    {3, "SHARE ACROSS ALL NODES"},
    {4, "STORE INTERNALLY"},
};

PMIX_EXPORT const char *PMIx_Scope_string(pmix_scope_t scope)
{
    return LOOKUP(scope_texts, scope, "UNKNOWN SCOPE");
}

static const wu_code_text_t persistence_texts[] = {
    {0, "INDEFINITE"},
    {1, "DELETE ON FIRST ACCESS"},
    {2, "RETAIN UNTIL PUBLISHING PROCESS TERMINATES"},
    {3, "RETAIN UNTIL APPLICATION OF PUBLISHING PROCESS TERMINATES"},
    {4, "RETAIN UNTIL ALLOCATION OF PUBLISHING PROCESS TERMINATES"},
    {255, "INVALID"},
};

PMIX_EXPORT const char *PMIx_Persistence_string(pmix_persistence_t persist)
{
    return LOOKUP(persistence_texts, persist, "UNKNOWN PERSISTENCE");
}

static const wu_code_text_t range_texts[] = {
    {0, "UNDEFINED"},
    {1, "INTENDED FOR HOST RESOURCE MANAGER ONLY"},
    {2, "AVAIL ON LOCAL NODE ONLY"},
    {3, "AVAIL TO PROCESSES IN SAME JOB ONLY"},
    {4, "AVAIL TO PROCESSES IN SAME ALLOCATION ONLY"},
    {5, "AVAIL TO ANYONE WITH AUTHORIZATION"},
    {6, "AVAIL AS SPECIFIED IN DIRECTIVES"},
    {7, "AVAIL ON LOCAL PROC ONLY"},
    {255, "INVALID"},
};

PMIX_EXPORT const char *PMIx_Data_range_string(pmix_data_range_t range)
{
    return LOOKUP(range_texts, range, "UNKNOWN");
}

static const wu_code_text_t alloc_directive_texts[] = {
    {1, "NEW"},
    {2, "EXTEND"},
    {3, "RELEASE"},
    {4, "REACQUIRE"},
};

PMIX_EXPORT const char *PMIx_Alloc_directive_string(pmix_alloc_directive_t directive)
{
    return LOOKUP(alloc_directive_texts, directive, "UNSPECIFIED");
}

static const wu_code_text_t link_state_texts[] = {
    {1, "INACTIVE"},
    {2, "ACTIVE"},
};

PMIX_EXPORT const char *PMIx_Link_state_string(pmix_link_state_t state)
{
    return LOOKUP(link_state_texts, state, "UNKNOWN");
}

static const wu_code_text_t comparison_texts[] = {
    {0, "EQUAL"},           {1, "VALUE1 GREATER"},       {2, "VALUE2 GREATER"},
    {3, "DIFFERENT TYPES"}, {4, "INCOMPATIBLE OBJECTS"}, {5, "COMPARISON NOT AVAILABLE"},
};

PMIX_EXPORT const char *PMIx_Value_comparison_string(pmix_value_cmp_t cmp)
{
    return LOOKUP(comparison_texts, cmp, "UNKNOWN VALUE");
}

/* Data type names: the type's macro name, including the retired codes OpenPMIx 4.2 still names
 * once initialized (what programs see after PMIx_Init); anything else is "UNKNOWN". */
static const char *const type_names[] = {
    [PMIX_BOOL] = "PMIX_BOOL",
    [PMIX_BYTE] = "PMIX_BYTE",
    [PMIX_STRING] = "PMIX_STRING",
    [PMIX_SIZE] = "PMIX_SIZE",
    [PMIX_PID] = "PMIX_PID",
    [PMIX_INT] = "PMIX_INT",
    [PMIX_INT8] = "PMIX_INT8",
    [PMIX_INT16] = "PMIX_INT16",
    [PMIX_INT32] = "PMIX_INT32",
    [PMIX_INT64] = "PMIX_INT64",
    [PMIX_UINT] = "PMIX_UINT",
    [PMIX_UINT8] = "PMIX_UINT8",
    [PMIX_UINT16] = "PMIX_UINT16",
    [PMIX_UINT32] = "PMIX_UINT32",
    [PMIX_UINT64] = "PMIX_UINT64",
    [PMIX_FLOAT] = "PMIX_FLOAT",
    [PMIX_DOUBLE] = "PMIX_DOUBLE",
    [PMIX_TIMEVAL] = "PMIX_TIMEVAL",
    [PMIX_TIME] = "PMIX_TIME",
    [PMIX_STATUS] = "PMIX_STATUS",
    [PMIX_VALUE] = "PMIX_VALUE",
    [PMIX_PROC] = "PMIX_PROC",
    [PMIX_APP] = "PMIX_APP",
    [PMIX_INFO] = "PMIX_INFO",
    [PMIX_PDATA] = "PMIX_PDATA",
    [26] = "PMIX_BUFFER",
    [PMIX_BYTE_OBJECT] = "PMIX_BYTE_OBJECT",
    [PMIX_KVAL] = "PMIX_KVAL",
    [29] = "PMIX_MODEX",
    [PMIX_PERSIST] = "PMIX_PERSIST",
    [PMIX_POINTER] = "PMIX_POINTER",
    [PMIX_SCOPE] = "PMIX_SCOPE",
    [PMIX_DATA_RANGE] = "PMIX_DATA_RANGE",
    [PMIX_COMMAND] = "PMIX_COMMAND",
    [PMIX_INFO_DIRECTIVES] = "PMIX_INFO_DIRECTIVES",
    [PMIX_DATA_TYPE] = "PMIX_DATA_TYPE",
    [PMIX_PROC_STATE] = "PMIX_PROC_STATE",
    [PMIX_PROC_INFO] = "PMIX_PROC_INFO",
    [PMIX_DATA_ARRAY] = "PMIX_DATA_ARRAY",
    [PMIX_PROC_RANK] = "PMIX_PROC_RANK",
    [PMIX_QUERY] = "PMIX_QUERY",
    [PMIX_COMPRESSED_STRING] = "PMIX_COMPRESSED_STRING",
    [PMIX_ALLOC_DIRECTIVE] = "PMIX_ALLOC_DIRECTIVE",
    [44] = "PMIX_INFO_ARRAY",
    [PMIX_IOF_CHANNEL] = "PMIX_IOF_CHANNEL",
    [PMIX_ENVAR] = "PMIX_ENVAR",
    [PMIX_COORD] = "PMIX_COORD",
    [PMIX_REGATTR] = "PMIX_REGATTR",
    [PMIX_REGEX] = "PMIX_REGEX",
    [PMIX_JOB_STATE] = "PMIX_JOB_STATE",
    [PMIX_LINK_STATE] = "PMIX_LINK_STATE",
    [PMIX_PROC_CPUSET] = "PMIX_PROC_CPUSET",
    [PMIX_GEOMETRY] = "PMIX_GEOMETRY",
    [PMIX_DEVICE_DIST] = "PMIX_DEVICE_DIST",
    [PMIX_ENDPOINT] = "PMIX_ENDPOINT",
    [PMIX_TOPO] = "PMIX_TOPO",
    [PMIX_DEVTYPE] = "PMIX_DEVTYPE",
    [PMIX_LOCTYPE] = "PMIX_LOCTYPE",
    [PMIX_COMPRESSED_BYTE_OBJECT] = "PMIX_COMPRESSED_BYTE_OBJECT",
    [PMIX_PROC_NSPACE] = "PMIX_PROC_NSPACE",
    [PMIX_PROC_STATS] = "PMIX_PROC_STATS",
    [PMIX_DISK_STATS] = "PMIX_DISK_STATS",
    [PMIX_NET_STATS] = "PMIX_NET_STATS",
    [PMIX_NODE_STATS] = "PMIX_NODE_STATS",
    [PMIX_DATA_BUFFER] = "PMIX_DATA_BUFFER",
    [PMIX_STOR_MEDIUM] = "PMIX_STOR_MEDIUM",
    [PMIX_STOR_ACCESS] = "PMIX_STOR_ACCESS",
    [PMIX_STOR_PERSIST] = "PMIX_STOR_PERSIST",
    [PMIX_STOR_ACCESS_TYPE] = "PMIX_STOR_ACCESS_TYPE",
};

PMIX_EXPORT const char *PMIx_Data_type_string(pmix_data_type_t type)
{
    if (type < sizeof(type_names) / sizeof(type_names[0]) && NULL != type_names[type]) {
        return type_names[type];
    }
    return "UNKNOWN";
}

/* Channels are a bit mask; each present channel is named followed by a space. Bits above the
 * four defined channels are ignored. */
static const char *const iof_texts[16] = {
    "NONE",
    "STDIN ",
    "STDOUT ",
    "STDIN STDOUT ",
    "STDERR ",
    "STDIN STDERR ",
    "STDOUT STDERR ",
    "STDIN STDOUT STDERR ",
    "STDDIAG ",
    "STDIN STDDIAG ",
    "STDOUT STDDIAG ",
    "STDIN STDOUT STDDIAG ",
    "STDERR STDDIAG ",
    "STDIN STDERR STDDIAG ",
    "STDOUT STDERR STDDIAG ",
    "STDIN STDOUT STDERR STDDIAG ",
};

PMIX_EXPORT const char *PMIx_IOF_channel_string(pmix_iof_channel_t channel)
{
    return iof_texts[channel & 0xf];
}

/* Device types are bits, but only a single known bit is named: a mix is "UNKNOWN". */
PMIX_EXPORT const char *PMIx_Device_type_string(pmix_device_type_t type)
{
    switch (type) {
    case 0x01:
        return "BLOCK";
    case 0x02:
        return "GPU";
    case 0x04:
        return "NETWORK";
    case 0x08:
        return "OPENFABRICS";
    case 0x10:
        return "DMA";
    case 0x20:
        return "COPROCESSOR";
    default:
        return "UNKNOWN";
    }
}

/* "REQUIRED" or "OPTIONAL", then ":PROCESSED" and ":END" when set; a qualifier is named alone.
 * The caller frees the result (NULL when out of memory). */
PMIX_EXPORT char *PMIx_Info_directives_string(pmix_info_directives_t directives)
{
    char buf[64];

    if (0 != (directives & PMIX_INFO_QUALIFIER)) {
        return strdup("QUALIFIER");
    }
    strcpy(buf, 0 != (directives & PMIX_INFO_REQD) ? "REQUIRED" : "OPTIONAL");
    if (0 != (directives & PMIX_INFO_REQD_PROCESSED)) {
        strcat(buf, ":PROCESSED");
    }
    if (0 != (directives & PMIX_INFO_ARRAY_END)) {
        strcat(buf, ":END");
    }
    return strdup(buf);
}

/* ---- attribute names <-> key strings ---- */

typedef struct {
    const char *name; /* the macro's name, e.g. "PMIX_HOSTNAME" */
    const char *key;  /* its value, e.g. "pmix.hname" */
} wu_attr_t;

/* The table is generated once by wu_attr_table.pl from the 4.2 header (see that script); the
 * names and strings are ABI facts, and test/unit/pmix/check_pmix_strings.c checks them against
 * our pmix_common.h macros. */
static const wu_attr_t attrs[] = {
#define WU_ATTR(name, key) {name, key},
#include "pmix/common/wu_attr_table.h"
#undef WU_ATTR
};

/* Unknown input is handed back unchanged, as OpenPMIx does. */
PMIX_EXPORT const char *PMIx_Get_attribute_string(const char *attribute)
{
    if (NULL == attribute) {
        return NULL;
    }
    for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
        if (0 == strcmp(attrs[i].name, attribute)) {
            return attrs[i].key;
        }
    }
    return attribute;
}

/* Several names share a key string; the first in header order answers. */
PMIX_EXPORT const char *PMIx_Get_attribute_name(const char *attrstring)
{
    if (NULL == attrstring) {
        return NULL;
    }
    for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
        if (0 == strcmp(attrs[i].key, attrstring)) {
            return attrs[i].name;
        }
    }
    return attrstring;
}
