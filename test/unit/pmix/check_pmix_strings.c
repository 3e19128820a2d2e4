/* SPDX-License-Identifier: BSD-3-Clause */
/* check_pmix_strings.c -- the PMIx_*_string functions return OpenPMIx's exact texts: 4.2.2's,
 * or for the error strings 5.0.7's in a build configured --with-pmix-compat=5.0 (the error
 * strings are the one text the two generations give differently).
 *
 * Every literal below was read off OpenPMIx's libpmix.so.2 (4.2.2 on Debian 12, 5.0.7 on
 * Debian 13) by a probe program built against its headers, not copied from our implementation. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "pmix.h"
#include "pmix_common.h"

#include "opal/util/wu_macros.h"
#include "test/support/wu_test.h"

typedef struct {
    long code;
    const char *text;
} code_text_t;

/* every status code OpenPMIx names, then codes it does not */
static const code_text_t errors[] = {
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
    {INT_MIN, "PMIX_ERR_WILDCARD"},
    {-56, "ERROR STRING NOT FOUND"},
    {-101, "ERROR STRING NOT FOUND"},
    {-102, "ERROR STRING NOT FOUND"},
    {-103, "ERROR STRING NOT FOUND"},
    {-3000, "ERROR STRING NOT FOUND"},
    {-100000, "ERROR STRING NOT FOUND"},
    {1, "ERROR STRING NOT FOUND"},
    {1000, "ERROR STRING NOT FOUND"},
    {INT_MAX, "ERROR STRING NOT FOUND"},
};

/* OpenPMIx 5.0.7 names a code by its macro, and names a few more codes than 4.2.2 */
static const code_text_t errors50[] = {
    {0, "PMIX_SUCCESS"},
    {-1, "PMIX_ERROR"},
    {-11, "PMIX_ERR_EXISTS"},
    {-46, "PMIX_ERR_NOT_FOUND"},
    {-47, "PMIX_ERR_NOT_SUPPORTED"},
    {-56, "PMIX_PROCESS_SET_DELETE"},
    {-101, "PMIX_ERR_LOST_CONNECTION_TO_SERVER"},
    {-147, "PMIX_MODEL_DECLARED"},
    {-1367, "PMIX_ERR_TEMP_UNAVAILABLE"},
    {INT_MIN, "ERROR STRING NOT FOUND"},
    {-3000, "ERROR STRING NOT FOUND"},
    {1, "ERROR STRING NOT FOUND"},
};

#if 5 <= WU_PMIX_COMPAT_MAJOR
#define WU_ERRORS       errors50
#define WU_ERRORS_NAMED 156
#else
#define WU_ERRORS       errors
#define WU_ERRORS_NAMED 150
#endif

START_TEST(error_strings)
{
    ck_assert_str_eq(WU_ERRORS[_i].text, PMIx_Error_string((pmix_status_t)WU_ERRORS[_i].code));
}
END_TEST

/* Either generation's text names its code. */
START_TEST(error_codes_from_either_text)
{
    if (0 != strcmp("ERROR STRING NOT FOUND", errors[_i].text)) {
        ck_assert_int_eq((int)errors[_i].code, PMIx_Error_code(errors[_i].text));
    }
    if (0 != strcmp("ERROR STRING NOT FOUND", errors50[_i % WU_NELEMS(errors50)].text)) {
        ck_assert_int_eq((int)errors50[_i % WU_NELEMS(errors50)].code,
                         PMIx_Error_code(errors50[_i % WU_NELEMS(errors50)].text));
    }
}
END_TEST

/* Codes OpenPMIx does not name, scanned over a wide range: exactly the table's names exist. */
START_TEST(error_strings_unnamed)
{
    size_t named = 0;
    for (long c = -20000; c <= 20000; c++) {
        if (0 != strcmp("ERROR STRING NOT FOUND", PMIx_Error_string((pmix_status_t)c))) {
            named++;
        }
    }
    ck_assert_uint_eq(WU_ERRORS_NAMED, named);
}
END_TEST

static const code_text_t proc_states[] = {
    {0, "UNDEFINED"},
    {1, "PREPPED FOR LAUNCH"},
    {2, "LAUNCH UNDERWAY"},
    {3, "PROC READY FOR RESTART"},
    {4, "PROC MARKED FOR TERMINATION"},
    {5, "PROC EXECUTING"},
    {6, "PROC HAS CONNECTED TO LOCAL PMIX SERVER"},
    {7, "UNKNOWN STATE"},
    {8, "UNKNOWN STATE"},
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
    {100, "UNKNOWN STATE"},
    {254, "UNKNOWN STATE"},
    {255, "UNKNOWN STATE"},
};

static const code_text_t job_states[] = {
    {0, "UNDEFINED"},
    {1, "PREPPED FOR LAUNCH"},
    {2, "LAUNCHING"},
    {3, "RUNNING"},
    {4, "SUSPENDED"},
    {5, "CONNECTED"},
    {6, "UNKNOWN"},
    {7, "UNKNOWN"},
    {15, "UNTERMINATED"},
    {20, "TERMINATED"},
    {50, "TERMINATED WITH ERROR"},
    {100, "UNKNOWN"},
    {254, "UNKNOWN"},
    {255, "UNKNOWN"},
};

static const code_text_t scopes[] = {
    {0, "UNDEFINED"},
    {1, "SHARE ON LOCAL NODE ONLY"},
    {2, "SHARE ON REMOTE NODES ONLY"},
    {3, "SHARE ACROSS ALL NODES"},
    {4, "STORE INTERNALLY"},
    {5, "UNKNOWN SCOPE"},
    {6, "UNKNOWN SCOPE"},
    {100, "UNKNOWN SCOPE"},
    {254, "UNKNOWN SCOPE"},
    {255, "UNKNOWN SCOPE"},
};

static const code_text_t persistences[] = {
    {0, "INDEFINITE"},
    {1, "DELETE ON FIRST ACCESS"},
    {2, "RETAIN UNTIL PUBLISHING PROCESS TERMINATES"},
    {3, "RETAIN UNTIL APPLICATION OF PUBLISHING PROCESS TERMINATES"},
    {4, "RETAIN UNTIL ALLOCATION OF PUBLISHING PROCESS TERMINATES"},
    {5, "UNKNOWN PERSISTENCE"},
    {6, "UNKNOWN PERSISTENCE"},
    {100, "UNKNOWN PERSISTENCE"},
    {254, "UNKNOWN PERSISTENCE"},
    {255, "INVALID"},
};

static const code_text_t ranges[] = {
    {0, "UNDEFINED"},
    {1, "INTENDED FOR HOST RESOURCE MANAGER ONLY"},
    {2, "AVAIL ON LOCAL NODE ONLY"},
    {3, "AVAIL TO PROCESSES IN SAME JOB ONLY"},
    {4, "AVAIL TO PROCESSES IN SAME ALLOCATION ONLY"},
    {5, "AVAIL TO ANYONE WITH AUTHORIZATION"},
    {6, "AVAIL AS SPECIFIED IN DIRECTIVES"},
    {7, "AVAIL ON LOCAL PROC ONLY"},
    {8, "UNKNOWN"},
    {9, "UNKNOWN"},
    {100, "UNKNOWN"},
    {254, "UNKNOWN"},
    {255, "INVALID"},
};

static const code_text_t alloc_directives[] = {
    {0, "UNSPECIFIED"},   {1, "NEW"},           {2, "EXTEND"},
    {3, "RELEASE"},       {4, "REACQUIRE"},     {5, "UNSPECIFIED"},
    {100, "UNSPECIFIED"}, {254, "UNSPECIFIED"}, {255, "UNSPECIFIED"},
};

static const code_text_t link_states[] = {
    {0, "UNKNOWN"},   {1, "INACTIVE"},  {2, "ACTIVE"},    {3, "UNKNOWN"},
    {100, "UNKNOWN"}, {254, "UNKNOWN"}, {255, "UNKNOWN"},
};

static const code_text_t comparisons[] = {
    {0, "EQUAL"},           {1, "VALUE1 GREATER"},       {2, "VALUE2 GREATER"},
    {3, "DIFFERENT TYPES"}, {4, "INCOMPATIBLE OBJECTS"}, {5, "COMPARISON NOT AVAILABLE"},
    {6, "UNKNOWN VALUE"},   {7, "UNKNOWN VALUE"},        {8, "UNKNOWN VALUE"},
    {9, "UNKNOWN VALUE"},   {10, "UNKNOWN VALUE"},       {11, "UNKNOWN VALUE"},
    {12, "UNKNOWN VALUE"},  {13, "UNKNOWN VALUE"},       {14, "UNKNOWN VALUE"},
    {15, "UNKNOWN VALUE"},  {16, "UNKNOWN VALUE"},       {17, "UNKNOWN VALUE"},
    {18, "UNKNOWN VALUE"},  {19, "UNKNOWN VALUE"},       {-1, "UNKNOWN VALUE"},
    {-1, "UNKNOWN VALUE"},
};

static const code_text_t data_types[] = {
    {0, "UNKNOWN"},
    {1, "PMIX_BOOL"},
    {2, "PMIX_BYTE"},
    {3, "PMIX_STRING"},
    {4, "PMIX_SIZE"},
    {5, "PMIX_PID"},
    {6, "PMIX_INT"},
    {7, "PMIX_INT8"},
    {8, "PMIX_INT16"},
    {9, "PMIX_INT32"},
    {10, "PMIX_INT64"},
    {11, "PMIX_UINT"},
    {12, "PMIX_UINT8"},
    {13, "PMIX_UINT16"},
    {14, "PMIX_UINT32"},
    {15, "PMIX_UINT64"},
    {16, "PMIX_FLOAT"},
    {17, "PMIX_DOUBLE"},
    {18, "PMIX_TIMEVAL"},
    {19, "PMIX_TIME"},
    {20, "PMIX_STATUS"},
    {21, "PMIX_VALUE"},
    {22, "PMIX_PROC"},
    {23, "PMIX_APP"},
    {24, "PMIX_INFO"},
    {25, "PMIX_PDATA"},
    {26, "PMIX_BUFFER"},
    {27, "PMIX_BYTE_OBJECT"},
    {28, "PMIX_KVAL"},
    {29, "PMIX_MODEX"},
    {30, "PMIX_PERSIST"},
    {31, "PMIX_POINTER"},
    {32, "PMIX_SCOPE"},
    {33, "PMIX_DATA_RANGE"},
    {34, "PMIX_COMMAND"},
    {35, "PMIX_INFO_DIRECTIVES"},
    {36, "PMIX_DATA_TYPE"},
    {37, "PMIX_PROC_STATE"},
    {38, "PMIX_PROC_INFO"},
    {39, "PMIX_DATA_ARRAY"},
    {40, "PMIX_PROC_RANK"},
    {41, "PMIX_QUERY"},
    {42, "PMIX_COMPRESSED_STRING"},
    {43, "PMIX_ALLOC_DIRECTIVE"},
    {44, "PMIX_INFO_ARRAY"},
    {45, "PMIX_IOF_CHANNEL"},
    {46, "PMIX_ENVAR"},
    {47, "PMIX_COORD"},
    {48, "PMIX_REGATTR"},
    {49, "PMIX_REGEX"},
    {50, "PMIX_JOB_STATE"},
    {51, "PMIX_LINK_STATE"},
    {52, "PMIX_PROC_CPUSET"},
    {53, "PMIX_GEOMETRY"},
    {54, "PMIX_DEVICE_DIST"},
    {55, "PMIX_ENDPOINT"},
    {56, "PMIX_TOPO"},
    {57, "PMIX_DEVTYPE"},
    {58, "PMIX_LOCTYPE"},
    {59, "PMIX_COMPRESSED_BYTE_OBJECT"},
    {60, "PMIX_PROC_NSPACE"},
    {61, "PMIX_PROC_STATS"},
    {62, "PMIX_DISK_STATS"},
    {63, "PMIX_NET_STATS"},
    {64, "PMIX_NODE_STATS"},
    {65, "PMIX_DATA_BUFFER"},
    {66, "PMIX_STOR_MEDIUM"},
    {67, "PMIX_STOR_ACCESS"},
    {68, "PMIX_STOR_PERSIST"},
    {69, "PMIX_STOR_ACCESS_TYPE"},
    {70, "UNKNOWN"},
    {500, "UNKNOWN"},
    {65535, "UNKNOWN"},
};

static const code_text_t iof_channels[] = {
    {0, "NONE"},
    {1, "STDIN "},
    {2, "STDOUT "},
    {3, "STDIN STDOUT "},
    {4, "STDERR "},
    {5, "STDIN STDERR "},
    {6, "STDOUT STDERR "},
    {7, "STDIN STDOUT STDERR "},
    {8, "STDDIAG "},
    {9, "STDIN STDDIAG "},
    {10, "STDOUT STDDIAG "},
    {11, "STDIN STDOUT STDDIAG "},
    {12, "STDERR STDDIAG "},
    {13, "STDIN STDERR STDDIAG "},
    {14, "STDOUT STDERR STDDIAG "},
    {15, "STDIN STDOUT STDERR STDDIAG "},
    {16, "NONE"},
    {17, "STDIN "},
    {18, "STDOUT "},
    {19, "STDIN STDOUT "},
    {20, "STDERR "},
    {21, "STDIN STDERR "},
    {22, "STDOUT STDERR "},
    {23, "STDIN STDOUT STDERR "},
    {24, "STDDIAG "},
    {25, "STDIN STDDIAG "},
    {26, "STDOUT STDDIAG "},
    {27, "STDIN STDOUT STDDIAG "},
    {28, "STDERR STDDIAG "},
    {29, "STDIN STDERR STDDIAG "},
    {30, "STDOUT STDERR STDDIAG "},
    {31, "STDIN STDOUT STDERR STDDIAG "},
    {0xfff0, "NONE"},
    {0xffff, "STDIN STDOUT STDERR STDDIAG "},
};

static const code_text_t device_types[] = {
    {0x0, "UNKNOWN"},     {0x1, "BLOCK"},      {0x2, "GPU"},          {0x4, "NETWORK"},
    {0x8, "OPENFABRICS"}, {0x10, "DMA"},       {0x20, "COPROCESSOR"}, {0x40, "UNKNOWN"},
    {0x3, "UNKNOWN"},     {0xffff, "UNKNOWN"}, {-1L, "UNKNOWN"},
};

static const code_text_t directives[] = {
    {0x0, "OPTIONAL"},
    {0x1, "REQUIRED"},
    {0x2, "OPTIONAL:END"},
    {0x3, "REQUIRED:END"},
    {0x4, "OPTIONAL:PROCESSED"},
    {0x5, "REQUIRED:PROCESSED"},
    {0x6, "OPTIONAL:PROCESSED:END"},
    {0x7, "REQUIRED:PROCESSED:END"},
    {0x8, "QUALIFIER"},
    {0xf, "QUALIFIER"},
    {0x10, "OPTIONAL"},
    {0x17, "REQUIRED:PROCESSED:END"},
    {0x10000, "OPTIONAL"},
    {0x10008, "QUALIFIER"},
    {0xffff0001, "REQUIRED"},
    {0x80000004, "OPTIONAL:PROCESSED"},
    {0xffffffff, "QUALIFIER"},
};

#define ENUM_TEST(name, table, fn, type)                            \
    START_TEST(name)                                                \
    {                                                               \
        ck_assert_str_eq(table[_i].text, fn((type)table[_i].code)); \
    }                                                               \
    END_TEST

ENUM_TEST(proc_state_strings, proc_states, PMIx_Proc_state_string, pmix_proc_state_t)
ENUM_TEST(job_state_strings, job_states, PMIx_Job_state_string, pmix_job_state_t)
ENUM_TEST(scope_strings, scopes, PMIx_Scope_string, pmix_scope_t)
ENUM_TEST(persistence_strings, persistences, PMIx_Persistence_string, pmix_persistence_t)
ENUM_TEST(range_strings, ranges, PMIx_Data_range_string, pmix_data_range_t)
ENUM_TEST(alloc_directive_strings, alloc_directives, PMIx_Alloc_directive_string,
          pmix_alloc_directive_t)
ENUM_TEST(link_state_strings, link_states, PMIx_Link_state_string, pmix_link_state_t)
ENUM_TEST(comparison_strings, comparisons, PMIx_Value_comparison_string, pmix_value_cmp_t)
ENUM_TEST(data_type_strings, data_types, PMIx_Data_type_string, pmix_data_type_t)
ENUM_TEST(iof_channel_strings, iof_channels, PMIx_IOF_channel_string, pmix_iof_channel_t)
ENUM_TEST(device_type_strings, device_types, PMIx_Device_type_string, pmix_device_type_t)

START_TEST(directive_strings)
{
    char *s = PMIx_Info_directives_string((pmix_info_directives_t)directives[_i].code);
    ck_assert_ptr_nonnull(s);
    ck_assert_str_eq(directives[_i].text, s);
    free(s); /* allocated: LeakSanitizer fails the run if it were leaked or static */
}
END_TEST

/* Attribute names and key strings: our header's macros against OpenPMIx's observed table. */
static const struct {
    const char *name, *macro_value, *observed;
} attrs[] = {
    {"PMIX_HOSTNAME", PMIX_HOSTNAME, "pmix.hname"},
    {"PMIX_RANK", PMIX_RANK, "pmix.rank"},
    {"PMIX_JOBID", PMIX_JOBID, "pmix.jobid"},
    {"PMIX_LOCAL_PEERS", PMIX_LOCAL_PEERS, "pmix.lpeers"},
    {"PMIX_CPUSET", PMIX_CPUSET, "pmix.cpuset"},
    {"PMIX_TIMEOUT", PMIX_TIMEOUT, "pmix.timeout"},
    {"PMIX_ATTR_UNDEF", PMIX_ATTR_UNDEF, "pmix.undef"},
    {"PMIX_EXTERNAL_PROGRESS", PMIX_EXTERNAL_PROGRESS, "pmix.evext"},
    {"PMIX_SERVER_TOOL_SUPPORT", PMIX_SERVER_TOOL_SUPPORT, "pmix.srvr.tool"},
    {"PMIX_CONNECT_MAX_RETRIES", PMIX_CONNECT_MAX_RETRIES, "pmix.tool.mretries"},
    {"PMIX_QUERY_QUALIFIERS", PMIX_QUERY_QUALIFIERS, "pmix.qry.quals"},
    {"PMIX_ALLOC_FABRIC", PMIX_ALLOC_FABRIC, "pmix.alloc.net"},
    {"PMIX_PROC_INFO_ARRAY", PMIX_PROC_INFO_ARRAY, "pmix.pdata"},
    {"PMIX_LAUNCHER_RNDZ_URI", PMIX_LAUNCHER_RNDZ_URI, "PMIX_LAUNCHER_RNDZ_URI"},
    {"PMIX_KEEPALIVE_PIPE", PMIX_KEEPALIVE_PIPE, "PMIX_KEEPALIVE_PIPE"},
    /* deprecated names (pmix_deprecated.h) are known too */
    {"PMIX_ALLOC_NETWORK", PMIX_ALLOC_NETWORK, "pmix.alloc.net"},
    {"PMIX_PROC_DATA", PMIX_PROC_DATA, "pmix.pdata"},
};

START_TEST(attribute_string_of_name)
{
    ck_assert_str_eq(attrs[_i].observed, attrs[_i].macro_value);
    ck_assert_str_eq(attrs[_i].observed, PMIx_Get_attribute_string(attrs[_i].name));
}
END_TEST

/* Key strings shared by several names answer with the first name in header order. */
static const struct {
    const char *key, *name;
} reverse[] = {
    {"pmix.hname", "PMIX_HOSTNAME"},
    {"pmix.qry.quals", "PMIX_QUERY_QUALIFIERS"},
    {"pmix.jctrl.ckptsig", "PMIX_JOB_CTRL_CHECKPOINT_SIGNAL"},
    {"pmix.fab.coord", "PMIX_FABRIC_COORDINATES"},
    {"pmix.alloc.net", "PMIX_ALLOC_FABRIC"},
    {"pmix.alloc.netid", "PMIX_ALLOC_FABRIC_ID"},
    {"pmix.alloc.netqos", "PMIX_ALLOC_FABRIC_QOS"},
    {"pmix.alloc.nettype", "PMIX_ALLOC_FABRIC_TYPE"},
    {"pmix.alloc.netplane", "PMIX_ALLOC_FABRIC_PLANE"},
    {"pmix.alloc.endpts", "PMIX_ALLOC_FABRIC_ENDPTS"},
    {"pmix.alloc.endpts.nd", "PMIX_ALLOC_FABRIC_ENDPTS_NODE"},
    {"pmix.alloc.nsec", "PMIX_ALLOC_FABRIC_SEC_KEY"},
    {"pmix.pdata", "PMIX_PROC_INFO_ARRAY"},
    {"pmix.undef", "PMIX_ATTR_UNDEF"},
};

START_TEST(attribute_name_of_string)
{
    ck_assert_str_eq(reverse[_i].name, PMIx_Get_attribute_name(reverse[_i].key));
}
END_TEST

/* Unknown input comes back as the very pointer given; NULL gives NULL instead of a crash. */
START_TEST(attribute_unknown_passthrough)
{
    const char *foo = "PMIX_FOO", *bar = "pmix.foo";
    ck_assert_ptr_eq(foo, PMIx_Get_attribute_string(foo));
    ck_assert_ptr_eq(bar, PMIx_Get_attribute_name(bar));
    ck_assert_ptr_eq(NULL, PMIx_Get_attribute_string(NULL));
    ck_assert_ptr_eq(NULL, PMIx_Get_attribute_name(NULL));
    /* keys are not names and names are not keys */
    ck_assert_str_eq("pmix.hname", PMIx_Get_attribute_string("pmix.hname"));
    ck_assert_str_eq("PMIX_HOSTNAME", PMIx_Get_attribute_name("PMIX_HOSTNAME"));
}
END_TEST

#define LOOP(tc, test, table) \
    tcase_add_loop_test(tc, test, 0, (int)(sizeof(table) / sizeof(table[0])))

static Suite *pmix_strings_suite(void)
{
    Suite *s = suite_create("pmix_strings");
    TCase *tc = tcase_create("enums");
    tcase_set_timeout(tc, 30);
    LOOP(tc, error_strings, WU_ERRORS);
    LOOP(tc, error_codes_from_either_text, errors);
    tcase_add_test(tc, error_strings_unnamed);
    LOOP(tc, proc_state_strings, proc_states);
    LOOP(tc, job_state_strings, job_states);
    LOOP(tc, scope_strings, scopes);
    LOOP(tc, persistence_strings, persistences);
    LOOP(tc, range_strings, ranges);
    LOOP(tc, alloc_directive_strings, alloc_directives);
    LOOP(tc, link_state_strings, link_states);
    LOOP(tc, comparison_strings, comparisons);
    LOOP(tc, data_type_strings, data_types);
    LOOP(tc, iof_channel_strings, iof_channels);
    LOOP(tc, device_type_strings, device_types);
    LOOP(tc, directive_strings, directives);
    suite_add_tcase(s, tc);

    tc = tcase_create("attributes");
    tcase_set_timeout(tc, 10);
    LOOP(tc, attribute_string_of_name, attrs);
    LOOP(tc, attribute_name_of_string, reverse);
    tcase_add_test(tc, attribute_unknown_passthrough);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(pmix_strings_suite)
