/* SPDX-License-Identifier: BSD-3-Clause */
/* plog_syslog.c -- plog component sending log messages to the system log: through syslog(3), or,
 * when plog_syslog_socket names one, as RFC 3164 datagrams to that Unix socket (a private
 * collector, or a test). */
#include "mca/plog/plog.h"
#include "opal/util/wu_argv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

static char *ident = "wireup";
static char *sock_path = "";
static int facility = LOG_USER;
static int default_level = LOG_NOTICE;
static bool with_pid = true;

static const wu_param_enum_t facilities[] = {{"user", LOG_USER},
                                             {"daemon", LOG_DAEMON},
                                             {"local0", LOG_LOCAL0},
                                             {"local1", LOG_LOCAL1},
                                             {"local2", LOG_LOCAL2},
                                             {"local3", LOG_LOCAL3},
                                             {"local4", LOG_LOCAL4},
                                             {"local5", LOG_LOCAL5},
                                             {"local6", LOG_LOCAL6},
                                             {"local7", LOG_LOCAL7},
                                             {NULL, 0}};

static const wu_param_enum_t levels[] = {
    {"emerg", LOG_EMERG}, {"alert", LOG_ALERT},     {"crit", LOG_CRIT},
    {"err", LOG_ERR},     {"warning", LOG_WARNING}, {"notice", LOG_NOTICE},
    {"info", LOG_INFO},   {"debug", LOG_DEBUG},     {NULL, 0}};

static int syslog_open(void)
{
    openlog(ident, with_pid ? LOG_PID : 0, facility);
    return WU_SUCCESS;
}

static void syslog_close(void)
{
    closelog();
}

/* One datagram "<PRI>Mmm dd hh:mm:ss IDENT[PID]: [SOURCE] MESSAGE" to sock_path. */
static int send_datagram(int prio, const wu_plog_entry_t *e)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    char stamp[32], pid[32] = "", *line = NULL;
    time_t t = 0 != e->timestamp ? e->timestamp : time(NULL);
    struct tm tm;
    int s, rc = WU_SUCCESS;

    if (strlen(sock_path) >= sizeof sa.sun_path) {
        return WU_ERR_BAD_PARAM;
    }
    strcpy(sa.sun_path, sock_path);
    localtime_r(&t, &tm);
    strftime(stamp, sizeof stamp, "%b %e %H:%M:%S", &tm);
    if (with_pid) {
        snprintf(pid, sizeof pid, "[%d]", (int)getpid());
    }
    if (WU_SUCCESS != wu_asprintf(&line, "<%d>%s %s%s: %s%s%s%s", prio | facility, stamp, ident,
                                  pid, NULL != e->source ? "[" : "",
                                  NULL != e->source ? e->source : "", NULL != e->source ? "] " : "",
                                  e->message)) {
        return WU_ERR_NOMEM;
    }
    s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (s < 0 || sendto(s, line, strlen(line), 0, (struct sockaddr *)&sa, sizeof sa) < 0) {
        rc = WU_ERR_SYS; /* the base reports it (plog_base_verbose) */
    }
    if (s >= 0) {
        close(s);
    }
    free(line);
    return rc;
}

static int syslog_log(const wu_plog_entry_t *e)
{
    int prio = (e->severity >= LOG_EMERG && e->severity <= LOG_DEBUG) ? e->severity : default_level;
    if (NULL != sock_path && '\0' != sock_path[0]) {
        return send_datagram(prio, e);
    }
    if (NULL != e->source) {
        syslog(prio | facility, "[%s] %s", e->source, e->message);
    } else {
        syslog(prio | facility, "%s", e->message);
    }
    return WU_SUCCESS;
}

static const wu_plog_module_t syslog_module = {
    .channels = (const char *const[]){"syslog", NULL},
    .log = syslog_log,
};

static const wu_mca_param_t syslog_params[] = {
    WU_PARAM_STRING("ident", &ident, WU_INFO_LVL_4, "Identity given to syslog (openlog ident)"),
    WU_PARAM_ENUM("facility", &facility, facilities, WU_INFO_LVL_4,
                  "Syslog facility: user, daemon, local0 ... local7"),
    WU_PARAM_ENUM("level", &default_level, levels, WU_INFO_LVL_4,
                  "Priority of messages that do not carry their own severity"),
    WU_PARAM_BOOL("with_pid", &with_pid, WU_INFO_LVL_5, "Include the process id in each message"),
    WU_PARAM_STRING("socket", &sock_path, WU_INFO_LVL_6,
                    "Unix datagram socket to send messages to, in the syslog (RFC 3164) format; "
                    "empty: the system log through syslog(3)"),
    WU_PARAM_END};

WU_MCA_COMPONENT(plog, syslog, .priority = 5, .params = syslog_params,
                 .description = "Sends log messages to the system log (syslog)",
                 .open = syslog_open, .close = syslog_close, .module = &syslog_module);
