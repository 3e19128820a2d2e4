/* SPDX-License-Identifier: BSD-3-Clause */
/* pmix_wu_attrs.h -- the PMIx attribute keys: the strings that name pmix_info_t entries
 * (directives, query keys, job/node/proc data), those of 4.2 and, in the last section, those
 * PMIx 5 added. Included by pmix_common.h only.
 *
 * Each key's string is fixed by the ABI: a program compiled against OpenPMIx sends these exact
 * bytes, so they equal OpenPMIx 4.2.2's and 5.0.7's (test/abi/abi_constants.sh compares them
 * all). The comment gives the type the value carries. Keys starting "pmix" are reserved for the Standard. Retired
 * keys are in pmix_deprecated.h. */
#ifndef PMIX_WU_ATTRS_H
#define PMIX_WU_ATTRS_H

/* --- Environment variables (names, not attribute keys) --- */
#define PMIX_LAUNCHER_RNDZ_URI  "PMIX_LAUNCHER_RNDZ_URI"
#define PMIX_LAUNCHER_RNDZ_FILE "PMIX_LAUNCHER_RNDZ_FILE"
#define PMIX_KEEPALIVE_PIPE     "PMIX_KEEPALIVE_PIPE"

/* --- Placeholder key --- */
#define PMIX_ATTR_UNDEF "pmix.undef"

/* --- Init: server/library start-up options --- */
#define PMIX_EXTERNAL_PROGRESS         "pmix.evext"       /* bool */
#define PMIX_SERVER_TOOL_SUPPORT       "pmix.srvr.tool"   /* bool */
#define PMIX_SERVER_REMOTE_CONNECTIONS "pmix.srvr.remote" /* bool */
#define PMIX_SERVER_SYSTEM_SUPPORT     "pmix.srvr.sys"    /* bool */
#define PMIX_SERVER_SESSION_SUPPORT    "pmix.srvr.sess"   /* bool */
#define PMIX_SERVER_TMPDIR             "pmix.srvr.tmpdir" /* char* */
#define PMIX_SYSTEM_TMPDIR             "pmix.sys.tmpdir"  /* char* */
#define PMIX_SERVER_SHARE_TOPOLOGY     "pmix.srvr.share"  /* bool */
#define PMIX_SERVER_ENABLE_MONITORING  "pmix.srv.monitor" /* bool */
#define PMIX_SERVER_NSPACE             "pmix.srv.nspace"  /* char* */
#define PMIX_SERVER_RANK               "pmix.srv.rank"    /* pmix_rank_t */
#define PMIX_SERVER_GATEWAY            "pmix.srv.gway"    /* bool */
#define PMIX_SERVER_SCHEDULER          "pmix.srv.sched"   /* bool */
#define PMIX_SERVER_START_TIME         "pmix.srv.strtime" /* char* */
#define PMIX_HOMOGENEOUS_SYSTEM        "pmix.homo"        /* bool */
#define PMIX_SINGLETON                 "pmix.singleton"   /* char* */
#define PMIX_BIND_PROGRESS_THREAD      "pmix.bind.pt"     /* char* */
#define PMIX_BIND_REQUIRED             "pmix.bind.reqd"   /* bool */

/* --- Tools: connection and identity of tools --- */
#define PMIX_TOOL_NSPACE              "pmix.tool.nspace"    /* char* */
#define PMIX_TOOL_RANK                "pmix.tool.rank"      /* uint32_t */
#define PMIX_SERVER_PIDINFO           "pmix.srvr.pidinfo"   /* pid_t */
#define PMIX_CONNECT_TO_SYSTEM        "pmix.cnct.sys"       /* bool */
#define PMIX_CONNECT_SYSTEM_FIRST     "pmix.cnct.sys.first" /* bool */
#define PMIX_SERVER_URI               "pmix.srvr.uri"       /* char* */
#define PMIX_MYSERVER_URI             "pmix.mysrvr.uri"     /* char* */
#define PMIX_SERVER_HOSTNAME          "pmix.srvr.host"      /* char* */
#define PMIX_CONNECT_MAX_RETRIES      "pmix.tool.mretries"  /* uint32_t */
#define PMIX_CONNECT_RETRY_DELAY      "pmix.tool.retry"     /* uint32_t */
#define PMIX_TOOL_DO_NOT_CONNECT      "pmix.tool.nocon"     /* bool */
#define PMIX_TOOL_CONNECT_OPTIONAL    "pmix.tool.conopt"    /* bool */
#define PMIX_LAUNCHER                 "pmix.tool.launcher"  /* bool */
#define PMIX_LAUNCHER_RENDEZVOUS_FILE "pmix.tool.lncrnd"    /* char* */
#define PMIX_TOOL_ATTACHMENT_FILE     "pmix.tool.attach"    /* char* */
#define PMIX_PRIMARY_SERVER           "pmix.pri.srvr"       /* bool */
#define PMIX_NOHUP                    "pmix.nohup"          /* bool */
#define PMIX_LAUNCHER_DAEMON          "pmix.lnch.dmn"       /* char* */
#define PMIX_EXEC_AGENT               "pmix.exec.agnt"      /* char* */
#define PMIX_LAUNCH_DIRECTIVES        "pmix.lnch.dirs"      /* pmix_data_array_t* */

/* --- Identity of the calling process and its launcher --- */
#define PMIX_USERID              "pmix.euid"       /* uint32_t */
#define PMIX_GRPID               "pmix.egid"       /* uint32_t */
#define PMIX_VERSION_INFO        "pmix.version"    /* char* */
#define PMIX_REQUESTOR_IS_TOOL   "pmix.req.tool"   /* bool */
#define PMIX_REQUESTOR_IS_CLIENT "pmix.req.client" /* bool */
#define PMIX_PSET_NAME           "pmix.pset.nm"    /* char* */
#define PMIX_PSET_NAMES          "pmix.pset.nms"   /* pmix_data_array_t* */
#define PMIX_PSET_MEMBERS        "pmix.pset.mems"  /* pmix_data_array_t* */
#define PMIX_REINCARNATION       "pmix.reinc"      /* uint32_t */

/* --- Programming model and threading library --- */
#define PMIX_PROGRAMMING_MODEL     "pmix.pgm.model"   /* char* */
#define PMIX_MODEL_LIBRARY_NAME    "pmix.mdl.name"    /* char* */
#define PMIX_MODEL_LIBRARY_VERSION "pmix.mld.vrs"     /* char* */
#define PMIX_THREADING_MODEL       "pmix.threads"     /* char* */
#define PMIX_MODEL_NUM_THREADS     "pmix.mdl.nthrds"  /* uint64_t */
#define PMIX_MODEL_NUM_CPUS        "pmix.mdl.ncpu"    /* uint64_t */
#define PMIX_MODEL_CPU_TYPE        "pmix.mdl.cputype" /* char* */
#define PMIX_MODEL_PHASE_NAME      "pmix.mdl.phase"   /* char* */
#define PMIX_MODEL_PHASE_TYPE      "pmix.mdl.ptype"   /* char* */
#define PMIX_MODEL_AFFINITY_POLICY "pmix.mdl.tap"     /* char* */

/* --- TCP transport options --- */
#define PMIX_TCP_REPORT_URI   "pmix.tcp.repuri"    /* char* */
#define PMIX_TCP_URI          "pmix.tcp.uri"       /* char* */
#define PMIX_TCP_IF_INCLUDE   "pmix.tcp.ifinclude" /* char* */
#define PMIX_TCP_IF_EXCLUDE   "pmix.tcp.ifexclude" /* char* */
#define PMIX_TCP_IPV4_PORT    "pmix.tcp.ipv4"      /* int */
#define PMIX_TCP_IPV6_PORT    "pmix.tcp.ipv6"      /* int */
#define PMIX_TCP_DISABLE_IPV4 "pmix.tcp.disipv4"   /* bool */
#define PMIX_TCP_DISABLE_IPV6 "pmix.tcp.disipv6"   /* bool */

/* --- Per-process facts --- */
#define PMIX_CPUSET              "pmix.cpuset"  /* char* */
#define PMIX_CPUSET_BITMAP       "pmix.bitmap"  /* pmix_cpuset_t* */
#define PMIX_CREDENTIAL          "pmix.cred"    /* char* */
#define PMIX_SPAWNED             "pmix.spawned" /* bool */
#define PMIX_NODE_OVERSUBSCRIBED "pmix.ndosub"  /* bool */

/* --- Temporary and scratch directories --- */
#define PMIX_TMPDIR       "pmix.tmpdir"       /* char* */
#define PMIX_NSDIR        "pmix.nsdir"        /* char* */
#define PMIX_PROCDIR      "pmix.pdir"         /* char* */
#define PMIX_TDIR_RMCLEAN "pmix.tdir.rmclean" /* bool */

/* --- Ranks, ids and placement assigned by the RM --- */
#define PMIX_CLUSTER_ID         "pmix.clid"       /* char* */
#define PMIX_PROCID             "pmix.procid"     /* pmix_proc_t* */
#define PMIX_NSPACE             "pmix.nspace"     /* char* */
#define PMIX_JOBID              "pmix.jobid"      /* char* */
#define PMIX_APPNUM             "pmix.appnum"     /* uint32_t */
#define PMIX_RANK               "pmix.rank"       /* pmix_rank_t */
#define PMIX_GLOBAL_RANK        "pmix.grank"      /* pmix_rank_t */
#define PMIX_APP_RANK           "pmix.apprank"    /* pmix_rank_t */
#define PMIX_NPROC_OFFSET       "pmix.offset"     /* pmix_rank_t */
#define PMIX_LOCAL_RANK         "pmix.lrank"      /* uint16_t */
#define PMIX_NODE_RANK          "pmix.nrank"      /* uint16_t */
#define PMIX_PACKAGE_RANK       "pmix.pkgrank"    /* uint16_t */
#define PMIX_LOCALLDR           "pmix.lldr"       /* pmix_rank_t */
#define PMIX_APPLDR             "pmix.aldr"       /* pmix_rank_t */
#define PMIX_PROC_PID           "pmix.ppid"       /* pid_t */
#define PMIX_SESSION_ID         "pmix.session.id" /* uint32_t */
#define PMIX_NODE_LIST          "pmix.nlist"      /* char* */
#define PMIX_ALLOCATED_NODELIST "pmix.alist"      /* char* */
#define PMIX_HOSTNAME           "pmix.hname"      /* char* */
#define PMIX_HOSTNAME_ALIASES   "pmix.alias"      /* char* */
#define PMIX_HOSTNAME_KEEP_FQDN "pmix.fqdn"       /* bool */
#define PMIX_NODEID             "pmix.nodeid"     /* uint32_t */
#define PMIX_LOCAL_PEERS        "pmix.lpeers"     /* char* */
#define PMIX_LOCAL_PROCS        "pmix.lprocs"     /* pmix_data_array_t* */
#define PMIX_LOCAL_CPUSETS      "pmix.lcpus"      /* char* */
#define PMIX_PARENT_ID          "pmix.parent"     /* pmix_proc_t* */
#define PMIX_EXIT_CODE          "pmix.exit.code"  /* int */

/* --- Sizes and counts --- */
#define PMIX_UNIV_SIZE           "pmix.univ.size"  /* uint32_t */
#define PMIX_JOB_SIZE            "pmix.job.size"   /* uint32_t */
#define PMIX_JOB_NUM_APPS        "pmix.job.napps"  /* uint32_t */
#define PMIX_APP_SIZE            "pmix.app.size"   /* uint32_t */
#define PMIX_LOCAL_SIZE          "pmix.local.size" /* uint32_t */
#define PMIX_NODE_SIZE           "pmix.node.size"  /* uint32_t */
#define PMIX_MAX_PROCS           "pmix.max.size"   /* uint32_t */
#define PMIX_NUM_SLOTS           "pmix.num.slots"  /* uint32_t */
#define PMIX_NUM_NODES           "pmix.num.nodes"  /* uint32_t */
#define PMIX_NUM_ALLOCATED_NODES "pmix.num.anodes" /* uint32_t */

/* --- Memory --- */
#define PMIX_AVAIL_PHYS_MEMORY "pmix.pmem"       /* uint64_t */
#define PMIX_DAEMON_MEMORY     "pmix.dmn.mem"    /* float */
#define PMIX_CLIENT_AVG_MEMORY "pmix.cl.mem.avg" /* float */

/* --- Topology --- */
#define PMIX_TOPOLOGY2       "pmix.topo2"  /* pmix_topology_t* */
#define PMIX_LOCALITY_STRING "pmix.locstr" /* char* */

/* --- Request modifiers (collectives, timeouts, ...) --- */
#define PMIX_COLLECT_DATA               "pmix.collect"          /* bool */
#define PMIX_ALL_CLONES_PARTICIPATE     "pmix.clone.part"       /* bool */
#define PMIX_COLLECT_GENERATED_JOB_INFO "pmix.collect.gen"      /* bool */
#define PMIX_TIMEOUT                    "pmix.timeout"          /* int */
#define PMIX_IMMEDIATE                  "pmix.immediate"        /* bool */
#define PMIX_WAIT                       "pmix.wait"             /* int */
#define PMIX_NOTIFY_COMPLETION          "pmix.notecomp"         /* bool */
#define PMIX_RANGE                      "pmix.range"            /* pmix_data_range_t */
#define PMIX_PERSISTENCE                "pmix.persist"          /* pmix_persistence_t */
#define PMIX_DATA_SCOPE                 "pmix.scope"            /* pmix_scope_t */
#define PMIX_OPTIONAL                   "pmix.optional"         /* bool */
#define PMIX_GET_STATIC_VALUES          "pmix.get.static"       /* bool */
#define PMIX_GET_POINTER_VALUES         "pmix.get.pntrs"        /* bool */
#define PMIX_EMBED_BARRIER              "pmix.embed.barrier"    /* bool */
#define PMIX_JOB_TERM_STATUS            "pmix.job.term.status"  /* pmix_status_t */
#define PMIX_PROC_TERM_STATUS           "pmix.proc.term.status" /* pmix_status_t */
#define PMIX_PROC_STATE_STATUS          "pmix.proc.state"       /* pmix_proc_state_t */
#define PMIX_GET_REFRESH_CACHE          "pmix.get.refresh"      /* bool */
#define PMIX_ACCESS_PERMISSIONS         "pmix.aperms"           /* pmix_data_array_t* */
#define PMIX_ACCESS_USERIDS             "pmix.auids"            /* pmix_data_array_t* */
#define PMIX_ACCESS_GRPIDS              "pmix.agids"            /* pmix_data_array_t* */
#define PMIX_WAIT_FOR_CONNECTION        "pmix.wait.conn"        /* bool */
#define PMIX_QUALIFIED_VALUE            "pmix.qual.val"         /* pmix_data_array_t* */

/* --- Host server to server library: job/node/app/proc maps --- */
#define PMIX_REGISTER_NODATA         "pmix.reg.nodata"  /* bool */
#define PMIX_NODE_MAP                "pmix.nmap"        /* char* */
#define PMIX_NODE_MAP_RAW            "pmix.nmap.raw"    /* char* */
#define PMIX_PROC_MAP                "pmix.pmap"        /* char* */
#define PMIX_PROC_MAP_RAW            "pmix.pmap.raw"    /* char* */
#define PMIX_ANL_MAP                 "pmix.anlmap"      /* char* */
#define PMIX_APP_MAP_TYPE            "pmix.apmap.type"  /* char* */
#define PMIX_APP_MAP_REGEX           "pmix.apmap.regex" /* char* */
#define PMIX_REQUIRED_KEY            "pmix.req.key"     /* char* */
#define PMIX_LOCAL_COLLECTIVE_STATUS "pmix.loc.col.st"  /* pmix_status_t */
#define PMIX_SORTED_PROC_ARRAY       "pmix.sorted.parr" /* bool */

/* --- Event registration and notification --- */
#define PMIX_EVENT_HDLR_NAME              "pmix.evname"       /* char* */
#define PMIX_EVENT_HDLR_FIRST             "pmix.evfirst"      /* bool */
#define PMIX_EVENT_HDLR_LAST              "pmix.evlast"       /* bool */
#define PMIX_EVENT_HDLR_FIRST_IN_CATEGORY "pmix.evfirstcat"   /* bool */
#define PMIX_EVENT_HDLR_LAST_IN_CATEGORY  "pmix.evlastcat"    /* bool */
#define PMIX_EVENT_HDLR_BEFORE            "pmix.evbefore"     /* char* */
#define PMIX_EVENT_HDLR_AFTER             "pmix.evafter"      /* char* */
#define PMIX_EVENT_HDLR_PREPEND           "pmix.evprepend"    /* bool */
#define PMIX_EVENT_HDLR_APPEND            "pmix.evappend"     /* bool */
#define PMIX_EVENT_CUSTOM_RANGE           "pmix.evrange"      /* pmix_data_array_t* */
#define PMIX_EVENT_AFFECTED_PROC          "pmix.evproc"       /* pmix_proc_t* */
#define PMIX_EVENT_AFFECTED_PROCS         "pmix.evaffected"   /* pmix_data_array_t* */
#define PMIX_EVENT_NON_DEFAULT            "pmix.evnondef"     /* bool */
#define PMIX_EVENT_RETURN_OBJECT          "pmix.evobject"     /* void* */
#define PMIX_EVENT_DO_NOT_CACHE           "pmix.evnocache"    /* bool */
#define PMIX_EVENT_SILENT_TERMINATION     "pmix.evsilentterm" /* bool */
#define PMIX_EVENT_PROXY                  "pmix.evproxy"      /* pmix_proc_t* */
#define PMIX_EVENT_TEXT_MESSAGE           "pmix.evtext"       /* char* */
#define PMIX_EVENT_TIMESTAMP              "pmix.evtstamp"     /* time_t */
#define PMIX_EVENT_ONESHOT                "pmix.evone"        /* bool */

/* --- Fault tolerance --- */
#define PMIX_EVENT_TERMINATE_SESSION "pmix.evterm.sess" /* bool */
#define PMIX_EVENT_TERMINATE_JOB     "pmix.evterm.job"  /* bool */
#define PMIX_EVENT_TERMINATE_NODE    "pmix.evterm.node" /* bool */
#define PMIX_EVENT_TERMINATE_PROC    "pmix.evterm.proc" /* bool */
#define PMIX_EVENT_ACTION_TIMEOUT    "pmix.evtimeout"   /* int */

/* --- Spawn directives --- */
#define PMIX_PERSONALITY                      "pmix.pers"         /* char* */
#define PMIX_HOST                             "pmix.host"         /* char* */
#define PMIX_HOSTFILE                         "pmix.hostfile"     /* char* */
#define PMIX_ADD_HOST                         "pmix.addhost"      /* char* */
#define PMIX_ADD_HOSTFILE                     "pmix.addhostfile"  /* char* */
#define PMIX_PREFIX                           "pmix.prefix"       /* char* */
#define PMIX_WDIR                             "pmix.wdir"         /* char* */
#define PMIX_WDIR_USER_SPECIFIED              "pmix.wdir.user"    /* bool */
#define PMIX_DISPLAY_MAP                      "pmix.dispmap"      /* bool */
#define PMIX_DISPLAY_MAP_DETAILED             "pmix.dispmapdet"   /* bool */
#define PMIX_DISPLAY_ALLOCATION               "pmix.dispalloc"    /* bool */
#define PMIX_DISPLAY_TOPOLOGY                 "pmix.disptopo"     /* char* */
#define PMIX_PPR                              "pmix.ppr"          /* char* */
#define PMIX_MAPBY                            "pmix.mapby"        /* char* */
#define PMIX_RANKBY                           "pmix.rankby"       /* char* */
#define PMIX_BINDTO                           "pmix.bindto"       /* char* */
#define PMIX_PRELOAD_BIN                      "pmix.preloadbin"   /* bool */
#define PMIX_PRELOAD_FILES                    "pmix.preloadfiles" /* char* */
#define PMIX_STDIN_TGT                        "pmix.stdin"        /* pmix_proc_t* */
#define PMIX_DEBUGGER_DAEMONS                 "pmix.debugger"     /* bool */
#define PMIX_COSPAWN_APP                      "pmix.cospawn"      /* bool */
#define PMIX_COLOCATE_PROCS                   "pmix.colproc"      /* pmix_data_array_t* */
#define PMIX_COLOCATE_NPERPROC                "pmix.colnum.proc"  /* uint16_t */
#define PMIX_COLOCATE_NPERNODE                "pmix.colnum.node"  /* uint16_t */
#define PMIX_SET_SESSION_CWD                  "pmix.ssncwd"       /* bool */
#define PMIX_INDEX_ARGV                       "pmix.indxargv"     /* bool */
#define PMIX_CPUS_PER_PROC                    "pmix.cpuperproc"   /* uint32_t */
#define PMIX_NO_PROCS_ON_HEAD                 "pmix.nolocal"      /* bool */
#define PMIX_NO_OVERSUBSCRIBE                 "pmix.noover"       /* bool */
#define PMIX_REPORT_BINDINGS                  "pmix.repbind"      /* bool */
#define PMIX_CPU_LIST                         "pmix.cpulist"      /* char* */
#define PMIX_JOB_RECOVERABLE                  "pmix.recover"      /* bool */
#define PMIX_JOB_CONTINUOUS                   "pmix.continuous"   /* bool */
#define PMIX_MAX_RESTARTS                     "pmix.maxrestarts"  /* uint32_t */
#define PMIX_FWD_STDIN                        "pmix.fwd.stdin"    /* bool */
#define PMIX_FWD_STDOUT                       "pmix.fwd.stdout"   /* bool */
#define PMIX_FWD_STDERR                       "pmix.fwd.stderr"   /* bool */
#define PMIX_FWD_STDDIAG                      "pmix.fwd.stddiag"  /* bool */
#define PMIX_SPAWN_TOOL                       "pmix.spwn.tool"    /* bool */
#define PMIX_CMD_LINE                         "pmix.cmd.line"     /* char* */
#define PMIX_FORKEXEC_AGENT                   "pmix.fe.agnt"      /* char* */
#define PMIX_JOB_TIMEOUT                      "pmix.job.time"     /* int */
#define PMIX_SPAWN_TIMEOUT                    "pmix.sp.time"      /* int */
#define PMIX_TIMEOUT_STACKTRACES              "pmix.tim.stack"    /* bool */
#define PMIX_TIMEOUT_REPORT_STATE             "pmix.tim.state"    /* bool */
#define PMIX_APP_ARGV                         "pmix.app.argv"     /* char* */
#define PMIX_NOTIFY_JOB_EVENTS                "pmix.note.jev"     /* bool */
#define PMIX_NOTIFY_PROC_TERMINATION          "pmix.noteproc"     /* bool */
#define PMIX_NOTIFY_PROC_ABNORMAL_TERMINATION "pmix.noteabproc"   /* bool */
#define PMIX_ENVARS_HARVESTED                 "pmix.evar.hvstd"   /* bool */
#define PMIX_RUNTIME_OPTIONS                  "pmix.runopt"       /* char* */
#define PMIX_ABORT_NON_ZERO_TERM              "pmix.abnz"         /* bool */
#define PMIX_DO_NOT_LAUNCH                    "pmix.dnl"          /* bool */
#define PMIX_SHOW_LAUNCH_PROGRESS             "pmix.showprog"     /* bool */
#define PMIX_AGGREGATE_HELP                   "pmix.agg.help"     /* bool */
#define PMIX_REPORT_CHILD_SEP                 "pmix.rptchildsep"  /* bool */

/* --- Query keys (value type is what the query returns) --- */
#define PMIX_QUERY_SUPPORTED_KEYS    "pmix.qry.keys"       /* char* */
#define PMIX_QUERY_NAMESPACES        "pmix.qry.ns"         /* char* */
#define PMIX_QUERY_NAMESPACE_INFO    "pmix.qry.nsinfo"     /* pmix_data_array_t* */
#define PMIX_QUERY_JOB_STATUS        "pmix.qry.jst"        /* pmix_status_t */
#define PMIX_QUERY_QUEUE_LIST        "pmix.qry.qlst"       /* char* */
#define PMIX_QUERY_QUEUE_STATUS      "pmix.qry.qst"        /* pmix_data_array_t* */
#define PMIX_QUERY_PROC_TABLE        "pmix.qry.ptable"     /* pmix_data_array_t* */
#define PMIX_QUERY_LOCAL_PROC_TABLE  "pmix.qry.lptable"    /* pmix_data_array_t* */
#define PMIX_QUERY_AUTHORIZATIONS    "pmix.qry.auths"      /* pmix_data_array_t* */
#define PMIX_QUERY_SPAWN_SUPPORT     "pmix.qry.spawn"      /* char* */
#define PMIX_QUERY_DEBUG_SUPPORT     "pmix.qry.debug"      /* char* */
#define PMIX_QUERY_MEMORY_USAGE      "pmix.qry.mem"        /* pmix_data_array_t* */
#define PMIX_QUERY_ALLOC_STATUS      "pmix.query.alloc"    /* char* */
#define PMIX_TIME_REMAINING          "pmix.time.remaining" /* uint32_t */
#define PMIX_QUERY_NUM_PSETS         "pmix.qry.psetnum"    /* size_t */
#define PMIX_QUERY_PSET_NAMES        "pmix.qry.psets"      /* char* */
#define PMIX_QUERY_PSET_MEMBERSHIP   "pmix.qry.pmems"      /* pmix_data_array_t* */
#define PMIX_QUERY_NUM_GROUPS        "pmix.qry.pgrpnum"    /* size_t */
#define PMIX_QUERY_GROUP_NAMES       "pmix.qry.pgrp"       /* pmix_data_array_t* */
#define PMIX_QUERY_GROUP_MEMBERSHIP  "pmix.qry.pgrpmems"   /* pmix_data_array_t* */
#define PMIX_QUERY_ATTRIBUTE_SUPPORT "pmix.qry.attrs"      /* pmix_data_array_t* */
#define PMIX_CLIENT_FUNCTIONS        "pmix.client.fns"     /* char* */
#define PMIX_SERVER_FUNCTIONS        "pmix.srvr.fns"       /* char* */
#define PMIX_TOOL_FUNCTIONS          "pmix.tool.fns"       /* char* */
#define PMIX_HOST_FUNCTIONS          "pmix.host.fns"       /* char* */
#define PMIX_QUERY_AVAIL_SERVERS     "pmix.qry.asrvrs"     /* pmix_data_array_t* */
#define PMIX_QUERY_QUALIFIERS        "pmix.qry.quals"      /* pmix_data_array_t* */
#define PMIX_QUERY_RESULTS           "pmix.qry.res"        /* pmix_data_array_t* */

/* --- Query qualifiers (value type is what the caller supplies) --- */
#define PMIX_QUERY_REFRESH_CACHE        "pmix.qry.rfsh"     /* bool */
#define PMIX_QUERY_LOCAL_ONLY           "pmix.qry.local"    /* bool */
#define PMIX_QUERY_REPORT_AVG           "pmix.qry.avg"      /* bool */
#define PMIX_QUERY_REPORT_MINMAX        "pmix.qry.minmax"   /* bool */
#define PMIX_CLIENT_ATTRIBUTES          "pmix.client.attrs" /* char* */
#define PMIX_SERVER_ATTRIBUTES          "pmix.srvr.attrs"   /* char* */
#define PMIX_HOST_ATTRIBUTES            "pmix.host.attrs"   /* char* */
#define PMIX_TOOL_ATTRIBUTES            "pmix.tool.attrs"   /* char* */
#define PMIX_QUERY_SUPPORTED_QUALIFIERS "pmix.qry.quals"    /* bool */

/* --- PMIx_Get modifiers --- */
#define PMIX_SESSION_INFO "pmix.ssn.info"  /* bool */
#define PMIX_JOB_INFO     "pmix.job.info"  /* bool */
#define PMIX_APP_INFO     "pmix.app.info"  /* bool */
#define PMIX_NODE_INFO    "pmix.node.info" /* bool */

/* --- Where stored information belongs --- */
#define PMIX_SESSION_INFO_ARRAY "pmix.ssn.arr"  /* pmix_data_array_t* */
#define PMIX_JOB_INFO_ARRAY     "pmix.job.arr"  /* pmix_data_array_t* */
#define PMIX_APP_INFO_ARRAY     "pmix.app.arr"  /* pmix_data_array_t* */
#define PMIX_PROC_INFO_ARRAY    "pmix.pdata"    /* pmix_data_array_t* */
#define PMIX_NODE_INFO_ARRAY    "pmix.node.arr" /* pmix_data_array_t* */
#define PMIX_SERVER_INFO_ARRAY  "pmix.srv.arr"  /* pmix_data_array_t* */

/* --- PMIx_Log channels and options --- */
#define PMIX_LOG_SOURCE                    "pmix.log.source"   /* pmix_proc_t* */
#define PMIX_LOG_STDERR                    "pmix.log.stderr"   /* char* */
#define PMIX_LOG_STDOUT                    "pmix.log.stdout"   /* char* */
#define PMIX_LOG_SYSLOG                    "pmix.log.syslog"   /* char* */
#define PMIX_LOG_LOCAL_SYSLOG              "pmix.log.lsys"     /* char* */
#define PMIX_LOG_GLOBAL_SYSLOG             "pmix.log.gsys"     /* char* */
#define PMIX_LOG_SYSLOG_PRI                "pmix.log.syspri"   /* int */
#define PMIX_LOG_TIMESTAMP                 "pmix.log.tstmp"    /* time_t */
#define PMIX_LOG_GENERATE_TIMESTAMP        "pmix.log.gtstmp"   /* bool */
#define PMIX_LOG_TAG_OUTPUT                "pmix.log.tag"      /* bool */
#define PMIX_LOG_TIMESTAMP_OUTPUT          "pmix.log.tsout"    /* bool */
#define PMIX_LOG_XML_OUTPUT                "pmix.log.xml"      /* bool */
#define PMIX_LOG_ONCE                      "pmix.log.once"     /* bool */
#define PMIX_LOG_MSG                       "pmix.log.msg"      /* pmix_byte_object_t */
#define PMIX_LOG_KEY                       "pmix.log.key"      /* char* */
#define PMIX_LOG_VAL                       "pmix.log.val"      /* char* */
#define PMIX_LOG_AGG                       "pmix.log.agg"      /* bool */
#define PMIX_LOG_EMAIL                     "pmix.log.email"    /* pmix_data_array_t* */
#define PMIX_LOG_EMAIL_ADDR                "pmix.log.emaddr"   /* char* */
#define PMIX_LOG_EMAIL_SENDER_ADDR         "pmix.log.emfaddr"  /* char* */
#define PMIX_LOG_EMAIL_SUBJECT             "pmix.log.emsub"    /* char* */
#define PMIX_LOG_EMAIL_MSG                 "pmix.log.emmsg"    /* char* */
#define PMIX_LOG_EMAIL_SERVER              "pmix.log.esrvr"    /* char* */
#define PMIX_LOG_EMAIL_SRVR_PORT           "pmix.log.esrvrprt" /* int32_t */
#define PMIX_LOG_GLOBAL_DATASTORE          "pmix.log.gstore"   /* bool */
#define PMIX_LOG_JOB_RECORD                "pmix.log.jrec"     /* bool */
#define PMIX_LOG_PROC_TERMINATION          "pmix.logproc"      /* bool */
#define PMIX_LOG_PROC_ABNORMAL_TERMINATION "pmix.logabproc"    /* bool */
#define PMIX_LOG_JOB_EVENTS                "pmix.log.jev"      /* bool */
#define PMIX_LOG_COMPLETION                "pmix.logcomp"      /* bool */

/* --- Debugger support --- */
#define PMIX_DEBUG_STOP_ON_EXEC     "pmix.dbg.exec"   /* varies */
#define PMIX_DEBUG_STOP_IN_INIT     "pmix.dbg.init"   /* varies */
#define PMIX_DEBUG_STOP_IN_APP      "pmix.dbg.notify" /* varies */
#define PMIX_BREAKPOINT             "pmix.brkpnt"     /* char* */
#define PMIX_DEBUG_TARGET           "pmix.dbg.tgt"    /* pmix_proc_t* */
#define PMIX_DEBUG_DAEMONS_PER_PROC "pmix.dbg.dpproc" /* uint16_t */
#define PMIX_DEBUG_DAEMONS_PER_NODE "pmix.dbg.dpnd"   /* uint16_t */

/* --- Resource manager identity --- */
#define PMIX_RM_NAME    "pmix.rm.name"    /* char* */
#define PMIX_RM_VERSION "pmix.rm.version" /* char* */

/* --- Environment variable operations --- */
#define PMIX_SET_ENVAR     "pmix.envar.set"    /* pmix_envar_t* */
#define PMIX_ADD_ENVAR     "pmix.envar.add"    /* pmix_envar_t* */
#define PMIX_UNSET_ENVAR   "pmix.envar.unset"  /* char* */
#define PMIX_PREPEND_ENVAR "pmix.envar.prepnd" /* pmix_envar_t* */
#define PMIX_APPEND_ENVAR  "pmix.envar.appnd"  /* pmix_envar_t* */
#define PMIX_FIRST_ENVAR   "pmix.envar.first"  /* pmix_envar_t* */

/* --- Allocation requests --- */
#define PMIX_ALLOC_REQ_ID             "pmix.alloc.reqid"     /* char* */
#define PMIX_ALLOC_ID                 "pmix.alloc.id"        /* char* */
#define PMIX_ALLOC_NUM_NODES          "pmix.alloc.nnodes"    /* uint64_t */
#define PMIX_ALLOC_NODE_LIST          "pmix.alloc.nlist"     /* char* */
#define PMIX_ALLOC_NUM_CPUS           "pmix.alloc.ncpus"     /* uint64_t */
#define PMIX_ALLOC_NUM_CPU_LIST       "pmix.alloc.ncpulist"  /* char* */
#define PMIX_ALLOC_CPU_LIST           "pmix.alloc.cpulist"   /* char* */
#define PMIX_ALLOC_MEM_SIZE           "pmix.alloc.msize"     /* float */
#define PMIX_ALLOC_FABRIC             "pmix.alloc.net"       /* pmix_data_array_t* */
#define PMIX_ALLOC_FABRIC_ID          "pmix.alloc.netid"     /* char* */
#define PMIX_ALLOC_BANDWIDTH          "pmix.alloc.bw"        /* float */
#define PMIX_ALLOC_FABRIC_QOS         "pmix.alloc.netqos"    /* char* */
#define PMIX_ALLOC_TIME               "pmix.alloc.time"      /* uint32_t */
#define PMIX_ALLOC_FABRIC_TYPE        "pmix.alloc.nettype"   /* char* */
#define PMIX_ALLOC_FABRIC_PLANE       "pmix.alloc.netplane"  /* char* */
#define PMIX_ALLOC_FABRIC_ENDPTS      "pmix.alloc.endpts"    /* size_t */
#define PMIX_ALLOC_FABRIC_ENDPTS_NODE "pmix.alloc.endpts.nd" /* size_t */
#define PMIX_ALLOC_FABRIC_SEC_KEY     "pmix.alloc.nsec"      /* pmix_byte_object_t */
#define PMIX_ALLOC_QUEUE              "pmix.alloc.queue"     /* char* */

/* --- Job control --- */
#define PMIX_JOB_CTRL_ID                 "pmix.jctrl.id"       /* char* */
#define PMIX_JOB_CTRL_PAUSE              "pmix.jctrl.pause"    /* bool */
#define PMIX_JOB_CTRL_RESUME             "pmix.jctrl.resume"   /* bool */
#define PMIX_JOB_CTRL_CANCEL             "pmix.jctrl.cancel"   /* char* */
#define PMIX_JOB_CTRL_KILL               "pmix.jctrl.kill"     /* bool */
#define PMIX_JOB_CTRL_RESTART            "pmix.jctrl.restart"  /* char* */
#define PMIX_JOB_CTRL_CHECKPOINT         "pmix.jctrl.ckpt"     /* char* */
#define PMIX_JOB_CTRL_CHECKPOINT_EVENT   "pmix.jctrl.ckptev"   /* bool */
#define PMIX_JOB_CTRL_CHECKPOINT_SIGNAL  "pmix.jctrl.ckptsig"  /* int */
#define PMIX_JOB_CTRL_CHECKPOINT_TIMEOUT "pmix.jctrl.ckptsig"  /* int */
#define PMIX_JOB_CTRL_CHECKPOINT_METHOD  "pmix.jctrl.ckmethod" /* pmix_data_array_t* */
#define PMIX_JOB_CTRL_SIGNAL             "pmix.jctrl.sig"      /* int */
#define PMIX_JOB_CTRL_PROVISION          "pmix.jctrl.pvn"      /* char* */
#define PMIX_JOB_CTRL_PROVISION_IMAGE    "pmix.jctrl.pvnimg"   /* char* */
#define PMIX_JOB_CTRL_PREEMPTIBLE        "pmix.jctrl.preempt"  /* bool */
#define PMIX_JOB_CTRL_TERMINATE          "pmix.jctrl.term"     /* bool */
#define PMIX_REGISTER_CLEANUP            "pmix.reg.cleanup"    /* char* */
#define PMIX_REGISTER_CLEANUP_DIR        "pmix.reg.cleanupdir" /* char* */
#define PMIX_CLEANUP_RECURSIVE           "pmix.clnup.recurse"  /* bool */
#define PMIX_CLEANUP_EMPTY               "pmix.clnup.empty"    /* bool */
#define PMIX_CLEANUP_IGNORE              "pmix.clnup.ignore"   /* char* */
#define PMIX_CLEANUP_LEAVE_TOPDIR        "pmix.clnup.lvtop"    /* bool */

/* --- Monitoring --- */
#define PMIX_MONITOR_ID              "pmix.monitor.id"      /* char* */
#define PMIX_MONITOR_CANCEL          "pmix.monitor.cancel"  /* char* */
#define PMIX_MONITOR_APP_CONTROL     "pmix.monitor.appctrl" /* bool */
#define PMIX_MONITOR_HEARTBEAT       "pmix.monitor.mbeat"   /* bool */
#define PMIX_SEND_HEARTBEAT          "pmix.monitor.beat"    /* bool */
#define PMIX_MONITOR_HEARTBEAT_TIME  "pmix.monitor.btime"   /* uint32_t */
#define PMIX_MONITOR_HEARTBEAT_DROPS "pmix.monitor.bdrop"   /* uint32_t */
#define PMIX_MONITOR_FILE            "pmix.monitor.fmon"    /* char* */
#define PMIX_MONITOR_FILE_SIZE       "pmix.monitor.fsize"   /* bool */
#define PMIX_MONITOR_FILE_ACCESS     "pmix.monitor.faccess" /* char* */
#define PMIX_MONITOR_FILE_MODIFY     "pmix.monitor.fmod"    /* char* */
#define PMIX_MONITOR_FILE_CHECK_TIME "pmix.monitor.ftime"   /* uint32_t */
#define PMIX_MONITOR_FILE_DROPS      "pmix.monitor.fdrop"   /* uint32_t */

/* --- Security credentials --- */
#define PMIX_CRED_TYPE  "pmix.sec.ctype" /* char* */
#define PMIX_CRYPTO_KEY "pmix.sec.key"   /* pmix_byte_object_t */

/* --- I/O forwarding --- */
#define PMIX_IOF_CACHE_SIZE          "pmix.iof.csize"   /* uint32_t */
#define PMIX_IOF_DROP_OLDEST         "pmix.iof.old"     /* bool */
#define PMIX_IOF_DROP_NEWEST         "pmix.iof.new"     /* bool */
#define PMIX_IOF_BUFFERING_SIZE      "pmix.iof.bsize"   /* uint32_t */
#define PMIX_IOF_BUFFERING_TIME      "pmix.iof.btime"   /* uint32_t */
#define PMIX_IOF_COMPLETE            "pmix.iof.cmp"     /* bool */
#define PMIX_IOF_PUSH_STDIN          "pmix.iof.stdin"   /* bool */
#define PMIX_IOF_TAG_OUTPUT          "pmix.iof.tag"     /* bool */
#define PMIX_IOF_TAG_DETAILED_OUTPUT "pmix.iof.tagdet"  /* bool */
#define PMIX_IOF_TAG_FULLNAME_OUTPUT "pmix.iof.tagfull" /* bool */
#define PMIX_IOF_RANK_OUTPUT         "pmix.iof.rank"    /* bool */
#define PMIX_IOF_TIMESTAMP_OUTPUT    "pmix.iof.ts"      /* bool */
#define PMIX_IOF_MERGE_STDERR_STDOUT "pmix.iof.mrg"     /* bool */
#define PMIX_IOF_XML_OUTPUT          "pmix.iof.xml"     /* bool */
#define PMIX_IOF_OUTPUT_TO_FILE      "pmix.iof.file"    /* char* */
#define PMIX_IOF_FILE_PATTERN        "pmix.iof.fpt"     /* bool */
#define PMIX_IOF_OUTPUT_TO_DIRECTORY "pmix.iof.dir"     /* char* */
#define PMIX_IOF_FILE_ONLY           "pmix.iof.fonly"   /* bool */
#define PMIX_IOF_COPY                "pmix.iof.cpy"     /* bool */
#define PMIX_IOF_REDIRECT            "pmix.iof.redir"   /* bool */
#define PMIX_IOF_LOCAL_OUTPUT        "pmix.iof.local"   /* bool */
#define PMIX_IOF_OUTPUT_RAW          "pmix.iof.raw"     /* bool */

/* --- Application setup data --- */
#define PMIX_SETUP_APP_ENVARS    "pmix.setup.env"  /* bool */
#define PMIX_SETUP_APP_NONENVARS "pmix.setup.nenv" /* bool */
#define PMIX_SETUP_APP_ALL       "pmix.setup.all"  /* bool */

/* --- Process groups --- */
#define PMIX_GROUP_ID                 "pmix.grp.id"      /* char* */
#define PMIX_GROUP_LEADER             "pmix.grp.ldr"     /* bool */
#define PMIX_GROUP_OPTIONAL           "pmix.grp.opt"     /* bool */
#define PMIX_GROUP_NOTIFY_TERMINATION "pmix.grp.notterm" /* bool */
#define PMIX_GROUP_FT_COLLECTIVE      "pmix.grp.ftcoll"  /* bool */
#define PMIX_GROUP_MEMBERSHIP         "pmix.grp.mbrs"    /* pmix_data_array_t* */
#define PMIX_GROUP_ASSIGN_CONTEXT_ID  "pmix.grp.actxid"  /* bool */
#define PMIX_GROUP_CONTEXT_ID         "pmix.grp.ctxid"   /* size_t */
#define PMIX_GROUP_LOCAL_ONLY         "pmix.grp.lcl"     /* bool */
#define PMIX_GROUP_ENDPT_DATA         "pmix.grp.endpt"   /* pmix_byte_object_t */
#define PMIX_GROUP_NAMES              "pmix.pgrp.nm"     /* pmix_data_array_t* */
#define PMIX_GROUP_INFO               "pmix.grp.info"    /* pmix_data_array_t* */
#define PMIX_GROUP_LOCAL_CID          "pmix.grp.lclid"   /* size_t */
#define PMIX_GROUP_ADD_MEMBERS        "pmix.grp.add"     /* pmix_data_array_t* */

/* --- Storage systems --- */
#define PMIX_QUERY_STORAGE_LIST          "pmix.strg.list"    /* char* */
#define PMIX_STORAGE_CAPACITY_LIMIT      "pmix.strg.cap"     /* uint64_t */
#define PMIX_STORAGE_OBJECT_LIMIT        "pmix.strg.obj"     /* uint64_t */
#define PMIX_STORAGE_ID                  "pmix.strg.id"      /* char* */
#define PMIX_STORAGE_PATH                "pmix.strg.path"    /* char* */
#define PMIX_STORAGE_TYPE                "pmix.strg.type"    /* char* */
#define PMIX_STORAGE_ACCESSIBILITY       "pmix.strg.access"  /* pmix_storage_accessibility_t */
#define PMIX_STORAGE_ACCESS_TYPE         "pmix.strg.atype"   /* pmix_storage_access_type_t */
#define PMIX_STORAGE_BW_CUR              "pmix.strg.bwcur"   /* double */
#define PMIX_STORAGE_BW_MAX              "pmix.strg.bwmax"   /* double */
#define PMIX_STORAGE_CAPACITY_USED       "pmix.strg.capuse"  /* double */
#define PMIX_STORAGE_IOPS_CUR            "pmix.strg.iopscur" /* double */
#define PMIX_STORAGE_IOPS_MAX            "pmix.strg.iopsmax" /* double */
#define PMIX_STORAGE_MEDIUM              "pmix.strg.medium"  /* pmix_storage_medium_t */
#define PMIX_STORAGE_MINIMAL_XFER_SIZE   "pmix.strg.minxfer" /* double */
#define PMIX_STORAGE_OBJECTS_USED        "pmix.strg.objuse"  /* uint64_t */
#define PMIX_STORAGE_PERSISTENCE         "pmix.strg.persist" /* pmix_storage_persistence_t */
#define PMIX_STORAGE_SUGGESTED_XFER_SIZE "pmix.strg.sxfer"   /* double */
#define PMIX_STORAGE_VERSION             "pmix.strg.ver"     /* char* */

/* --- Fabrics and devices --- */
#define PMIX_FABRIC_COST_MATRIX        "pmix.fab.cm"          /* pointer */
#define PMIX_FABRIC_GROUPS             "pmix.fab.grps"        /* char* */
#define PMIX_FABRIC_VENDOR             "pmix.fab.vndr"        /* char* */
#define PMIX_FABRIC_IDENTIFIER         "pmix.fab.id"          /* char* */
#define PMIX_FABRIC_INDEX              "pmix.fab.idx"         /* size_t */
#define PMIX_FABRIC_COORDINATES        "pmix.fab.coord"       /* pmix_data_array_t* */
#define PMIX_FABRIC_DEVICE_VENDORID    "pmix.fabdev.vendid"   /* char* */
#define PMIX_FABRIC_NUM_DEVICES        "pmix.fab.nverts"      /* size_t */
#define PMIX_FABRIC_DIMS               "pmix.fab.dims"        /* uint32_t */
#define PMIX_FABRIC_PLANE              "pmix.fab.plane"       /* char* */
#define PMIX_FABRIC_SWITCH             "pmix.fab.switch"      /* char* */
#define PMIX_FABRIC_ENDPT              "pmix.fab.endpt"       /* pmix_data_array_t* */
#define PMIX_FABRIC_SHAPE              "pmix.fab.shape"       /* pmix_data_array_t* */
#define PMIX_FABRIC_SHAPE_STRING       "pmix.fab.shapestr"    /* char* */
#define PMIX_SWITCH_PEERS              "pmix.speers"          /* char* */
#define PMIX_FABRIC_DEVICE             "pmix.fabdev"          /* pmix_data_array_t* */
#define PMIX_FABRIC_DEVICES            "pmix.fab.devs"        /* pmix_data_array_t* */
#define PMIX_FABRIC_DEVICE_NAME        "pmix.fabdev.nm"       /* char* */
#define PMIX_FABRIC_DEVICE_INDEX       "pmix.fabdev.idx"      /* uint32_t */
#define PMIX_FABRIC_DEVICE_VENDOR      "pmix.fabdev.vndr"     /* char* */
#define PMIX_FABRIC_DEVICE_BUS_TYPE    "pmix.fabdev.btyp"     /* char* */
#define PMIX_FABRIC_DEVICE_DRIVER      "pmix.fabdev.driver"   /* char* */
#define PMIX_FABRIC_DEVICE_FIRMWARE    "pmix.fabdev.fmwr"     /* char* */
#define PMIX_FABRIC_DEVICE_ADDRESS     "pmix.fabdev.addr"     /* char* */
#define PMIX_FABRIC_DEVICE_COORDINATES "pmix.fab.coord"       /* pmix_geometry_t */
#define PMIX_FABRIC_DEVICE_MTU         "pmix.fabdev.mtu"      /* size_t */
#define PMIX_FABRIC_DEVICE_SPEED       "pmix.fabdev.speed"    /* size_t */
#define PMIX_FABRIC_DEVICE_STATE       "pmix.fabdev.state"    /* pmix_link_state_t */
#define PMIX_FABRIC_DEVICE_TYPE        "pmix.fabdev.type"     /* char* */
#define PMIX_FABRIC_DEVICE_PCI_DEVID   "pmix.fabdev.pcidevid" /* char* */

/* --- Device distances --- */
#define PMIX_DEVICE_DISTANCES "pmix.dev.dist" /* pmix_data_array_t* */
#define PMIX_DEVICE_TYPE      "pmix.dev.type" /* pmix_device_type_t */
#define PMIX_DEVICE_ID        "pmix.dev.id"   /* char* */

/* --- Descriptive attributes --- */
#define PMIX_MAX_VALUE                     "pmix.descr.maxval" /* varies */
#define PMIX_MIN_VALUE                     "pmix.descr.minval" /* varies */
#define PMIX_ENUM_VALUE                    "pmix.descr.enum"   /* char* */
#define PMIX_QUERY_STABLE_ABI_VERSION      "pmix.qry.stabiver" /* char* */
#define PMIX_QUERY_PROVISIONAL_ABI_VERSION "pmix.qry.prabiver" /* char* */

/* --- PMIx 5 additions --- */
/* connecting */
#define PMIX_CONNECTION_ORDER          "pmix.cnct.ord"   /* char*: attributes in order of trial */
#define PMIX_CONNECT_TO_SCHEDULER      "pmix.cnct.sched" /* bool */
#define PMIX_CONNECT_TO_SYS_CONTROLLER "pmix.cnct.ctrlr" /* bool */
#define PMIX_SERVER_SYS_CONTROLLER     "pmix.srv.ctrlr"  /* bool: hosted by the system controller */
#define PMIX_EXTERNAL_AUX_EVENT_BASE   "pmix.evaux"      /* void*: event base for auxiliary work */
#define PMIX_VERSION_NUMERIC           "pmix.vers.num"   /* uint32_t: the library's version */
/* display and topology */
#define PMIX_DISPLAY_PARSEABLE_OUTPUT "pmix.dispparse"  /* bool */
#define PMIX_DISPLAY_PROCESSORS       "pmix.dispcpus"   /* char*: hosts whose cpus to show */
#define PMIX_TOPOLOGY_INDEX           "pmix.topo.index" /* int */
/* spawn and job control */
#define PMIX_SPAWN_CHILD_SEP      "pmix.spchildsep"    /* bool: the child outlives its parent */
#define PMIX_JOB_CTRL_SEP         "pmix.jctrl.sep"     /* bool */
#define PMIX_JOB_CTRL_DEFINE_PSET "pmix.jctrl.defpset" /* char*: pset name for the targets */
/* queries */
#define PMIX_QUERY_ALLOCATION      "pmix.query.allc" /* pmix_data_array_t* */
#define PMIX_QUERY_AVAILABLE_SLOTS "pmix.qry.aslots" /* uint32_t */
#define PMIX_QUERY_RESOLVE_NODE    "pmix.qry.node"   /* char* */
#define PMIX_QUERY_RESOLVE_PEERS   "pmix.qry.peers"  /* pmix_data_array_t* of pmix_proc_t */
/* allocation requests */
#define PMIX_ALLOC_BEGIN          "pmix.alloc.begin"   /* char*: when to start */
#define PMIX_ALLOC_CHILD_SEP      "pmix.alloc.sep"     /* bool */
#define PMIX_ALLOC_DEPENDENCY     "pmix.alloc.depend"  /* char* */
#define PMIX_ALLOC_EXCLUDE        "pmix.alloc.exclude" /* char*: regex of nodes */
#define PMIX_ALLOC_IMAGE          "pmix.alloc.image"   /* char* */
#define PMIX_ALLOC_LEND           "pmix.alloc.lend"    /* char* */
#define PMIX_ALLOC_NOSHELL        "pmix.alloc.noshell" /* bool */
#define PMIX_ALLOC_PREEMPTIBLE    "pmix.alloc.preempt" /* bool */
#define PMIX_ALLOC_SHARE          "pmix.alloc.share"   /* bool */
#define PMIX_ALLOC_WAIT_ALL_NODES "pmix.alloc.waitall" /* bool */
/* session control (PMIx_Session_control) */
#define PMIX_SESSION_CTRL_ID         "pmix.ssnctrl.id"    /* char* */
#define PMIX_SESSION_APP             "pmix.ssn.app"       /* pmix_data_array_t* of pmix_app_t */
#define PMIX_SESSION_PAUSE           "pmix.ssn.pause"     /* bool */
#define PMIX_SESSION_RESUME          "pmix.ssn.resume"    /* bool */
#define PMIX_SESSION_TERMINATE       "pmix.ssn.terminate" /* bool */
#define PMIX_SESSION_PREEMPT         "pmix.ssn.preempt"   /* bool */
#define PMIX_SESSION_RESTORE         "pmix.ssn.restore"   /* bool */
#define PMIX_SESSION_SIGNAL          "pmix.ssn.sig"       /* int */
#define PMIX_SESSION_COMPLETE        "pmix.ssn.complete"  /* bool */
#define PMIX_SESSION_PROVISION       "pmix.ssn.pvn"       /* pmix_data_array_t* */
#define PMIX_SESSION_PROVISION_IMAGE "pmix.ssn.pvnimg"    /* char* */
#define PMIX_SESSION_PROVISION_NODES "pmix.ssn.pvnnds"    /* char* */

#endif /* PMIX_WU_ATTRS_H */
