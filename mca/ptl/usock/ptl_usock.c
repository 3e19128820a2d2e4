/* SPDX-License-Identifier: BSD-3-Clause */
/* ptl_usock.c -- ptl component: a Unix-domain stream socket in a private 0700 session directory,
 * named "usock:<absolute path>". The default transport on one node.
 *
 * The directory goes where the host asks the server to keep its files (PMIX_SERVER_TMPDIR, else
 * PMIX_SYSTEM_TMPDIR at PMIx_server_init), so that a host that removes its own directories, or
 * a container that binds only them, sees the socket too; else in the temporary directory
 * (TMPDIR, /tmp). A socket's path has a short limit (108 bytes): when the host's directory is
 * too deep for it, the socket goes to the temporary directory instead. */
#include "mca/ptl/ptl.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_path.h"
#include "opal/util/wu_session_dir.h"
#include "opal/util/wu_show_help.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define USOCK_PREFIX "usock:"

static int backlog = 128;

static int fill_addr(struct sockaddr_un *sa, const char *path)
{
    memset(sa, 0, sizeof *sa);
    sa->sun_family = AF_UNIX;
    if ('/' != path[0] || strlen(path) >= sizeof sa->sun_path) {
        return WU_ERR_BAD_PARAM;
    }
    strcpy(sa->sun_path, path);
    return WU_SUCCESS;
}

/* The directory the host named for the server's files, or NULL. */
static const char *host_dir(const wu_ptl_listen_req_t *req)
{
    static const char *const keys[] = {PMIX_SERVER_TMPDIR, PMIX_SYSTEM_TMPDIR};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const pmix_info_t *v = wu_ptl_req_info(req, keys[i]);
        if (NULL != v && PMIX_STRING == v->value.type && NULL != v->value.data.string &&
            '/' == v->value.data.string[0]) {
            return v->value.data.string;
        }
    }
    return NULL;
}

/* A session directory for the socket in tmpdir (NULL: the temporary directory), the socket's
 * path in it and its address; WU_ERR_BAD_PARAM when that path is too long for a socket. */
static int sock_dir(const char *tmpdir, char **dir, char **path, struct sockaddr_un *sa)
{
    int rc = wu_session_dir_create(tmpdir, "wu-ptl", dir);
    if (WU_SUCCESS != rc) {
        *dir = NULL;
        return rc;
    }
    if (WU_SUCCESS != (rc = wu_asprintf(path, "%s/sock", *dir)) ||
        WU_SUCCESS != (rc = fill_addr(sa, *path))) {
        wu_session_dir_remove(*dir);
        free(*dir);
        free(*path);
        *dir = *path = NULL;
    }
    return rc;
}

static int usock_listen(const wu_ptl_listen_req_t *req, int *fd, char **uri, void **state)
{
    struct sockaddr_un sa;
    char *dir = NULL, *path = NULL;
    const char *hdir = host_dir(req);
    int rc = WU_ERR_NOT_FOUND, s = -1;

    /* a server always listens here: it is how the processes of its node connect */
    if (NULL != hdir && WU_SUCCESS != (rc = sock_dir(hdir, &dir, &path, &sa))) {
        WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_WARN,
                       "ptl:usock: no socket in the host's directory %s (%s): using %s", hdir,
                       wu_strerror(rc), wu_tmpdir());
    }
    if (WU_SUCCESS != rc && WU_SUCCESS != (rc = sock_dir(NULL, &dir, &path, &sa))) {
        wu_show_help("help-ptl-usock.txt", "no-session-dir", true, wu_strerror(rc));
        return rc;
    }
    if (WU_SUCCESS != (rc = wu_session_dir_track(dir, path))) {
        goto fail;
    }
    s = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (s < 0 || 0 != bind(s, (struct sockaddr *)&sa, sizeof sa) || 0 != listen(s, backlog)) {
        wu_show_help("help-ptl-usock.txt", "listen-failed", true, path, strerror(errno));
        rc = WU_ERR_SYS;
        goto fail;
    }
    if (WU_SUCCESS != (rc = wu_asprintf(uri, USOCK_PREFIX "%s", path))) {
        goto fail;
    }
    free(path);
    *fd = s;
    *state = dir;
    return WU_SUCCESS;
fail:
    if (s >= 0) {
        close(s);
    }
    wu_session_dir_remove(dir);
    free(dir);
    free(path);
    return rc;
}

static void usock_unlisten(void *state)
{
    char *dir = state;
    int rc = wu_session_dir_remove(dir);
    if (WU_SUCCESS != rc) {
        WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_WARN,
                       "ptl:usock: removing session directory %s: %s", dir, wu_strerror(rc));
    }
    free(dir);
}

static int usock_connect(const char *uri, int *fd)
{
    struct sockaddr_un sa;
    int s, rc;
    if (0 != strncmp(uri, USOCK_PREFIX, strlen(USOCK_PREFIX)) ||
        WU_SUCCESS != fill_addr(&sa, uri + strlen(USOCK_PREFIX))) {
        return WU_ERR_BAD_PARAM;
    }
    if ((s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0) {
        return WU_ERR_SYS;
    }
    do {
        rc = connect(s, (struct sockaddr *)&sa, sizeof sa);
    } while (0 != rc && EINTR == errno);
    if (0 != rc) {
        rc = (ENOENT == errno || ECONNREFUSED == errno) ? WU_ERR_NOT_FOUND : WU_ERR_SYS;
        close(s);
        return rc;
    }
    *fd = s;
    return WU_SUCCESS;
}

static const wu_ptl_module_t usock_module = {
    .scheme = "usock",
    .listen = usock_listen,
    .unlisten = usock_unlisten,
    .connect = usock_connect,
};

static const wu_mca_param_t usock_params[] = {
    WU_PARAM_INT_RANGE("backlog", &backlog, 1, 65535, WU_INFO_LVL_6,
                       "Length of the queue of connections waiting to be accepted"),
    WU_PARAM_END};

WU_MCA_COMPONENT(ptl, usock, .priority = 20, .params = usock_params,
                 .description = "Unix-domain socket in a private session directory (this node)",
                 .module = &usock_module);
