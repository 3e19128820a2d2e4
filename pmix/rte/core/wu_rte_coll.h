/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_coll.h -- the runtime's collective engine: collections that wait for an expected set of
 * contributors (slots), take their contributions, time out, and say who is missing. The head
 * node's fences (dist/wu_rte_dvm_coll.c), a relay's aggregation of its branch's fences
 * (dist/wu_rte_relay_coll.c) and PMIx_Connect / PMIx_Group_* across nodes (svc/wu_rte_connect.c)
 * are each a set of such collections; what they differ in (what a slot is, what a contribution
 * carries, what completion sends where) stays with them.
 *
 * A collection has a kind and a key (the packed participant set, and whatever else tells its
 * collections apart), a number of slots (nodes, servers), which of them are expected and which
 * have contributed. The set keeps its open collections in the order they were opened: a
 * contribution goes to the oldest open collection of its kind and key that its slot has not
 * contributed to, so the n-th collective of a participant set on every node meets the others'
 * n-th. An owner extends a collection as a class derived from wu_rte_coll_t (its first member),
 * created with WU_NEW and set up with wu_rte_coll_open; closing it releases it, the owner's
 * destructor first.
 *
 * Everything runs on one progress thread: the one given to the set, on which the timeouts fire
 * (NULL: the set has no timeouts). */
#ifndef WU_RTE_COLL_H
#define WU_RTE_COLL_H

#include "opal/class/wu_list.h"
#include "opal/event/wu_progress.h"
#include "opal/util/wu_macros.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct wu_rte_coll wu_rte_coll_t;
typedef struct wu_rte_colls wu_rte_colls_t;

/* A collection's timeout ran out (on the set's progress thread): the owner ends it (it stays
 * open until the owner closes it). */
typedef void (*wu_rte_coll_expired_fn)(wu_rte_coll_t *c);

struct wu_rte_colls {
    wu_list_t *open;                /* the open collections, oldest first */
    wu_progress_t *pt;              /* where timeouts fire */
    wu_rte_coll_expired_fn expired; /* what a timeout does */
};

struct wu_rte_coll {
    wu_list_item_t super;
    wu_rte_colls_t *set; /* NULL once closed */
    int kind;            /* the owner's: collections of different kinds never meet */
    char *key;           /* the participant set, packed, and what else tells collections apart */
    size_t keylen;
    uint32_t nslots;
    bool *expect; /* per slot: a contribution is expected from it */
    bool *from;   /* per slot: its contribution arrived */
    uint32_t nexpect, nfrom;
    bool sealed; /* takes no more contributions (complete, its result on the way) */
    char *data;  /* the data of the contributions, in arrival order (wu_rte_coll_add) */
    size_t ndata;
    int timeout; /* seconds, once armed */
    wu_timer_t *timer;
};
WU_CLASS_DECLARATION(wu_rte_coll_t);

/* Set up an empty set; pt and expired may be NULL (no timeouts). WU_ERR_NOMEM: the set stays
 * empty and takes nothing (wu_rte_coll_open fails). */
int wu_rte_colls_init(wu_rte_colls_t *s, wu_progress_t *pt, wu_rte_coll_expired_fn expired);
/* Close every open collection, telling no one. */
void wu_rte_colls_fini(wu_rte_colls_t *s);
/* The oldest open collection, and the one opened after c (NULL: none). */
wu_rte_coll_t *wu_rte_colls_first(const wu_rte_colls_t *s);
wu_rte_coll_t *wu_rte_colls_next(const wu_rte_colls_t *s, const wu_rte_coll_t *c);

/* c is of this kind and key. */
bool wu_rte_coll_is(const wu_rte_coll_t *c, int kind, const char *key, size_t keylen);
/* The oldest open, unsealed collection of kind and key that slot has not contributed to (a slot
 * past nslots: any of them); NULL if none. */
wu_rte_coll_t *wu_rte_coll_match(const wu_rte_colls_t *s, int kind, const char *key, size_t keylen,
                                 uint32_t slot);
/* Set up c (made with WU_NEW of the owner's class) with a copy of key and nslots slots, none
 * expected yet, and append it to s. WU_ERR_NOMEM: c is released. */
int wu_rte_coll_open(wu_rte_colls_t *s, wu_rte_coll_t *c, int kind, const char *key, size_t keylen,
                     uint32_t nslots);
/* Expect a contribution from slot (once is enough). */
void wu_rte_coll_expect(wu_rte_coll_t *c, uint32_t slot);
/* slot is expected and has not contributed. */
bool wu_rte_coll_waits_for(const wu_rte_coll_t *c, uint32_t slot);
/* slot contributes, with data (copied; may be none). WU_ERR_BAD_PARAM: slot is not expected or
 * has contributed already; WU_ERR_NOMEM: nothing changed. */
int wu_rte_coll_add(wu_rte_coll_t *c, uint32_t slot, const char *data, size_t ndata);
/* Every expected slot has contributed. */
bool wu_rte_coll_complete(const wu_rte_coll_t *c);
/* Start c's timeout (seconds > 0), unless started already or the set has none. */
void wu_rte_coll_arm(wu_rte_coll_t *c, int seconds);
/* The expected slots that have not contributed, named by name(slot, arg) and joined by sep: a
 * string to free, NULL if none (or out of memory). A NULL name leaves that slot out. */
char *wu_rte_coll_missing(const wu_rte_coll_t *c, char *(*name)(uint32_t slot, void *arg),
                          void *arg, char sep);
/* Take c out of its set, stop its timer and release it (NULL: nothing). */
void wu_rte_coll_close(wu_rte_coll_t *c);

#endif
