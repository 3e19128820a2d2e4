/* SPDX-License-Identifier: BSD-3-Clause */
/* psec_native.c -- psec component "native": the kernel's peer credentials on Unix-domain
 * sockets (SO_PEERCRED), a server-made random token compared in constant time on TCP, and
 * credentials for PMIx_Get_credential: the text
 *     wucred1:<uid>:<gid>:<rank>:<seconds since the epoch>:<nspace>:<tag>
 * where tag is 32 hex digits, two SipHash-2-4 values of everything before it under two 16-byte
 * keys this server draws at random and never shows, or derives from a secret the servers of a
 * job share. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* struct ucred */
#endif
#include "mca/psec/psec.h"
#include "opal/util/wu_show_help.h"
#include "opal/util/wu_siphash.h"
#include "pmix_common.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>

#define TOKEN_BYTES 32

static pthread_mutex_t token_lock = PTHREAD_MUTEX_INITIALIZER;
static char token[2 * TOKEN_BYTES + 1];

/* The socket family of fd: AF_UNIX, AF_INET, AF_INET6; -1 if fd is not a socket. */
static int family_of(int fd)
{
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    if (fd < 0 || 0 != getsockname(fd, (struct sockaddr *)&ss, &sl)) {
        return -1;
    }
    return ss.ss_family;
}

static void id_text(char *buf, size_t size, unsigned id)
{
    if (WU_PSEC_ANY_ID == id) {
        snprintf(buf, size, "any");
    } else {
        snprintf(buf, size, "%u", id);
    }
}

static int fill_random(unsigned char *raw, size_t size)
{
    size_t have = 0;
    while (have < size) {
        ssize_t n = getrandom(raw + have, size - have, 0);
        if (n < 0) {
            if (EINTR == errno) {
                continue;
            }
            return WU_ERR_SYS;
        }
        have += (size_t)n;
    }
    return WU_SUCCESS;
}

static int make_token(void)
{
    unsigned char raw[TOKEN_BYTES];
    if (WU_SUCCESS != fill_random(raw, sizeof raw)) {
        return WU_ERR_SYS;
    }
    for (size_t i = 0; i < sizeof raw; i++) {
        snprintf(token + 2 * i, 3, "%02x", raw[i]);
    }
    return WU_SUCCESS;
}

static int native_server_token(const char **out)
{
    int rc = WU_SUCCESS;
    pthread_mutex_lock(&token_lock);
    if ('\0' == token[0]) {
        rc = make_token();
    }
    pthread_mutex_unlock(&token_lock);
    *out = WU_SUCCESS == rc ? token : NULL;
    return rc;
}

static int native_create_cred(int fd, char **cred, size_t *len)
{
    int fam = family_of(fd);
    const char *t;

    if (AF_UNIX == fam) {
        return WU_SUCCESS; /* the kernel vouches for us */
    }
    if (AF_INET != fam && AF_INET6 != fam) {
        return WU_ERR_BAD_PARAM;
    }
    t = getenv(WU_PSEC_TOKEN_ENV);
    if (NULL == t || '\0' == t[0]) {
        wu_show_help("help-psec-native.txt", "no-token", true, WU_PSEC_TOKEN_ENV);
        return WU_ERR_NOT_FOUND;
    }
    *len = strlen(t);
    *cred = strdup(t);
    return NULL == *cred ? WU_ERR_NOMEM : WU_SUCCESS;
}

/* Equal contents, in a time that depends only on the lengths. */
static bool same_secret(const char *a, size_t alen, const char *b, size_t blen)
{
    unsigned char diff = alen != blen;
    for (size_t i = 0; i < blen; i++) {
        diff |= (unsigned char)(b[i] ^ (i < alen ? a[i] : 0));
    }
    return 0 == diff;
}

static void peer_address(int fd, char *buf, size_t size)
{
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    char host[INET6_ADDRSTRLEN] = "?";
    unsigned port = 0;
    if (0 == getpeername(fd, (struct sockaddr *)&ss, &sl)) {
        if (AF_INET == ss.ss_family) {
            struct sockaddr_in *in = (struct sockaddr_in *)&ss;
            inet_ntop(AF_INET, &in->sin_addr, host, sizeof host);
            port = ntohs(in->sin_port);
        } else if (AF_INET6 == ss.ss_family) {
            struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
            inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof host);
            port = ntohs(in6->sin6_port);
        }
    }
    snprintf(buf, size, "%s port %u", host, port);
}

static int validate_tcp(int fd, const char *cred, size_t len, wu_psec_peer_t *got)
{
    const char *t = NULL;
    char addr[INET6_ADDRSTRLEN + 32];
    int rc;

    got->uid = (uid_t)-1;
    got->gid = (gid_t)-1;
    got->pid = (pid_t)-1;
    rc = native_server_token(&t);
    if (WU_SUCCESS != rc) {
        return rc;
    }
    if (NULL != cred && same_secret(cred, len, t, strlen(t))) {
        WU_MCA_VERBOSE(&wu_mca_psec_framework, WU_VERB_INFO,
                       "psec:native: TCP peer presented the server token");
        return WU_SUCCESS;
    }
    peer_address(fd, addr, sizeof addr);
    wu_show_help("help-psec-native.txt", "bad-token", true, addr,
                 0 == len ? "no credential" : "a wrong credential", WU_PSEC_TOKEN_ENV);
    return PMIX_ERR_INVALID_CRED;
}

static int native_validate_peer(int fd, uid_t want_uid, gid_t want_gid, const char *cred,
                                size_t len, wu_psec_peer_t *got)
{
    wu_psec_peer_t dummy;
    struct ucred uc;
    socklen_t ul = sizeof uc;
    int fam = family_of(fd);

    if (NULL == got) {
        got = &dummy;
    }
    got->uid = (uid_t)-1;
    got->gid = (gid_t)-1;
    got->pid = (pid_t)-1;
    if (AF_INET == fam || AF_INET6 == fam) {
        return validate_tcp(fd, cred, len, got);
    }
    if (AF_UNIX != fam) {
        return WU_ERR_BAD_PARAM;
    }
    if (0 != getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &ul)) {
        return ENOTCONN == errno ? WU_ERR_BAD_PARAM : WU_ERR_SYS;
    }
    got->uid = uc.uid;
    got->gid = uc.gid;
    got->pid = uc.pid;
    if ((WU_PSEC_ANY_ID != want_uid && want_uid != uc.uid) ||
        (WU_PSEC_ANY_ID != want_gid && want_gid != uc.gid)) {
        char wu[16], wg[16];
        id_text(wu, sizeof wu, want_uid);
        id_text(wg, sizeof wg, want_gid);
        wu_show_help("help-psec-native.txt", "cred-mismatch", true, wu, wg, (unsigned)uc.uid,
                     (unsigned)uc.gid, (int)uc.pid);
        return PMIX_ERR_INVALID_CRED;
    }
    WU_MCA_VERBOSE(&wu_mca_psec_framework, WU_VERB_INFO,
                   "psec:native: accepted pid %d (uid %u gid %u)", (int)uc.pid, (unsigned)uc.uid,
                   (unsigned)uc.gid);
    return WU_SUCCESS;
}

/* ---- credentials ---------------------------------------------------------------------------- */

#define CRED_MAGIC    "wucred1:"
#define CRED_TAG_HEX  32
#define CRED_MAX_SIZE 512

static unsigned char cred_key[2][WU_SIPHASH_KEY_BYTES];
static bool cred_key_made;

/* The tag of the n bytes at text, as 32 hex digits and a NUL in out. */
static int cred_tag(const char *text, size_t n, char out[CRED_TAG_HEX + 1])
{
    int rc = WU_SUCCESS;
    pthread_mutex_lock(&token_lock);
    if (!cred_key_made) {
        rc = fill_random(&cred_key[0][0], sizeof cred_key);
        cred_key_made = WU_SUCCESS == rc;
    }
    pthread_mutex_unlock(&token_lock);
    if (WU_SUCCESS != rc) {
        return rc;
    }
    snprintf(out, CRED_TAG_HEX + 1, "%016llx%016llx",
             (unsigned long long)wu_siphash24(cred_key[0], text, n),
             (unsigned long long)wu_siphash24(cred_key[1], text, n));
    return WU_SUCCESS;
}

static int native_issue_cred(const wu_psec_id_t *who, char **cred, size_t *len)
{
    char body[CRED_MAX_SIZE], tag[CRED_TAG_HEX + 1];
    int n = snprintf(body, sizeof body, CRED_MAGIC "%u:%u:%u:%lld:%s:", (unsigned)who->uid,
                     (unsigned)who->gid, who->rank, (long long)time(NULL), who->nspace);
    int rc;
    if (n < 0 || (size_t)n + CRED_TAG_HEX >= sizeof body) {
        return WU_ERR_BAD_PARAM;
    }
    if (WU_SUCCESS != (rc = cred_tag(body, (size_t)n, tag))) {
        return rc;
    }
    memcpy(body + n, tag, CRED_TAG_HEX + 1);
    *len = (size_t)n + CRED_TAG_HEX;
    *cred = strdup(body);
    return NULL == *cred ? WU_ERR_NOMEM : WU_SUCCESS;
}

/* The keys from a shared secret: its first 16 bytes key SipHash over the labels
 * "wireup-cred-K-H", whose outputs make half H of key K. */
static int native_set_cred_secret(const unsigned char *secret, size_t n)
{
    unsigned char k[WU_SIPHASH_KEY_BYTES];
    if (n < sizeof k) {
        return WU_ERR_BAD_PARAM;
    }
    memcpy(k, secret, sizeof k);
    pthread_mutex_lock(&token_lock);
    for (int key = 0; key < 2; key++) {
        for (int half = 0; half < 2; half++) {
            char label[32];
            int len = snprintf(label, sizeof label, "wireup-cred-%d-%d", key, half);
            uint64_t h = wu_siphash24(k, label, (size_t)len);
            for (int b = 0; b < 8; b++) {
                cred_key[key][8 * half + b] = (unsigned char)(h >> (8 * b));
            }
        }
    }
    cred_key_made = true;
    pthread_mutex_unlock(&token_lock);
    memset(k, 0, sizeof k);
    return WU_SUCCESS;
}

static int native_check_cred(const char *cred, size_t len, wu_psec_id_t *who)
{
    char body[CRED_MAX_SIZE], tag[CRED_TAG_HEX + 1];
    unsigned uid, gid, rank;
    long long when;
    size_t head, nslen;
    int used = 0, rc;

    memset(who, 0, sizeof *who);
    if (NULL == cred || len <= CRED_TAG_HEX + sizeof CRED_MAGIC || len >= sizeof body ||
        NULL != memchr(cred, '\0', len)) {
        return PMIX_ERR_INVALID_CRED;
    }
    memcpy(body, cred, len);
    body[len] = '\0';
    head = len - CRED_TAG_HEX; /* the tagged text ends with the ':' before the tag */
    if (0 != strncmp(body, CRED_MAGIC, sizeof CRED_MAGIC - 1) || ':' != body[head - 1]) {
        return PMIX_ERR_INVALID_CRED;
    }
    if (WU_SUCCESS != (rc = cred_tag(body, head, tag))) {
        return rc;
    }
    if (!same_secret(body + head, CRED_TAG_HEX, tag, CRED_TAG_HEX)) {
        return PMIX_ERR_INVALID_CRED; /* not ours, or altered */
    }
    body[head - 1] = '\0';
    if (4 != sscanf(body, CRED_MAGIC "%u:%u:%u:%lld:%n", &uid, &gid, &rank, &when, &used) ||
        0 == used || (nslen = strlen(body + used)) >= sizeof who->nspace) {
        return PMIX_ERR_INVALID_CRED;
    }
    who->uid = (uid_t)uid;
    who->gid = (gid_t)gid;
    who->rank = rank;
    memcpy(who->nspace, body + used, nslen + 1);
    return WU_SUCCESS;
}

static const wu_psec_module_t native_module = {
    .mode = "native",
    .create_cred = native_create_cred,
    .server_token = native_server_token,
    .validate_peer = native_validate_peer,
    .issue_cred = native_issue_cred,
    .check_cred = native_check_cred,
    .set_cred_secret = native_set_cred_secret,
};

WU_MCA_COMPONENT(psec, native, .priority = 20,
                 .description = "Kernel peer credentials (Unix sockets), server token (TCP)",
                 .module = &native_module);
