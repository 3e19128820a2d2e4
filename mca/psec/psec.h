/* SPDX-License-Identifier: BSD-3-Clause */
/* psec.h -- the psec framework: who may connect to a PMIx server.
 *
 * When a client or tool connects, the server must know it is the process the host registered
 * (PMIx_server_register_client gives the expected uid and gid). psec decides how that proof is
 * made and checked. Exactly one component is active (select_one) and all processes of a job use
 * the same one: the server advertises its mode to clients in the environment variable
 * PMIX_SECURITY_MODE, the client names the mode it used in its connect handshake, and the
 * server refuses a mode it does not run (wu_psec_base_check_mode).
 *
 * Two transports, two proofs:
 *  - Unix-domain sockets: the kernel tells the server who is on the other end (native:
 *    SO_PEERCRED); the client sends an empty credential.
 *  - TCP sockets carry no kernel identity. The server creates a random token once
 *    (server_token), hands it to the processes it launches in the environment variable
 *    WU_PSEC_TOKEN_ENV (or a file in its private session directory), the client sends it back
 *    as its credential (create_cred) and the server compares it in constant time. The uid and gid
 *    of such a peer are unknown (reported as -1).
 * Credentials for PMIx_Get_credential / PMIx_Validate_credential: a server issues one to a
 * connected client, naming the identity it verified (issue_cred), and later checks one that
 * any process hands it (check_cred). native's is a message authentication code under keys the
 * server keeps to itself, drawn at random, so only the server that issued one validates it;
 * or derived from a secret every server of a job shares (set_cred_secret: wrun hands its
 * daemons one), so that any of them validates it.
 * A refused peer gets PMIX_ERR_INVALID_CRED and one help message saying what was expected and
 * what connected. Component "none" accepts everyone and runs only when named
 * (PMIX_MCA_psec=none); it warns once that security is off. */
#ifndef WU_PSEC_H
#define WU_PSEC_H

#include "mca/base/wu_mca.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define WU_psec_VERSION 1u

/* Environment variable naming the server's psec mode, set for every client it launches. */
#define WU_PSEC_MODE_ENV "PMIX_SECURITY_MODE"
/* Environment variable carrying the server's token for clients that connect over TCP. */
#define WU_PSEC_TOKEN_ENV "WU_PSEC_TOKEN"
/* Expected uid or gid meaning "anyone" (a tool the host did not register by identity). */
#define WU_PSEC_ANY_ID ((unsigned)-1)
/* Largest credential a client may send; the transport drops a peer sending more. */
#define WU_PSEC_MAX_CRED 1024

/* Who connected. uid, gid and pid are (uid_t)-1 etc. when the transport cannot tell (TCP). */
typedef struct wu_psec_peer {
    uid_t uid;
    gid_t gid;
    pid_t pid;
} wu_psec_peer_t;

/* Whose credential: the identity a server verified when the process connected. */
typedef struct wu_psec_id {
    uid_t uid;
    gid_t gid;
    char nspace[256]; /* NUL-terminated, at most 255 characters (PMIX_MAX_NSLEN) */
    uint32_t rank;
} wu_psec_id_t;

typedef struct wu_psec_module {
    /* the mode's name, as advertised in PMIX_SECURITY_MODE and sent by clients ("native") */
    const char *mode;
    /* Client side: the credential to send when connecting on the connected socket fd. On
     * success *cred is malloc'd (caller frees; NULL with *len 0 for "nothing to send").
     * Errors: WU_ERR_BAD_PARAM (not a socket), WU_ERR_NOT_FOUND (a TCP socket and no token
     * in the environment; a help message says so), WU_ERR_NOMEM. */
    int (*create_cred)(int fd, char **cred, size_t *len);
    /* Server side: the token clients must send over TCP, created on the first call (static
     * storage, NUL-terminated text). NULL function: the mode needs no token. */
    int (*server_token)(const char **token);
    /* Server side: check the peer on the connected socket fd against what the host registered
     * (want_uid/want_gid; WU_PSEC_ANY_ID accepts any), given the credential it sent (may be
     * NULL/0). Fills *got (may be NULL) with what is known of the peer, also on refusal.
     * Returns WU_SUCCESS, PMIX_ERR_INVALID_CRED (refused; a help message names expected and
     * connected identity), WU_ERR_BAD_PARAM (fd is not a connected socket) or WU_ERR_SYS. */
    int (*validate_peer)(int fd, uid_t want_uid, gid_t want_gid, const char *cred, size_t len,
                         wu_psec_peer_t *got);
    /* Server side: a credential naming who (malloc'd, *len bytes), valid for this server's
     * check_cred. WU_ERR_NOMEM, WU_ERR_SYS (no random key). NULL function: the mode issues
     * no credentials. */
    int (*issue_cred)(const wu_psec_id_t *who, char **cred, size_t *len);
    /* Server side: check a credential; on success *who is whom it names. PMIX_ERR_INVALID_CRED
     * when this server did not issue it (or it was altered). */
    int (*check_cred)(const char *cred, size_t len, wu_psec_id_t *who);
    /* Server side: derive the credential keys from a secret (at least 16 bytes) that every
     * server of a job shares, so that each validates the others' credentials; before the first
     * credential. NULL function: the mode's credentials stay its own server's. */
    int (*set_cred_secret)(const unsigned char *secret, size_t n);
} wu_psec_module_t;

/* Exported: DSO components log on the framework stream. */
WU_EXPORT extern wu_mca_framework_t wu_mca_psec_framework;

/* Open / close the framework (select the one component). Open returns WU_ERR_SILENT (message
 * already shown) when no component can run, e.g. native was excluded and none not named. */
int wu_psec_base_open(void);
void wu_psec_base_close(void);
/* The active module, or NULL when the framework is not open. */
const wu_psec_module_t *wu_psec_base_module(void);
/* The active mode's name ("native"), or NULL when the framework is not open. */
const char *wu_psec_base_mode(void);
/* Server: may a client that asks for mode `requested` connect? NULL or "" means the client did
 * not say, which is accepted. Returns WU_SUCCESS, PMIX_ERR_INVALID_CRED with a help message
 * naming both modes if they differ, or WU_ERR_INIT if the framework is not open. */
int wu_psec_base_check_mode(const char *requested);
/* Dispatch to the active module (see wu_psec_module_t); WU_ERR_INIT if not open. */
int wu_psec_base_create_cred(int fd, char **cred, size_t *len);
int wu_psec_base_validate_peer(int fd, uid_t want_uid, gid_t want_gid, const char *cred, size_t len,
                               wu_psec_peer_t *got);
/* Issue / check a credential (see issue_cred, check_cred); WU_ERR_INIT if not open,
 * PMIX_ERR_NOT_SUPPORTED if the mode has no credentials. */
int wu_psec_base_issue_cred(const wu_psec_id_t *who, char **cred, size_t *len);
int wu_psec_base_check_cred(const char *cred, size_t len, wu_psec_id_t *who);
/* The job's shared secret for the credential keys (see set_cred_secret); WU_ERR_INIT if not
 * open, PMIX_ERR_NOT_SUPPORTED if the mode has no such keys. */
int wu_psec_base_set_cred_secret(const unsigned char *secret, size_t n);
/* The server's TCP token; *token is set to NULL (and WU_SUCCESS returned) if the mode has none. */
int wu_psec_base_server_token(const char **token);

#endif
