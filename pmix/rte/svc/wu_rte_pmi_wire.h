/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_pmi_wire.h -- the text wire formats of MPICH's "simple PMI" (PMI-1 and PMI-2): finding
 * where one message ends in a byte stream, splitting it into its command and key=value
 * attributes, and writing answers. No I/O and no state: wu_rte_pmi.c does the serving.
 *
 * PMI-1 ("v1"): one line, "cmd=NAME key=value key=value\n"; a value ends at a space or the end
 * of the line, and a backslash takes the next character into the value as it is. Spawn is the
 * multi-line form: segments "mcmd=spawn\nkey=value\n...endcmd\n", one per command, the last one
 * the segment whose spawnssofar equals its totspawns; there a value is the rest of its line.
 * PMI-2 ("v2"): six characters holding the decimal length of what follows (padded with spaces),
 * then "cmd=NAME;key=value;...;", a value ending at ';'. A PMI-2 client opens with a PMI-1
 * "cmd=init pmi_version=2" line, so a connection switches format after its first message.
 *
 * Values are kept as they came (backslashes included, except in spawn segments, where they are
 * undone): the server hands a put value back byte for byte, which is what both MPICH clients
 * expect. */
#ifndef WU_RTE_PMI_WIRE_H
#define WU_RTE_PMI_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The longest message either side may send (MPICH's PMI-2 client allows 64 KiB). */
#define WU_PMI_MSG_MAX 65536
/* The most attributes one message may carry (a spawn of many arguments has the most). */
#define WU_PMI_KV_MAX 4096

typedef enum { WU_PMI_V1 = 1, WU_PMI_V2 = 2 } wu_pmi_wire_t;

typedef struct wu_pmi_kv {
    const char *key;
    const char *val; /* NULL for a bare word (PMI-1's "endcmd") */
} wu_pmi_kv_t;

/* A parsed message: pointers into the buffer it was parsed from. A spawn (v1 "mcmd=spawn" or v2
 * "cmd=spawn") keeps every attribute in order; each command's segment starts at an attribute
 * whose key is NULL (v1: each "mcmd=spawn" line; v2: before each "subcmd"). */
typedef struct wu_pmi_msg {
    wu_pmi_wire_t wire;
    const char *cmd;
    size_t nkv;
    wu_pmi_kv_t *kv; /* malloc'd; wu_pmi_msg_free */
} wu_pmi_msg_t;

/* Where the first message of buf (len bytes) ends: its length (> 0) and its format in *wire; 0
 * when more bytes are needed; -1 when what is there cannot begin a message, or a message would
 * be longer than WU_PMI_MSG_MAX. v2 says the connection speaks PMI-2 already (its messages carry
 * a length); otherwise messages are PMI-1. */
ssize_t wu_pmi_frame(const char *buf, size_t len, bool v2, wu_pmi_wire_t *wire);

/* Split the message buf[0..len) (a frame of wu_pmi_frame, changed in place) into m. WU_SUCCESS,
 * WU_ERR_BAD_PARAM when malformed (m is then empty), WU_ERR_NOMEM. */
int wu_pmi_parse(char *buf, size_t len, wu_pmi_wire_t wire, wu_pmi_msg_t *m);
void wu_pmi_msg_free(wu_pmi_msg_t *m);

/* The value of the first attribute key at or after index from (the whole message: 0), or
 * NULL. */
const char *wu_pmi_find(const wu_pmi_msg_t *m, size_t from, const char *key);
/* The same as a number: true when present and a decimal integer in [lo, hi]. */
bool wu_pmi_find_long(const wu_pmi_msg_t *m, size_t from, const char *key, long lo, long hi,
                      long *out);

/* An answer being written: begin, add attributes, end; then buf/len is the whole message. A
 * failed allocation or an answer past WU_PMI_MSG_MAX makes end fail (WU_ERR_NOMEM,
 * WU_ERR_BAD_PARAM). */
typedef struct wu_pmi_out {
    wu_pmi_wire_t wire;
    char *buf;
    size_t len, cap;
    bool failed;
} wu_pmi_out_t;
void wu_pmi_out_begin(wu_pmi_out_t *o, wu_pmi_wire_t wire, const char *cmd);
void wu_pmi_out_add(wu_pmi_out_t *o, const char *key, const char *val);
void wu_pmi_out_addl(wu_pmi_out_t *o, const char *key, long val);
int wu_pmi_out_end(wu_pmi_out_t *o);
void wu_pmi_out_free(wu_pmi_out_t *o);

#endif
