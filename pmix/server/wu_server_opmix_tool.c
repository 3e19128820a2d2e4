/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server_opmix_tool.c -- tools on OpenPMIx's own library (pps, pquery, pevent, plookup, any
 * program calling its PMIx_tool_init) served by Wireup's server (docs/openpmix-wire.md, 2.4
 * and 8): the rendezvous files they find a server by, their handshake, and which of their
 * requests are served.
 *
 * Rendezvous: with PMIX_SERVER_TOOL_SUPPORT the server writes pmix.<host>.tool.<pid> and
 * pmix.<host>.tool.<server namespace>, with PMIX_SERVER_SESSION_SUPPORT pmix.<host>.tool, all
 * in its session directory, which lies below the temporary directory a tool searches (it
 * descends into every directory there and takes the files whose names start with what it
 * looks for); with PMIX_SERVER_SYSTEM_SUPPORT pmix.sys.<host> in the system's temporary
 * directory. Each holds five lines as OpenPMIx writes them: the URI OpenPMIx's clients are
 * given, the OpenPMIx version Wireup stands for, the pid, the effective uid:gid and the time;
 * mode 0640. <host> is the host name without its domain, as the tools compute it. The files
 * are written whole under another name, then renamed: a tool never reads half of one.
 *
 * Handshake: process types 3 to 8 (tools and launchers: with or without an identifier, or
 * started by a server). The credential (native: uid and gid) must match the ids in the
 * handshake and what the kernel says about the peer's socket, and the uid must be the
 * server's or root's; a peer whose owner the kernel cannot tell is refused (tools connect
 * over the loopback). A tool that gives itself the name of a process of a job this server
 * has registered must run as the user that process was registered for (or root). The
 * answer: status, the identifier assigned to a tool that needs one ("<server
 * namespace>.tool.<n>", rank 0), the server's identifier, the credential's status; then the
 * connection is closed if the credential failed. The host's tool_connected upcall is not
 * asked.
 *
 * A tool is not a client: it has no registration, no job data (REQ is answered with its
 * namespace alone), gets no events from this server. It may query, notify events, control
 * jobs (register cleanups only as the client it is), publish, look up and unpublish (as its
 * own uid and gid), and log; those go through the translation of wu_server_opmix_cmds.c to
 * Wireup's handlers, which know a tool by peer->tool. Anything else is answered
 * PMIX_ERR_NOT_SUPPORTED. */
#include "pmix/server/wu_server_opmix.h"

#include "opal/util/wu_argv.h"
#include "opal/util/wu_output.h"
#include "opal/util/wu_path.h"
#include "opal/util/wu_peer_uid.h"
#include "opal/util/wu_show_help.h"

#include "pmix.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static unsigned next_tool = 0;

/* ---- handshake ------------------------------------------------------------------------------- */

/* Append a 256-byte namespace field (NUL-padded) and a rank (network order). */
static size_t put_id(unsigned char *at, const char *nspace, pmix_rank_t rank)
{
    uint32_t r = htonl(rank);
    memset(at, 0, PMIX_MAX_NSLEN + 1);
    memcpy(at, nspace, strnlen(nspace, PMIX_MAX_NSLEN));
    memcpy(at + PMIX_MAX_NSLEN + 1, &r, 4);
    return PMIX_MAX_NSLEN + 1 + 4;
}

/* Who the peer is: the credential checked against its claim and the kernel, then against the
 * server's user. *owner: what the kernel says (-1: unknown). */
static pmix_status_t check_tool(wu_srv_peer_t *peer, const char *cred, size_t ncred, uint32_t uid,
                                uint32_t gid, int *owner)
{
    const char *mode = wu_psec_base_mode();
    wu_psec_peer_t got = {(uid_t)-1, (gid_t)-1, (pid_t)-1};
    uid_t k;
    pmix_status_t rc;

    *owner = -1;
    rc = wu_srv_opmix_validate(peer->conn, (uid_t)uid, (gid_t)gid, cred, ncred, &got);
    if (NULL != mode && 0 == strcmp(mode, "none")) {
        peer->uid = (uid_t)uid; /* the server checks nobody: the claim stands */
        peer->gid = (gid_t)gid;
        return rc;
    }
    if (PMIX_SUCCESS != rc) {
        *owner = (int)got.uid;
        return rc;
    }
    if (!wu_ptl_conn_passes_fds(peer->conn)) {
        /* TCP: the kernel must tell who owns the other end (validate checked it agrees) */
        if (0 != wu_tcp_peer_uid(wu_ptl_conn_fd(peer->conn), &k)) {
            return PMIX_ERR_INVALID_CRED;
        }
        *owner = (int)k;
    } else {
        *owner = (int)got.uid;
    }
    if (got.uid != geteuid() && 0 != got.uid) {
        return PMIX_ERR_NO_PERMISSIONS;
    }
    peer->uid = got.uid;
    peer->gid = got.gid;
    return PMIX_SUCCESS;
}

void wu_srv_opmix_tool_hello(wu_srv_peer_t *peer, uint8_t type, const char *cred, size_t ncred,
                             uint32_t uid, uint32_t gid, const char *nspace, uint32_t rank)
{
    unsigned char answer[4 + 2 * (PMIX_MAX_NSLEN + 1 + 4) + 4];
    bool needs_id = 3 == type || 6 == type;
    size_t n = 0;
    uint32_t v;
    int owner;
    pmix_status_t rc;

    if (!needs_id && ('\0' == nspace[0] || PMIX_RANK_VALID < rank)) {
        wu_output_verbose(WU_VERB_WARN, wu_srv.out,
                          "server: dropping an OpenPMIx tool without an identifier");
        wu_ptl_close(peer->conn);
        return;
    }
    rc = check_tool(peer, cred, ncred, uid, gid, &owner);
    if (PMIX_SUCCESS == rc && !needs_id && NULL != wu_srv_nspace_find(nspace)) {
        /* a name of a job of this server: only that process itself (a tool started by the
         * server) may give it, as the user the host registered it for */
        pmix_proc_t p;
        const wu_srv_client_t *cl;
        PMIX_LOAD_PROCID(&p, nspace, rank);
        cl = wu_srv_client_find(&p);
        if (NULL == cl || (cl->uid != peer->uid && 0 != peer->uid)) {
            rc = PMIX_ERR_NO_PERMISSIONS;
        }
    }
    if (PMIX_SUCCESS != rc) {
        wu_show_help(WU_SRV_HELP, "tool-refused", true, peer->ox->version, (unsigned)uid,
                     (unsigned)gid, owner, (unsigned)geteuid(), PMIx_Error_string(rc));
    }
    if (needs_id) {
        char id[PMIX_MAX_NSLEN + 32];
        snprintf(id, sizeof id, "%s.tool.%u", wu_srv.me.nspace, ++next_tool);
        PMIX_LOAD_PROCID(&peer->proc, id, 0);
    } else {
        PMIX_LOAD_PROCID(&peer->proc, nspace, rank);
    }
    /* status (the host's in OpenPMIx: Wireup asks none), the identifier given, the server's,
     * the credential's status */
    v = htonl(0);
    memcpy(answer, &v, 4);
    n = 4;
    if (needs_id) {
        n += put_id(answer + n, peer->proc.nspace, peer->proc.rank);
    }
    n += put_id(answer + n, wu_srv.me.nspace, wu_srv.me.rank);
    v = htonl((uint32_t)rc);
    memcpy(answer + n, &v, 4);
    n += 4;
    if (PMIX_SUCCESS == rc) {
        peer->tool = true;
        peer->connected = true;
        wu_ptl_conn_set_trusted(peer->conn);
    }
    (void)wu_ptl_send(peer->conn, 0, WU_PTL_FLAG_RAW, answer, n);
    if (PMIX_SUCCESS != rc) {
        wu_ptl_close(peer->conn); /* after the answer is written */
        return;
    }
    wu_output_verbose(WU_VERB_INFO, wu_srv.out,
                      "server: OpenPMIx %s tool %s:%u connected (process type %u, uid %u)",
                      peer->ox->version, peer->proc.nspace, peer->proc.rank, (unsigned)type,
                      (unsigned)peer->uid);
}

/* ---- requests -------------------------------------------------------------------------------- */

void wu_srv_opmix_tool_request(wu_srv_peer_t *peer, uint32_t tag, uint8_t cmd, wu_buffer_t *b)
{
    switch (cmd) {
    case WU_OCMD_REQ: {
        /* a tool's job data: its namespace, nothing registered */
        const char *name = peer->proc.nspace;
        wu_buffer_t r;
        wu_buffer_construct(&r);
        if (PMIX_SUCCESS == wu_obfr_pack(&r, peer->ox->btype, &name, 1, PMIX_STRING)) {
            (void)wu_ptl_send(peer->conn, tag, 0, r.base, r.used);
        } else {
            wu_srv_opmix_status(peer, tag, PMIX_ERR_NOMEM);
        }
        wu_buffer_destruct(&r);
        return;
    }
    case WU_OCMD_FINALIZE:
    case WU_OCMD_REGEVENTS: /* its handlers hear its own events only */
        wu_srv_opmix_status(peer, tag, PMIX_SUCCESS);
        return;
    case WU_OCMD_QUERY:
    case WU_OCMD_NOTIFY:
    case WU_OCMD_DEREGEVENTS:
    case WU_OCMD_JOB_CONTROL:
    case WU_OCMD_PUBLISH:
    case WU_OCMD_LOOKUP:
    case WU_OCMD_UNPUBLISH:
    case WU_OCMD_LOG:
        wu_srv_opmix_request(peer, tag, cmd, b);
        return;
    default:
        wu_output_verbose(WU_VERB_INFO, wu_srv.out,
                          "server: OpenPMIx command %u is not served to tools (tag %u)", cmd, tag);
        wu_srv_opmix_status(peer, tag, PMIX_ERR_NOT_SUPPORTED);
        return;
    }
}

/* ---- rendezvous files ------------------------------------------------------------------------ */

#define NFILES 4
static char *files[NFILES];

/* The host name as OpenPMIx's tools compute it: without its domain, unless it is an address. */
static void short_host(char *buf, size_t len)
{
    char *dot;
    bool addr = true;
    if (0 != gethostname(buf, len - 1)) {
        snprintf(buf, len, "localhost");
    }
    buf[len - 1] = '\0';
    for (const char *c = buf; '\0' != *c; c++) {
        addr = addr && (('0' <= *c && *c <= '9') || '.' == *c || ':' == *c);
    }
    if (!addr && NULL != (dot = strchr(buf, '.'))) {
        *dot = '\0';
    }
}

/* Write one rendezvous file dir/name; remember it for removal. */
static pmix_status_t write_one(const char *dir, const char *name)
{
    char *path = NULL, *tmp = NULL, when[64];
    time_t now = time(NULL);
    FILE *fp = NULL;
    int fd = -1, slot;
    pmix_status_t rc = PMIX_ERR_NOMEM;

    for (slot = 0; slot < NFILES && NULL != files[slot]; slot++) {
    }
    if (NFILES == slot || WU_SUCCESS != wu_asprintf(&path, "%s/%s", dir, name) ||
        WU_SUCCESS != wu_asprintf(&tmp, "%s/.wu-rendezvous.%d", dir, (int)getpid())) {
        goto out;
    }
    if (NULL == ctime_r(&now, when)) {
        snprintf(when, sizeof when, "%lld\n", (long long)now);
    }
    rc = PMIX_ERR_FILE_OPEN_FAILURE;
    if (0 > (fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640)) ||
        0 != fchmod(fd, 0640) || NULL == (fp = fdopen(fd, "w"))) {
        goto out;
    }
    fd = -1;
    /* ctime's text ends with a newline, and OpenPMIx adds one */
    fprintf(fp, "%s\n%s\n%lu\n%lu:%lu\n%s\n", wu_srv.ouri, WU_PMIX_COMPAT_VERSION,
            (unsigned long)getpid(), (unsigned long)geteuid(), (unsigned long)getegid(), when);
    if (0 != fclose(fp) || 0 != rename(tmp, path)) {
        fp = NULL;
        goto out;
    }
    fp = NULL;
    wu_output_verbose(WU_VERB_DEBUG, wu_srv.out, "server: rendezvous file %s", path);
    files[slot] = path;
    path = NULL;
    rc = PMIX_SUCCESS;
out:
    if (PMIX_SUCCESS != rc && NULL != tmp) {
        wu_output_verbose(WU_VERB_WARN, wu_srv.out,
                          "server: cannot write rendezvous file %s/%s: %s", dir, name,
                          strerror(errno));
        (void)unlink(tmp);
    }
    if (NULL != fp) {
        (void)fclose(fp);
    }
    if (fd >= 0) {
        (void)close(fd);
    }
    free(path);
    free(tmp);
    return rc;
}

pmix_status_t wu_srv_rendezvous_write(bool tool, bool session, bool system, const char *systmp)
{
    char host[256], name[PMIX_MAX_NSLEN + 300];
    pmix_status_t rc = PMIX_SUCCESS;
    if (NULL == wu_srv.ouri || NULL == wu_srv.session_dir) {
        return tool || session || system ? PMIX_ERR_NOT_SUPPORTED : PMIX_SUCCESS;
    }
    short_host(host, sizeof host);
    if (tool) {
        snprintf(name, sizeof name, "pmix.%s.tool.%d", host, (int)getpid());
        rc = write_one(wu_srv.session_dir, name);
        snprintf(name, sizeof name, "pmix.%s.tool.%s", host, wu_srv.me.nspace);
        if (PMIX_SUCCESS == rc && NULL == strchr(wu_srv.me.nspace, '/')) {
            rc = write_one(wu_srv.session_dir, name);
        }
    }
    if (PMIX_SUCCESS == rc && session) {
        snprintf(name, sizeof name, "pmix.%s.tool", host);
        rc = write_one(wu_srv.session_dir, name);
    }
    if (PMIX_SUCCESS == rc && system) {
        snprintf(name, sizeof name, "pmix.sys.%s", host);
        rc = write_one(NULL != systmp ? systmp : wu_tmpdir(), name);
    }
    if (PMIX_SUCCESS != rc) {
        wu_srv_rendezvous_remove();
    }
    return rc;
}

void wu_srv_rendezvous_remove(void)
{
    for (int i = 0; i < NFILES; i++) {
        if (NULL != files[i]) {
            (void)unlink(files[i]);
            free(files[i]);
            files[i] = NULL;
        }
    }
}
