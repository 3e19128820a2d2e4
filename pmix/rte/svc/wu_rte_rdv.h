/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_rdv.h -- the rendezvous directory: where the wrun instances of one user on one machine
 * share what their jobs publish into the session and global ranges, so that two separate jobs
 * can find each other (MPI_Publish_name in one, MPI_Lookup_name in the other).
 *
 * The directory is the parameter rte_rdv_dir (default: "wu-rdv.<uid>" in the temporary
 * directory), made on first use with mode 0700 and refused unless it is a directory of ours
 * that only we can write. Each published key is one file, named after its range and key,
 * created atomically (link(2)), so the same key in the same range cannot be published twice by
 * two instances. A file names the wrun that wrote it (pid and start time): a file of a wrun
 * that has ended is stale and is removed by whoever comes across it, unless its data were
 * published with PMIX_PERSIST_INDEF. A wrun removes its files when their data go, and the
 * directory when it is empty. Lookups that wait watch the directory (inotify, and a look every
 * second for file systems without it). Everything runs on the rte thread. */
#ifndef WU_RTE_RDV_H
#define WU_RTE_RDV_H

#include "pmix_common.h"

#include <stdbool.h>
#include <stdint.h>

/* Share key (range), published by owner of user uid with persistence persist. PMIX_SUCCESS;
 * PMIX_ERR_DUPLICATE_KEY when a running wrun (this one included) has it; PMIX_ERR_NOT_AVAILABLE
 * when there is no usable directory (said once); PMIX_ERR_NOMEM or an I/O error. */
pmix_status_t wu_rte_rdv_publish(const char *key, pmix_data_range_t range,
                                 pmix_persistence_t persist, const pmix_proc_t *owner, uint32_t uid,
                                 const pmix_value_t *value);
/* Remove this wrun's shared key (range), if it is there. */
void wu_rte_rdv_unpublish(const char *key, pmix_data_range_t range);
/* Is key (range) shared by another wrun, readable for uid? Takes nothing. */
bool wu_rte_rdv_has(const char *key, pmix_data_range_t range, uint32_t uid);
/* Read key (range) shared by another wrun: its publisher and value (the caller's to destruct).
 * Data published with PMIX_PERSIST_FIRST_READ go with this read. PMIX_SUCCESS or
 * PMIX_ERR_NOT_FOUND. */
pmix_status_t wu_rte_rdv_lookup(const char *key, pmix_data_range_t range, uint32_t uid,
                                pmix_proc_t *owner, pmix_value_t *value);
/* Watch the directory for changed() while on (lookups and connects that wait), calling it
 * when something may have been written there. Several callbacks may watch at once. */
void wu_rte_rdv_watch(bool on, void (*changed)(void));

/* Files of other kinds (a connect's contributions): name is a plain file name (no '/'),
 * starting with a letter other than k, t and c (which are this module's own). */
/* Write name with the n bytes at p, atomically (readers see all of it or nothing), owned by
 * this wrun: removed by wu_rte_rdv_remove or at wu_rte_rdv_finalize. PMIX_ERR_NOT_AVAILABLE
 * without a usable directory. */
pmix_status_t wu_rte_rdv_put(const char *name, const void *p, size_t n);
/* Call fn for each file whose name starts with prefix, written by another wrun that still runs
 * (files of wruns that have ended are removed), with its bytes, until fn returns false. */
void wu_rte_rdv_scan(const char *prefix,
                     bool (*fn)(const char *name, const char *p, size_t n, void *arg), void *arg);
/* Remove this wrun's file name. */
void wu_rte_rdv_remove(const char *name);
/* wrun ends: its files go (but PMIX_PERSIST_INDEF data), and the directory if it is empty. */
void wu_rte_rdv_finalize(void);
/* Register the parameter rte_rdv_dir. */
int wu_rte_rdv_register(void);

#endif
