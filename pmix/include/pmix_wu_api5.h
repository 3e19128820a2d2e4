/* SPDX-License-Identifier: BSD-3-Clause */
/* pmix_wu_api5.h -- the functions the PMIx 5 API adds beside the 4.2 ones: a construct, destruct,
 * create and free function for every public struct (the PMIX_*_CONSTRUCT/... macros as library
 * calls), argv and environment helpers, name and key checks, info flag accessors, sizes, strings
 * and session control. Included by pmix.h only; OpenPMIx 5 declares the same functions in its
 * pmix.h, with the same names and signatures (checked by test/abi).
 *
 * Conventions:
 * - X_create(n) returns n constructed elements (NULL when n is 0 or memory is short); X_free(p, n)
 *   destructs the n elements of p and frees p. X_release(p) is X_free(p, 1).
 * - Every function accepts NULL where it takes a pointer to work on, and then does nothing (or
 *   returns false, NULL or PMIX_ERR_BAD_PARAM).
 * - The functions behave as the macros of the same name in pmix_common.h, so a program gets
 *   the same result whichever of the two its headers used. */
#ifndef PMIX_WU_API5_H
#define PMIX_WU_API5_H

#ifndef PMIx_H
#error "include pmix.h, not pmix_wu_api5.h"
#endif

#if defined(c_plusplus) || defined(__cplusplus)
extern "C" {
#endif

/* ---- argv and environment (an argv is a NULL-terminated array of malloc'ed strings) ---- */

/* Append (prepend) a copy of arg to *argv, growing it; PMIX_ERR_NOMEM when memory is short. */
PMIX_EXPORT pmix_status_t PMIx_Argv_append_nosize(char ***argv, const char *arg);
PMIX_EXPORT pmix_status_t PMIx_Argv_prepend_nosize(char ***argv, const char *arg);
/* Append a copy of arg unless *argv already holds an equal string. */
PMIX_EXPORT pmix_status_t PMIx_Argv_append_unique_nosize(char ***argv, const char *arg);
/* Free every string of argv and argv itself. */
PMIX_EXPORT void PMIx_Argv_free(char **argv);
/* Split src at each delimiter: Argv_split drops empty fields, _with_empty keeps them, and
 * _inter chooses by include_empty. NULL for NULL or when memory is short. */
PMIX_EXPORT char **PMIx_Argv_split_inter(const char *src_string, int delimiter, bool include_empty);
PMIX_EXPORT char **PMIx_Argv_split_with_empty(const char *src_string, int delimiter);
PMIX_EXPORT char **PMIx_Argv_split(const char *src_string, int delimiter);
/* The number of strings in a (0 for NULL). */
PMIX_EXPORT int PMIx_Argv_count(char **a);
/* The strings of argv joined by delimiter into one malloc'ed string ("" for an empty argv). */
PMIX_EXPORT char *PMIx_Argv_join(char **argv, int delimiter);
/* A deep copy of argv (NULL for NULL). */
PMIX_EXPORT char **PMIx_Argv_copy(char **argv);
/* Set name=value in *env (in the process environment when *env is environ). An existing entry
 * is replaced only when overwrite is true; otherwise the answer is PMIX_ERR_EXISTS. */
PMIX_EXPORT pmix_status_t PMIx_Setenv(const char *name, const char *value, bool overwrite,
                                      char ***env);

/* ---- keys, namespaces and process names ---- */

PMIX_EXPORT void PMIx_Value_construct(pmix_value_t *val);
PMIX_EXPORT pmix_value_t *PMIx_Value_create(size_t n);
PMIX_EXPORT void PMIx_Value_free(pmix_value_t *v, size_t n);
/* PMIX_BOOL_TRUE or PMIX_BOOL_FALSE for a boolean-like value, else PMIX_NON_BOOL. */
PMIX_EXPORT pmix_boolean_t PMIx_Value_true(const pmix_value_t *v);
/* The bytes the value takes: the struct and what it points to. */
PMIX_EXPORT pmix_status_t PMIx_Value_get_size(const pmix_value_t *val, size_t *size);

PMIX_EXPORT void PMIx_Info_construct(pmix_info_t *p);
PMIX_EXPORT void PMIx_Info_destruct(pmix_info_t *p);
PMIX_EXPORT pmix_info_t *PMIx_Info_create(size_t n);
PMIX_EXPORT void PMIx_Info_free(pmix_info_t *p, size_t n);
PMIX_EXPORT pmix_boolean_t PMIx_Info_true(const pmix_info_t *p);
/* The bytes the info takes: the struct, its key and its value's payload. */
PMIX_EXPORT pmix_status_t PMIx_Info_get_size(const pmix_info_t *val, size_t *size);
/* Info flags, as the PMIX_INFO_REQUIRED/... macros. */
PMIX_EXPORT void PMIx_Info_required(pmix_info_t *p);
PMIX_EXPORT void PMIx_Info_optional(pmix_info_t *p);
PMIX_EXPORT bool PMIx_Info_is_required(const pmix_info_t *p);
PMIX_EXPORT bool PMIx_Info_is_optional(const pmix_info_t *p);
PMIX_EXPORT void PMIx_Info_processed(pmix_info_t *p);
PMIX_EXPORT bool PMIx_Info_was_processed(const pmix_info_t *p);
PMIX_EXPORT void PMIx_Info_set_end(pmix_info_t *p);
PMIX_EXPORT bool PMIx_Info_is_end(const pmix_info_t *p);
PMIX_EXPORT void PMIx_Info_qualifier(pmix_info_t *p);
PMIX_EXPORT bool PMIx_Info_is_qualifier(const pmix_info_t *p);
PMIX_EXPORT void PMIx_Info_persistent(pmix_info_t *p);
PMIX_EXPORT bool PMIx_Info_is_persistent(const pmix_info_t *p);
/* true when key equals str (up to PMIX_MAX_KEYLEN characters). */
PMIX_EXPORT bool PMIx_Check_key(const char *key, const char *str);
/* true for a key of the "pmix" reserved prefix. */
PMIX_EXPORT bool PMIx_Check_reserved_key(const char *key);
PMIX_EXPORT void PMIx_Load_key(pmix_key_t key, const char *src);
PMIX_EXPORT void PMIx_Load_nspace(pmix_nspace_t nspace, const char *str);
/* Namespaces match when equal or when either is empty (a wildcard). */
PMIX_EXPORT bool PMIx_Check_nspace(const char *key1, const char *key2);
PMIX_EXPORT bool PMIx_Nspace_invalid(const char *nspace);
/* Ranks match when equal or when either is PMIX_RANK_WILDCARD. */
PMIX_EXPORT bool PMIx_Check_rank(pmix_rank_t a, pmix_rank_t b);
PMIX_EXPORT bool PMIx_Check_procid(const pmix_proc_t *a, const pmix_proc_t *b);
PMIX_EXPORT bool PMIx_Procid_invalid(const pmix_proc_t *p);
PMIX_EXPORT void PMIx_Load_procid(pmix_proc_t *p, const char *ns, pmix_rank_t rk);
PMIX_EXPORT void PMIx_Xfer_procid(pmix_proc_t *dst, const pmix_proc_t *src);
/* "cluster:nspace" names, as PMIX_MULTICLUSTER_NSPACE_CONSTRUCT/PARSE. */
PMIX_EXPORT void PMIx_Multicluster_nspace_construct(pmix_nspace_t target, pmix_nspace_t cluster,
                                                    pmix_nspace_t nspace);
PMIX_EXPORT void PMIx_Multicluster_nspace_parse(pmix_nspace_t target, pmix_nspace_t cluster,
                                                pmix_nspace_t nspace);

/* ---- construct / destruct / create / free of the public structs ---- */

PMIX_EXPORT void PMIx_Proc_construct(pmix_proc_t *p);
PMIX_EXPORT void PMIx_Proc_destruct(pmix_proc_t *p);
PMIX_EXPORT pmix_proc_t *PMIx_Proc_create(size_t n);
PMIX_EXPORT void PMIx_Proc_free(pmix_proc_t *p, size_t n);
PMIX_EXPORT void PMIx_Proc_load(pmix_proc_t *p, const char *nspace, pmix_rank_t rank);

PMIX_EXPORT void PMIx_Proc_info_construct(pmix_proc_info_t *p);
PMIX_EXPORT void PMIx_Proc_info_destruct(pmix_proc_info_t *p);
PMIX_EXPORT pmix_proc_info_t *PMIx_Proc_info_create(size_t n);
PMIX_EXPORT void PMIx_Proc_info_free(pmix_proc_info_t *p, size_t n);

PMIX_EXPORT void PMIx_Proc_stats_construct(pmix_proc_stats_t *p);
PMIX_EXPORT void PMIx_Proc_stats_destruct(pmix_proc_stats_t *p);
PMIX_EXPORT pmix_proc_stats_t *PMIx_Proc_stats_create(size_t n);
PMIX_EXPORT void PMIx_Proc_stats_free(pmix_proc_stats_t *p, size_t n);

PMIX_EXPORT void PMIx_Disk_stats_construct(pmix_disk_stats_t *p);
PMIX_EXPORT void PMIx_Disk_stats_destruct(pmix_disk_stats_t *p);
PMIX_EXPORT pmix_disk_stats_t *PMIx_Disk_stats_create(size_t n);
PMIX_EXPORT void PMIx_Disk_stats_free(pmix_disk_stats_t *p, size_t n);

PMIX_EXPORT void PMIx_Net_stats_construct(pmix_net_stats_t *p);
PMIX_EXPORT void PMIx_Net_stats_destruct(pmix_net_stats_t *p);
PMIX_EXPORT pmix_net_stats_t *PMIx_Net_stats_create(size_t n);
PMIX_EXPORT void PMIx_Net_stats_free(pmix_net_stats_t *p, size_t n);

PMIX_EXPORT void PMIx_Node_stats_construct(pmix_node_stats_t *p);
PMIX_EXPORT void PMIx_Node_stats_destruct(pmix_node_stats_t *p);
PMIX_EXPORT pmix_node_stats_t *PMIx_Node_stats_create(size_t n);
PMIX_EXPORT void PMIx_Node_stats_free(pmix_node_stats_t *p, size_t n);

PMIX_EXPORT void PMIx_Pdata_construct(pmix_pdata_t *p);
PMIX_EXPORT void PMIx_Pdata_destruct(pmix_pdata_t *p);
PMIX_EXPORT pmix_pdata_t *PMIx_Pdata_create(size_t n);
PMIX_EXPORT void PMIx_Pdata_free(pmix_pdata_t *p, size_t n);

PMIX_EXPORT void PMIx_App_construct(pmix_app_t *p);
PMIX_EXPORT void PMIx_App_destruct(pmix_app_t *p);
PMIX_EXPORT pmix_app_t *PMIx_App_create(size_t n);
/* Give the app n constructed infos (p->info, p->ninfo), replacing none it has. */
PMIX_EXPORT void PMIx_App_info_create(pmix_app_t *p, size_t n);
PMIX_EXPORT void PMIx_App_free(pmix_app_t *p, size_t n);
PMIX_EXPORT void PMIx_App_release(pmix_app_t *p);

PMIX_EXPORT void PMIx_Query_construct(pmix_query_t *p);
PMIX_EXPORT void PMIx_Query_destruct(pmix_query_t *p);
PMIX_EXPORT pmix_query_t *PMIx_Query_create(size_t n);
/* Give the query n constructed qualifiers (p->qualifiers, p->nqual). */
PMIX_EXPORT void PMIx_Query_qualifiers_create(pmix_query_t *p, size_t n);
PMIX_EXPORT void PMIx_Query_free(pmix_query_t *p, size_t n);
PMIX_EXPORT void PMIx_Query_release(pmix_query_t *p);

PMIX_EXPORT void PMIx_Regattr_construct(pmix_regattr_t *p);
PMIX_EXPORT void PMIx_Regattr_destruct(pmix_regattr_t *p);
PMIX_EXPORT pmix_regattr_t *PMIx_Regattr_create(size_t n);
PMIX_EXPORT void PMIx_Regattr_free(pmix_regattr_t *p, size_t n);
/* Fill info with copies of name, key and description; type as given. */
PMIX_EXPORT void PMIx_Regattr_load(pmix_regattr_t *info, const char *name, const char *key,
                                   pmix_data_type_t type, const char *description);
/* A deep copy of src into dest. */
PMIX_EXPORT void PMIx_Regattr_xfer(pmix_regattr_t *dest, const pmix_regattr_t *src);

PMIX_EXPORT void PMIx_Coord_construct(pmix_coord_t *m);
PMIX_EXPORT void PMIx_Coord_destruct(pmix_coord_t *m);
/* number coordinates of dims zeroed dimensions each. */
PMIX_EXPORT pmix_coord_t *PMIx_Coord_create(size_t dims, size_t number);
PMIX_EXPORT void PMIx_Coord_free(pmix_coord_t *m, size_t number);

PMIX_EXPORT void PMIx_Cpuset_construct(pmix_cpuset_t *cpuset);
PMIX_EXPORT pmix_cpuset_t *PMIx_Cpuset_create(size_t n);
PMIX_EXPORT void PMIx_Cpuset_free(pmix_cpuset_t *c, size_t n);

PMIX_EXPORT void PMIx_Topology_construct(pmix_topology_t *t);
PMIX_EXPORT pmix_topology_t *PMIx_Topology_create(size_t n);
PMIX_EXPORT void PMIx_Topology_free(pmix_topology_t *t, size_t n);

PMIX_EXPORT void PMIx_Geometry_construct(pmix_geometry_t *g);
PMIX_EXPORT void PMIx_Geometry_destruct(pmix_geometry_t *g);
PMIX_EXPORT pmix_geometry_t *PMIx_Geometry_create(size_t n);
PMIX_EXPORT void PMIx_Geometry_free(pmix_geometry_t *g, size_t n);

PMIX_EXPORT void PMIx_Device_distance_construct(pmix_device_distance_t *d);
PMIX_EXPORT void PMIx_Device_distance_destruct(pmix_device_distance_t *d);
PMIX_EXPORT pmix_device_distance_t *PMIx_Device_distance_create(size_t n);
PMIX_EXPORT void PMIx_Device_distance_free(pmix_device_distance_t *d, size_t n);

PMIX_EXPORT void PMIx_Byte_object_construct(pmix_byte_object_t *b);
PMIX_EXPORT void PMIx_Byte_object_destruct(pmix_byte_object_t *g);
PMIX_EXPORT pmix_byte_object_t *PMIx_Byte_object_create(size_t n);
PMIX_EXPORT void PMIx_Byte_object_free(pmix_byte_object_t *g, size_t n);
/* b takes the sz bytes at d (which the caller no longer frees). */
PMIX_EXPORT void PMIx_Byte_object_load(pmix_byte_object_t *b, char *d, size_t sz);

PMIX_EXPORT void PMIx_Endpoint_construct(pmix_endpoint_t *e);
PMIX_EXPORT void PMIx_Endpoint_destruct(pmix_endpoint_t *e);
PMIX_EXPORT pmix_endpoint_t *PMIx_Endpoint_create(size_t n);
PMIX_EXPORT void PMIx_Endpoint_free(pmix_endpoint_t *e, size_t n);

PMIX_EXPORT void PMIx_Envar_construct(pmix_envar_t *e);
PMIX_EXPORT void PMIx_Envar_destruct(pmix_envar_t *e);
PMIX_EXPORT pmix_envar_t *PMIx_Envar_create(size_t n);
PMIX_EXPORT void PMIx_Envar_free(pmix_envar_t *e, size_t n);
/* Fill e with copies of var and value, and the separator. */
PMIX_EXPORT void PMIx_Envar_load(pmix_envar_t *e, char *var, char *value, char separator);

PMIX_EXPORT void PMIx_Data_buffer_construct(pmix_data_buffer_t *b);
PMIX_EXPORT void PMIx_Data_buffer_destruct(pmix_data_buffer_t *b);
PMIX_EXPORT pmix_data_buffer_t *PMIx_Data_buffer_create(void);
PMIX_EXPORT void PMIx_Data_buffer_release(pmix_data_buffer_t *b);
/* b takes the sz packed bytes at bytes (which the caller no longer frees). */
PMIX_EXPORT void PMIx_Data_buffer_load(pmix_data_buffer_t *b, char *bytes, size_t sz);
/* Take b's unread bytes out into *bytes and *sz (NULL and 0 when there are none). */
PMIX_EXPORT void PMIx_Data_buffer_unload(pmix_data_buffer_t *b, char **bytes, size_t *sz);

/* An empty array of the given type. */
PMIX_EXPORT void PMIx_Data_array_init(pmix_data_array_t *p, pmix_data_type_t type);
/* An array of num constructed elements of the given type. */
PMIX_EXPORT void PMIx_Data_array_construct(pmix_data_array_t *p, size_t num, pmix_data_type_t type);
PMIX_EXPORT pmix_data_array_t *PMIx_Data_array_create(size_t n, pmix_data_type_t type);
/* Destruct the array's elements and free the array and p. */
PMIX_EXPORT void PMIx_Data_array_free(pmix_data_array_t *p);

/* ---- strings and codes ---- */

/* "[nspace,rank]" (malloc'ed), with special ranks spelled UNDEF, WILDCARD, LOCAL_NODE,
 * LOCAL_PEERS and INVALID; "[NO-NAME]" for NULL. */
PMIX_EXPORT char *PMIx_Proc_string(const pmix_proc_t *proc);
/* A multi-line description of an app: command, argv, env, cwd, maxprocs, info (malloc'ed). */
PMIX_EXPORT char *PMIx_App_string(const pmix_app_t *app);
/* The status code whose PMIx_Error_string is errname (ignoring case); INT32_MIN for a name no
 * code has. */
PMIX_EXPORT pmix_status_t PMIx_Error_code(const char *errname);

/* ---- sessions ---- */

/* Ask the scheduler or system controller to act on session sessionID (PMIX_SESSION_PAUSE,
 * _RESUME, _TERMINATE, ...). cbfunc, when given, receives the outcome. */
PMIX_EXPORT pmix_status_t PMIx_Session_control(uint32_t sessionID, const pmix_info_t directives[],
                                               size_t ndirs, pmix_info_cbfunc_t cbfunc,
                                               void *cbdata);

#if defined(c_plusplus) || defined(__cplusplus)
}
#endif

#endif /* PMIX_WU_API5_H */
