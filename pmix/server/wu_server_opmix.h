/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server_opmix.h -- what the files serving processes on OpenPMIx's library share
 * (wu_server_opmix.c: handshake, job data, replies and events; wu_server_opmix_cmds.c: each
 * command translated to Wireup's; wu_server_opmix_reply.c: each reply converted back, and the
 * groups; wu_server_opmix_tool.c: tools). Internal to the server. */
#ifndef WU_SERVER_OPMIX_H
#define WU_SERVER_OPMIX_H

#include "pmix/common/wu_obfr.h"
#include "pmix/server/wu_server.h"

/* A group OpenPMIx clients constructed: 4.x destructs one by its name alone. */
typedef struct wu_srv_ogroup {
    struct wu_srv_ogroup *next;
    char *name;
    pmix_proc_t *members;
    size_t nmembers;
} wu_srv_ogroup_t;

/* A request handed to Wireup's handler whose reply is still to be converted. */
typedef struct wu_srv_opending {
    struct wu_srv_opending *next;
    uint32_t tag;
    uint8_t cmd;      /* OpenPMIx's */
    pmix_proc_t proc; /* GET: whose data */
    char *key;        /* GET: the key; GROUP_*: the group's name */
    char **nspaces;   /* CONNECT: the namespaces taking part (argv) */
} wu_srv_opending_t;

/* The OpenPMIx state of a peer (wu_srv_peer_t.ox). */
struct wu_srv_opmix {
    uint8_t btype;    /* its buffer type (WU_OBFR_*) */
    char version[32]; /* its library's version, as it said */
    uint32_t index;   /* the slot number it was given */
    int major;        /* of its version: the layouts of groups differ between 4 and 5 */
    size_t next_ref;  /* event registrations made for it */
    wu_srv_opending_t *pending;
};

/* Translate one OpenPMIx request (b after the command) into Wireup's and run it; an error
 * status is sent back as the whole reply. */
void wu_srv_opmix_request(wu_srv_peer_t *peer, uint32_t tag, uint8_t cmd, wu_buffer_t *b);
/* A request of a tool (peer->tool): served as a client's, answered here, or refused. */
void wu_srv_opmix_tool_request(wu_srv_peer_t *peer, uint32_t tag, uint8_t cmd, wu_buffer_t *b);
/* Convert the Wireup reply r (after its status) to the reply of p's command to peer into out. */
pmix_status_t wu_srv_opmix_convert(wu_srv_peer_t *peer, const wu_srv_opending_t *p,
                                   pmix_status_t status, wu_buffer_t *r, wu_buffer_t *out);
/* The registration of nspace as the KVALs OpenPMIx's hash data store takes (its job data at
 * init, a spawned job's in the spawn reply); PMIX_ERR_NOT_FOUND if it is not registered. */
pmix_status_t wu_srv_opmix_pack_job(const char *nspace, int bt, wu_buffer_t *out);
/* The groups OpenPMIx clients constructed (wu_server_opmix_reply.c): find one by its name
 * (NULL: none), record one's members (replacing an older of that name), forget one. */
wu_srv_ogroup_t *wu_srv_ogroup_find(const char *name);
void wu_srv_ogroup_record(const char *name, const pmix_proc_t *members, size_t n);
void wu_srv_ogroup_forget(const char *name);
/* Remember that tag's reply answers cmd; NULL: no memory. */
wu_srv_opending_t *wu_srv_opmix_expect(wu_srv_peer_t *peer, uint32_t tag, uint8_t cmd);
/* Send a reply holding only status. */
void wu_srv_opmix_status(wu_srv_peer_t *peer, uint32_t tag, pmix_status_t status);

#endif
