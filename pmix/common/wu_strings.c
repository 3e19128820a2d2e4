/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_strings.c -- the PMIx_*_string pretty-printers and the attribute name <-> key tables.
 *
 * Programs print these strings, and some parse them, so every text is the one OpenPMIx 4.2.2
 * returns: they were read off its libpmix.so.2 by a probe compiled against its headers, and
 * test/unit/pmix/check_pmix_strings.c pins them. Codes OpenPMIx does not name get its fallback
 * text ("ERROR STRING NOT FOUND", "UNKNOWN", ...). Every returned string is static except those
 * of PMIx_Info_directives_string, PMIx_Proc_string and PMIx_App_string (PMIx 5), which the
 * caller frees.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmix_common.h"

#include "pmix.h"

#include "opal/util/wu_argv.h"
#include "opal/util/wu_error.h"

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

/* Status codes, including OpenPMIx's internal ones (-1363...) a peer may send us: the text
 * OpenPMIx 4.2.2 gives, and the name OpenPMIx 5.0.7 gives (NULL: that generation has none and
 * says "ERROR STRING NOT FOUND"). */
static const struct {
    int code;
    const char *text42, *name50;
} error_texts[] = {
    {0, "SUCCESS", "PMIX_SUCCESS"},
    {-1, "ERROR", "PMIX_ERROR"},
    {-2, "SILENT_ERROR", "PMIX_ERR_SILENT"},
    {-3, "DEBUGGER-RELEASE", "PMIX_DEBUGGER_RELEASE"},
    {-4, "PROC_RESTART", "PMIX_ERR_PROC_RESTART"},
    {-5, "PROC-CHECKPOINT-ERROR", "PMIX_ERR_PROC_CHECKPOINT"},
    {-6, "PROC-MIGRATE", "PMIX_ERR_PROC_MIGRATE"},
    {-7, "PROC-ABORTED", "PMIX_ERR_PROC_ABORTED"},
    {-8, "PROC-ABORT-REQUESTED", "PMIX_ERR_PROC_REQUESTED_ABORT"},
    {-9, "PROC-ABORTING", "PMIX_ERR_PROC_ABORTING"},
    {-10, "SERVER FAILED REQUEST", "PMIX_ERR_SERVER_FAILED_REQUEST"},
    {-11, "EXISTS", "PMIX_ERR_EXISTS"},
    {-12, "INVALID-CREDENTIAL", "PMIX_ERR_INVALID_CRED"},
    {-13, "HANDSHAKE-FAILED", "PMIX_ERR_HANDSHAKE_FAILED"},
    {-14, "READY-FOR-HANDSHAKE", "PMIX_ERR_READY_FOR_HANDSHAKE"},
    {-15, "WOULD-BLOCK", "PMIX_ERR_WOULD_BLOCK"},
    {-16, "UNKNOWN-DATA-TYPE", "PMIX_ERR_UNKNOWN_DATA_TYPE"},
    {-17, "PROC-ENTRY-NOT-FOUND", "PMIX_ERR_PROC_ENTRY_NOT_FOUND"},
    {-18, "TYPE-MISMATCH", "PMIX_ERR_TYPE_MISMATCH"},
    {-19, "UNPACK-INADEQUATE-SPACE", "PMIX_ERR_UNPACK_INADEQUATE_SPACE"},
    {-20, "UNPACK-FAILURE", "PMIX_ERR_UNPACK_FAILURE"},
    {-21, "PACK-FAILURE", "PMIX_ERR_PACK_FAILURE"},
    {-22, "PACK-MISMATCH", "PMIX_ERR_PACK_MISMATCH"},
    {-23, "NO-PERMISSIONS", "PMIX_ERR_NO_PERMISSIONS"},
    {-24, "TIMEOUT", "PMIX_ERR_TIMEOUT"},
    {-25, "UNREACHABLE", "PMIX_ERR_UNREACH"},
    {-26, "ERR-IN-ERRNO", "PMIX_ERR_IN_ERRNO"},
    {-27, "BAD-PARAM", "PMIX_ERR_BAD_PARAM"},
    {-28, "RESOURCE-BUSY", "PMIX_ERR_RESOURCE_BUSY"},
    {-29, "OUT-OF-RESOURCE", "PMIX_ERR_OUT_OF_RESOURCE"},
    {-30, "DATA-VALUE-NOT-FOUND", "PMIX_ERR_DATA_VALUE_NOT_FOUND"},
    {-31, "INIT", "PMIX_ERR_INIT"},
    {-32, "NO-MEM", "PMIX_ERR_NOMEM"},
    {-33, "INVALID-ARG", "PMIX_ERR_INVALID_ARG"},
    {-34, "INVALID-KEY", "PMIX_ERR_INVALID_KEY"},
    {-35, "INVALID-KEY-LENGTH", "PMIX_ERR_INVALID_KEY_LENGTH"},
    {-36, "INVALID-VAL", "PMIX_ERR_INVALID_VAL"},
    {-37, "INVALID-VAL-LENGTH", "PMIX_ERR_INVALID_VAL_LENGTH"},
    {-38, "INVALID-LENGTH", "PMIX_ERR_INVALID_LENGTH"},
    {-39, "INVALID-NUM-ARGS", "PMIX_ERR_INVALID_NUM_ARGS"},
    {-40, "INVALID-ARGS", "PMIX_ERR_INVALID_ARGS"},
    {-41, "INVALID-NUM-PARSED", "PMIX_ERR_INVALID_NUM_PARSED"},
    {-42, "INVALID-KEYVAL", "PMIX_ERR_INVALID_KEYVALP"},
    {-43, "INVALID-SIZE", "PMIX_ERR_INVALID_SIZE"},
    {-44, "INVALID-NAMESPACE", "PMIX_ERR_INVALID_NAMESPACE"},
    {-45, "SERVER-NOT-AVAIL", "PMIX_ERR_SERVER_NOT_AVAIL"},
    {-46, "NOT-FOUND", "PMIX_ERR_NOT_FOUND"},
    {-47, "NOT-SUPPORTED", "PMIX_ERR_NOT_SUPPORTED"},
    {-48, "NOT-IMPLEMENTED", "PMIX_ERR_NOT_IMPLEMENTED"},
    {-49, "COMM-FAILURE", "PMIX_ERR_COMM_FAILURE"},
    {-50, "UNPACK-PAST-END", "PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER"},
    {-51, "PMIX CONFLICTING CLEANUP DIRECTIVES", "PMIX_ERR_CONFLICTING_CLEANUP_DIRECTIVES"},
    {-52, "PARTIAL SUCCESS", "PMIX_ERR_PARTIAL_SUCCESS"},
    {-53, "DUPLICATE KEY", "PMIX_ERR_DUPLICATE_KEY"},
    {-55, "PROCESS SET DEFINED", "PMIX_PROCESS_SET_DEFINE"},
    {-56, NULL, "PMIX_PROCESS_SET_DELETE"},
    {-58, "READY-FOR-DEBUG", "PMIX_READY_FOR_DEBUG"},
    {-59, "PARAM-VALUE-NOT-SUPPORTED", "PMIX_ERR_PARAM_VALUE_NOT_SUPPORTED"},
    {-60, "EMPTY", "PMIX_ERR_EMPTY"},
    {-61, "LOST_CONNECTION", "PMIX_ERR_LOST_CONNECTION"},
    {-62, "OUTSIDE-SCOPE", "PMIX_ERR_EXISTS_OUTSIDE_SCOPE"},
    {-63, "FATAL", "PMIX_ERR_FATAL"},
    {-64, "NOT_AVAILABLE", "PMIX_ERR_NOT_AVAILABLE"},
    {-65, "VALUE_OUT_OF_BOUNDS", "PMIX_ERR_VALUE_OUT_OF_BOUNDS"},
    {-67, "FILE_OPEN_FAILURE", "PMIX_ERR_FILE_OPEN_FAILURE"},
    {-68, "FILE_READ_FAILURE", "PMIX_ERR_FILE_READ_FAILURE"},
    {-69, "FILE_WRITE_FAILURE", "PMIX_ERR_FILE_WRITE_FAILURE"},
    {-70, "SYS_LIMITS_PIPES", "PMIX_ERR_SYS_LIMITS_PIPES"},
    {-71, "SYS_LIMITS_CHILDREN", "PMIX_ERR_SYS_LIMITS_CHILDREN"},
    {-72, "PIPE_SETUP_FAILURE", "PMIX_ERR_PIPE_SETUP_FAILURE"},
    {-73, "EXE NOT ACCESSIBLE", "PMIX_ERR_EXE_NOT_ACCESSIBLE"},
    {-74, "WDIR NOT ACCESSIBLE", "PMIX_ERR_JOB_WDIR_NOT_ACCESSIBLE"},
    {-75, NULL, "PMIX_ERR_SYS_LIMITS_FILES"},
    {-101, NULL, "PMIX_ERR_LOST_CONNECTION_TO_SERVER"},
    {-102, NULL, "PMIX_ERR_LOST_PEER_CONNECTION"},
    {-103, NULL, "PMIX_ERR_LOST_CONNECTION_TO_CLIENT"},
    {-104, "QUERY-PARTIAL-SUCCESS", "PMIX_QUERY_PARTIAL_SUCCESS"},
    {-105, "PMIX ALLOC OPERATION COMPLETE", "PMIX_NOTIFY_ALLOC_COMPLETE"},
    {-106, "PMIX JOB CONTROL CHECKPOINT", "PMIX_JCTRL_CHECKPOINT"},
    {-107, "PMIX JOB CONTROL CHECKPOINT COMPLETE", "PMIX_JCTRL_CHECKPOINT_COMPLETE"},
    {-108, "PMIX PRE-EMPTION ALERT", "PMIX_JCTRL_PREEMPT_ALERT"},
    {-109, "PMIX HEARTBEAT ALERT", "PMIX_MONITOR_HEARTBEAT_ALERT"},
    {-110, "PMIX FILE MONITOR ALERT", "PMIX_MONITOR_FILE_ALERT"},
    {-111, "PROC-TERMINATED", "PMIX_PROC_TERMINATED"},
    {-112, "INVALID-TERMINATION", "PMIX_ERR_INVALID_TERMINATION"},
    {-113, "FABRIC-UPDATE-ENDPOINTS", "PMIX_FABRIC_UPDATE_ENDPOINTS"},
    {-144, "EVENT-REGISTRATION", "PMIX_ERR_EVENT_REGISTRATION"},
    {-145, "JOB ENDED", "PMIX_EVENT_JOB_END"},
    {-146, "UPDATE-ENDPOINTS", "PMIX_ERR_UPDATE_ENDPOINTS"},
    {-147, "PMIX MODEL DECLARED", "PMIX_MODEL_DECLARED"},
    {-148, "GDS-ACTION-COMPLETE", "PMIX_GDS_ACTION_COMPLETE"},
    {-149, "PROC-HAS-CONNECTED", "PMIX_PROC_HAS_CONNECTED"},
    {-150, "CONNECT-REQUESTED", "PMIX_CONNECT_REQUESTED"},
    {-151, NULL, "PMIX_MODEL_RESOURCES"},
    {-152, "OPENMP-PARALLEL-ENTERED", "PMIX_OPENMP_PARALLEL_ENTERED"},
    {-153, "OPENMP-PARALLEL-EXITED", "PMIX_OPENMP_PARALLEL_EXITED"},
    {-155, "LAUNCHER-READY", "PMIX_LAUNCHER_READY"},
    {-156, "OPERATION-IN-PROGRESS", "PMIX_OPERATION_IN_PROGRESS"},
    {-157, "OPERATION-SUCCEEDED", "PMIX_OPERATION_SUCCEEDED"},
    {-158, "INVALID-OPERATION", "PMIX_ERR_INVALID_OPERATION"},
    {-159, "GROUP-INVITED", "PMIX_GROUP_INVITED"},
    {-160, "GROUP-LEFT", "PMIX_GROUP_LEFT"},
    {-161, "GROUP-INVITE-ACCEPTED", "PMIX_GROUP_INVITE_ACCEPTED"},
    {-162, "GROUP-INVITE-DECLINED", "PMIX_GROUP_INVITE_DECLINED"},
    {-163, "GROUP-INVITE-FAILED", "PMIX_GROUP_INVITE_FAILED"},
    {-164, "GROUP-MEMBERSHIP-UPDATE", "PMIX_GROUP_MEMBERSHIP_UPDATE"},
    {-165, "GROUP-CONSTRUCT-ABORT", "PMIX_GROUP_CONSTRUCT_ABORT"},
    {-166, "GROUP-CONSTRUCT-COMPLETE", "PMIX_GROUP_CONSTRUCT_COMPLETE"},
    {-167, "GROUP-LEADER-SELECTED", "PMIX_GROUP_LEADER_SELECTED"},
    {-168, "GROUP-LEADER-FAILED", "PMIX_GROUP_LEADER_FAILED"},
    {-169, "GROUP-CONTEXT-ID-ASSIGNED", "PMIX_GROUP_CONTEXT_ID_ASSIGNED"},
    {-170, "GROUP-MEMBER-FAILED", "PMIX_GROUP_MEMBER_FAILED"},
    {-171, "REPEAT-ATTRIBUTE-REGISTRATION", "PMIX_ERR_REPEAT_ATTR_REGISTRATION"},
    {-172, "IOF FAILURE", "PMIX_ERR_IOF_FAILURE"},
    {-173, "IOF COMPLETE", "PMIX_ERR_IOF_COMPLETE"},
    {-174, "PMIX LAUNCH COMPLETE", "PMIX_LAUNCH_COMPLETE"},
    {-175, "FABRIC-UPDATED", "PMIX_FABRIC_UPDATED"},
    {-176, "FABRIC-UPDATE-PENDING", "PMIX_FABRIC_UPDATE_PENDING"},
    {-177, "APPLICATION NOT EXECUTABLE", "PMIX_ERR_JOB_APP_NOT_EXECUTABLE"},
    {-178, "NO EXECUTABLE SPECIFIED", "PMIX_ERR_JOB_NO_EXE_SPECIFIED"},
    {-179, "JOB FAILED TO MAP", "PMIX_ERR_JOB_FAILED_TO_MAP"},
    {-180, "JOB CANCELED", "PMIX_ERR_JOB_CANCELED"},
    {-181, "JOB FAILED TO LAUNCH", "PMIX_ERR_JOB_FAILED_TO_LAUNCH"},
    {-182, "JOB ABORTED", "PMIX_ERR_JOB_ABORTED"},
    {-183, "KILLED BY COMMAND", "PMIX_ERR_JOB_KILLED_BY_CMD"},
    {-184, "ABORTED BY SIGNAL", "PMIX_ERR_JOB_ABORTED_BY_SIG"},
    {-185, "TERMINATED WITHOUT SYNC", "PMIX_ERR_JOB_TERM_WO_SYNC"},
    {-186, "SENSOR BOUND EXCEEDED", "PMIX_ERR_JOB_SENSOR_BOUND_EXCEEDED"},
    {-187, "NON-ZERO TERMINATION", "PMIX_ERR_JOB_NON_ZERO_TERM"},
    {-188, "FAILED TO OBTAIN ALLOCATION", "PMIX_ERR_JOB_ALLOC_FAILED"},
    {-189, "JOB ABORTED BY SYSTEM EVENT", "PMIX_ERR_JOB_ABORTED_BY_SYS_EVENT"},
    {-190, "EXECUTABLE NOT FOUND", "PMIX_ERR_JOB_EXE_NOT_FOUND"},
    {-191, "JOB STARTED", "PMIX_EVENT_JOB_START"},
    {-192, "SESSION STARTED", "PMIX_EVENT_SESSION_START"},
    {-193, "SESSION ENDED", "PMIX_EVENT_SESSION_END"},
    {-200, "PROC TERMINATED WITHOUT SYNC", "PMIX_ERR_PROC_TERM_WO_SYNC"},
    {-201, "PROC TERMINATED", "PMIX_EVENT_PROC_TERMINATED"},
    {-230, "SYSTEM BASE EVENT", "PMIX_EVENT_SYS_BASE"},
    {-231, "NODE-DOWN", "PMIX_EVENT_NODE_DOWN"},
    {-232, "NODE-OFFLINE", "PMIX_EVENT_NODE_OFFLINE"},
    {-233, "WORKING DIRECTORY NOT FOUND", "PMIX_ERR_JOB_WDIR_NOT_FOUND"},
    {-234, "INSUFFICIENT RESOURCES", "PMIX_ERR_JOB_INSUFFICIENT_RESOURCES"},
    {-235, "SYSTEM OPERATION FAILED", "PMIX_ERR_JOB_SYS_OP_FAILED"},
    {-330, "UNDEFINED-SYSTEM-EVENT", "PMIX_EVENT_SYS_OTHER"},
    {-331, "EVENT-NO-ACTION-TAKEN", "PMIX_EVENT_NO_ACTION_TAKEN"},
    {-332, "EVENT-PARTIAL-ACTION-TAKEN", "PMIX_EVENT_PARTIAL_ACTION_TAKEN"},
    {-333, "EVENT-ACTION-DEFERRED", "PMIX_EVENT_ACTION_DEFERRED"},
    {-334, "EVENT-ACTION-COMPLETE", "PMIX_EVENT_ACTION_COMPLETE"},
    {-400, "PROC-KILLED-BY-CMD", "PMIX_ERR_PROC_KILLED_BY_CMD"},
    {-401, "PROC-FAILED-TO-START", "PMIX_ERR_PROC_FAILED_TO_START"},
    {-402, "PROC-ABORTED-BY-SIG", "PMIX_ERR_PROC_ABORTED_BY_SIG"},
    {-403, "PROC-SENSOR-BOUND-EXCEEDED", "PMIX_ERR_PROC_SENSOR_BOUND_EXCEEDED"},
    {-404, "PROC-EXIT-NONZERO-TERM", "PMIX_ERR_EXIT_NONZERO_TERM"},
    {-1363, "FABRIC_NOT_PARSEABLE", "PMIX_ERR_FABRIC_NOT_PARSEABLE"},
    {-1366, "TAKE-NEXT-OPTION", "PMIX_ERR_TAKE_NEXT_OPTION"},
    {-1367, "PMIX TEMPORARILY UNAVAILABLE", "PMIX_ERR_TEMP_UNAVAILABLE"},
    /* PMIX_MAX_ERR_CONSTANT */
    {INT_MIN, "PMIX_ERR_WILDCARD", NULL},
};

/* The text of the generation configure chose (--with-pmix-compat). */
PMIX_EXPORT const char *PMIx_Error_string(pmix_status_t status)
{
    for (size_t i = 0; i < sizeof(error_texts) / sizeof(error_texts[0]); i++) {
        if (error_texts[i].code == status) {
            const char *t =
                5 <= WU_PMIX_COMPAT_MAJOR ? error_texts[i].name50 : error_texts[i].text42;
            return NULL != t ? t : "ERROR STRING NOT FOUND";
        }
    }
    return "ERROR STRING NOT FOUND";
}

/* The inverse of PMIx_Error_string, ignoring case (as OpenPMIx 5): a name of either generation
 * gives its code; INT32_MIN for a name no code has. Where two codes share a text, the first in
 * the table answers. */
PMIX_EXPORT pmix_status_t PMIx_Error_code(const char *errname)
{
    for (size_t i = 0; NULL != errname && i < sizeof(error_texts) / sizeof(error_texts[0]); i++) {
        const char *a = error_texts[i].name50, *b = error_texts[i].text42;
        if ((NULL != a && 0 == strcasecmp(a, errname)) ||
            (NULL != b && 0 == strcasecmp(b, errname))) {
            return error_texts[i].code;
        }
    }
    return INT32_MIN;
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

/* ---- PMIx 5: a process name and an app as text ---- */

PMIX_EXPORT char *PMIx_Proc_string(const pmix_proc_t *proc)
{
    static const wu_code_text_t ranks[] = {
        {(int)PMIX_RANK_UNDEF, "UNDEF"},           {(int)PMIX_RANK_WILDCARD, "WILDCARD"},
        {(int)PMIX_RANK_LOCAL_NODE, "LOCAL_NODE"}, {(int)PMIX_RANK_LOCAL_PEERS, "LOCAL_PEERS"},
        {(int)PMIX_RANK_INVALID, "INVALID"},
    };
    char *out = NULL;

    if (NULL == proc) {
        return strdup("[NO-NAME]");
    }
    const char *special = LOOKUP(ranks, proc->rank, NULL);
    int len = (int)pmix_nslen(proc->nspace);
    int rc = NULL != special ? wu_asprintf(&out, "[%.*s,%s]", len, proc->nspace, special)
                             : wu_asprintf(&out, "[%.*s,%u]", len, proc->nspace, proc->rank);
    return WU_SUCCESS == rc ? out : NULL;
}

/* Appends one formatted line to *lines; false when memory is short. */
static bool add_line(char ***lines, const char *fmt, ...)
{
    va_list ap;
    char *line = NULL;

    va_start(ap, fmt);
    int rc = wu_vasprintf(&line, fmt, ap);
    va_end(ap);
    if (WU_SUCCESS != rc) {
        return false;
    }
    rc = pmix_argv_append_nosize(lines, line);
    free(line);
    return PMIX_SUCCESS == rc;
}

/* Adds the lines for one string array of an app (argv, env): a header, then one line each. */
static bool add_strings(char ***lines, const char *what, char **strs)
{
    bool ok = add_line(lines, "    %s:", what);

    if (NULL == strs) {
        return ok && add_line(lines, "        NONE");
    }
    for (int i = 0; ok && NULL != strs[i]; i++) {
        ok = add_line(lines, "        %s[%d]: %s", what, i, strs[i]);
    }
    return ok;
}

PMIX_EXPORT char *PMIx_App_string(const pmix_app_t *app)
{
    char **lines = NULL;
    char *out = NULL;

    if (NULL == app) {
        return NULL;
    }
    bool ok = add_line(&lines, "CMD: %s", NULL == app->cmd ? "NULL" : app->cmd) &&
              add_strings(&lines, "ARGV", app->argv) && add_strings(&lines, "ENV", app->env) &&
              add_line(&lines, "    CWD: %s", NULL == app->cwd ? "NULL" : app->cwd) &&
              add_line(&lines, "    MAXPROCS: %d", app->maxprocs);
    if (ok && NULL == app->info) {
        ok = add_line(&lines, "    INFO: NONE");
    } else if (ok) {
        ok = add_line(&lines, "    INFO:");
        for (size_t i = 0; ok && i < app->ninfo; i++) {
            char *text = PMIx_Info_string(&app->info[i]);
            ok = NULL != text && add_line(&lines, "        INFO[%d]: %s", (int)i, text);
            free(text);
        }
    }
    if (ok) {
        out = pmix_argv_join(lines, '\n');
    }
    pmix_argv_free(lines);
    return out;
}
