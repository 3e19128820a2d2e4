/* SPDX-License-Identifier: BSD-3-Clause */
/* plog_syslog.c -- plog component sending log messages to syslog(3). */
#include "mca/plog/plog.h"

#include <stdlib.h>
#include <syslog.h>

static char *ident = "wireup";
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

static int syslog_log(const wu_plog_entry_t *e)
{
    int prio = (e->severity >= LOG_EMERG && e->severity <= LOG_DEBUG) ? e->severity : default_level;
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
    WU_PARAM_END};

WU_MCA_COMPONENT(plog, syslog, .priority = 5, .params = syslog_params,
                 .description = "Sends log messages to the system log (syslog)",
                 .open = syslog_open, .close = syslog_close, .module = &syslog_module);
