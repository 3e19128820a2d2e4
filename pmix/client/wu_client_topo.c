/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_client_topo.c -- the node's hardware topology in the client: PMIx_Load_topology and
 * PMIx_Compute_distances(_nb).
 *
 * Load_topology gives the topology of this node as an hwloc object (source "hwloc:<version>"),
 * built from the XML the host registered for the job (job-level PMIX_HWLOC_XML_V2, else _V1; wrun
 * registers its own), else, for a singleton or a host that registered none, discovered here. It
 * is loaded once and shared: every call hands out the same hwloc topology, which belongs to the
 * library and is destroyed at the last PMIx_Finalize. The caller owns only the source string it
 * is given (a source it set itself stays as it was): PMIx_Topology_destruct on the struct frees
 * that string and leaves the shared topology alone (pmix/common/wu_value.h, wu_topo_lend), so a
 * caller may destruct it or not, as OpenPMIx's own example does not.
 *
 * Compute_distances gives, for each OS device of the topology (network, OpenFabrics, GPU,
 * co-processor, block and DMA devices; PMIX_DEVICE_TYPE narrows the types, PMIX_DEVICE_ID names
 * one device by uuid or OS name), the minimum and maximum distance from the PUs of the cpuset
 * (NULL: the process's binding) to it: for one PU, the number of levels from the PU up to the
 * smallest object that also holds the device's attachment point (its first non-I/O ancestor),
 * so a device of the PU's own package is nearer than one behind another package. No device:
 * success with none. The uuid is "net://<address>" for a network device with an address,
 * "fab://<node GUID>" for an OpenFabrics device, "uuid://<UUID>" for a device hwloc gives a UUID
 * (GPUs), else "dev://<host>/<OS name>". The topology wrun registers has no I/O devices (loading
 * them would slow every launch), so distances on the node's own topology are computed on a copy
 * with them, discovered here once when first needed and kept with the node's topology. */
#include "opal/util/wu_argv.h"
#include "opal/util/wu_error.h"
#include "pmix/client/wu_client.h"
#include "pmix/common/wu_value.h"

#include <hwloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#ifdef HWLOC_VERSION
#define TOPO_SOURCE "hwloc:" HWLOC_VERSION
#else
#define TOPO_SOURCE "hwloc"
#endif

static struct {
    pthread_mutex_t lock;
    hwloc_topology_t node; /* the node's topology, lent to every caller */
    hwloc_topology_t io;   /* the node with its I/O devices (node itself when it has them) */
} topo = {PTHREAD_MUTEX_INITIALIZER, NULL, NULL};

static bool is_hwloc(const char *source)
{
    return NULL != source && 0 == strncmp(source, "hwloc", 5);
}

/* Load a topology from xml (NULL: discover this node), keeping the important I/O devices. */
static pmix_status_t load(const char *xml, hwloc_topology_t *out)
{
    hwloc_topology_t t;
    if (0 != hwloc_topology_init(&t)) {
        return PMIX_ERR_NOMEM;
    }
    if (0 != hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT) ||
        (NULL != xml && (0 != hwloc_topology_set_xmlbuffer(t, xml, (int)strlen(xml) + 1) ||
                         0 != hwloc_topology_set_flags(t, HWLOC_TOPOLOGY_FLAG_IS_THISSYSTEM))) ||
        0 != hwloc_topology_load(t)) {
        hwloc_topology_destroy(t);
        return PMIX_ERR_NOT_AVAILABLE;
    }
    *out = t;
    return PMIX_SUCCESS;
}

/* The topology XML the host registered for this node, or NULL. */
static char *registered_xml(void)
{
    static const char *const keys[] = {PMIX_HWLOC_XML_V2, PMIX_HWLOC_XML_V1};
    char *xml = NULL;
    wu_client_store_rdlock();
    for (size_t i = 0; i < sizeof keys / sizeof keys[0] && NULL == xml; i++) {
        pmix_value_t *v = NULL;
        if (PMIX_SUCCESS == wu_client.gds->fetch(wu_client.store, wu_client.myproc.nspace,
                                                 PMIX_RANK_WILDCARD, keys[i], &v) &&
            PMIX_STRING == v->type && NULL != v->data.string && '\0' != v->data.string[0]) {
            xml = strdup(v->data.string);
        }
        if (NULL != v) {
            PMIX_VALUE_RELEASE(v);
        }
    }
    wu_client_store_unlock();
    return xml;
}

/* The node's topology, loaded on first use (topo.lock held). */
static pmix_status_t node_topology(hwloc_topology_t *out)
{
    pmix_status_t rc = PMIX_SUCCESS;
    if (NULL == topo.node) {
        char *xml = registered_xml();
        /* an XML that does not load is the host's mistake: this node can still be seen */
        if (NULL == xml || PMIX_SUCCESS != load(xml, &topo.node)) {
            rc = load(NULL, &topo.node);
        }
        free(xml);
        if (PMIX_SUCCESS == rc) {
            wu_topo_lend(topo.node);
        }
    }
    *out = topo.node;
    return rc;
}

void wu_client_topo_release(void)
{
    pthread_mutex_lock(&topo.lock);
    if (NULL != topo.io && topo.io != topo.node) {
        hwloc_topology_destroy(topo.io);
    }
    if (NULL != topo.node) {
        hwloc_topology_destroy(topo.node);
    }
    topo.io = topo.node = NULL;
    pthread_mutex_unlock(&topo.lock);
}

pmix_status_t PMIx_Load_topology(pmix_topology_t *tp)
{
    hwloc_topology_t t = NULL;
    pmix_status_t rc;
    if (NULL == tp) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (!wu_client_ready()) {
        return PMIX_ERR_INIT;
    }
    if (NULL != tp->source && !is_hwloc(tp->source)) {
        return PMIX_ERR_NOT_SUPPORTED; /* the only implementation here is hwloc */
    }
    pthread_mutex_lock(&topo.lock);
    rc = node_topology(&t);
    pthread_mutex_unlock(&topo.lock);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (NULL == tp->source && NULL == (tp->source = strdup(TOPO_SOURCE))) {
        return PMIX_ERR_NOMEM;
    }
    tp->topology = t;
    return PMIX_SUCCESS;
}

/* ---- distances --------------------------------------------------------------------------- */

static const struct {
    pmix_device_type_t pmix;
    hwloc_obj_osdev_type_t hw;
} devtypes[] = {
    {PMIX_DEVTYPE_BLOCK, HWLOC_OBJ_OSDEV_BLOCK},
    {PMIX_DEVTYPE_GPU, HWLOC_OBJ_OSDEV_GPU},
    {PMIX_DEVTYPE_NETWORK, HWLOC_OBJ_OSDEV_NETWORK},
    {PMIX_DEVTYPE_OPENFABRICS, HWLOC_OBJ_OSDEV_OPENFABRICS},
    {PMIX_DEVTYPE_DMA, HWLOC_OBJ_OSDEV_DMA},
    {PMIX_DEVTYPE_COPROC, HWLOC_OBJ_OSDEV_COPROC},
};
#define NDEVTYPES (sizeof devtypes / sizeof devtypes[0])
#define ALL_DEVTYPES                                                                           \
    (PMIX_DEVTYPE_BLOCK | PMIX_DEVTYPE_GPU | PMIX_DEVTYPE_NETWORK | PMIX_DEVTYPE_OPENFABRICS | \
     PMIX_DEVTYPE_DMA | PMIX_DEVTYPE_COPROC)

/* What the directives ask for: device types (a mask) and device ids (uuid or OS name). */
typedef struct {
    pmix_device_type_t types;
    const char **ids; /* pointing into the directives */
    size_t nids;
} want_t;

static pmix_status_t parse_want(const pmix_info_t *info, size_t ninfo, want_t *w)
{
    bool typed = false;
    w->types = 0;
    w->ids = NULL;
    w->nids = 0;
    if (NULL == info && ninfo > 0) {
        return PMIX_ERR_BAD_PARAM;
    }
    for (size_t i = 0; i < ninfo; i++) {
        const pmix_value_t *v = &info[i].value;
        if (PMIX_CHECK_KEY(&info[i], PMIX_DEVICE_TYPE)) {
            uint64_t mask = 0;
            pmix_status_t rc = PMIX_SUCCESS;
            if (PMIX_DEVTYPE == v->type) {
                mask = v->data.devtype;
            } else {
                PMIX_VALUE_GET_NUMBER(rc, v, mask, uint64_t);
            }
            if (PMIX_SUCCESS != rc) {
                return PMIX_ERR_BAD_PARAM;
            }
            w->types |= mask;
            typed = true;
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_DEVICE_ID)) {
            const char **grown;
            if (PMIX_STRING != v->type || NULL == v->data.string) {
                return PMIX_ERR_BAD_PARAM;
            }
            if (NULL == (grown = realloc(w->ids, (w->nids + 1) * sizeof *grown))) {
                return PMIX_ERR_NOMEM;
            }
            w->ids = grown;
            w->ids[w->nids++] = v->data.string;
        }
    }
    if (!typed) {
        w->types = ALL_DEVTYPES;
    }
    return PMIX_SUCCESS;
}

/* The uuid of device d (malloc'd; NULL: out of memory). */
static char *dev_uuid(hwloc_obj_t d)
{
    const char *v = NULL;
    char *s = NULL;
    int rc;
    if (HWLOC_OBJ_OSDEV_NETWORK == d->attr->osdev.type &&
        NULL != (v = hwloc_obj_get_info_by_name(d, "Address"))) {
        rc = wu_asprintf(&s, "net://%s", v);
    } else if (HWLOC_OBJ_OSDEV_OPENFABRICS == d->attr->osdev.type &&
               NULL != (v = hwloc_obj_get_info_by_name(d, "NodeGUID"))) {
        rc = wu_asprintf(&s, "fab://%s", v);
    } else {
        for (unsigned i = 0; i < d->infos_count && NULL == v; i++) {
            size_t len = strlen(d->infos[i].name);
            if (len >= 4 && 0 == strcmp(d->infos[i].name + len - 4, "UUID")) {
                v = d->infos[i].value;
            }
        }
        rc = NULL != v ? wu_asprintf(&s, "uuid://%s", v)
                       : wu_asprintf(&s, "dev://%s/%s", wu_client.hostname, d->name);
    }
    return WU_SUCCESS == rc ? s : NULL;
}

static bool wanted(const want_t *w, pmix_device_type_t type, const char *uuid, const char *name)
{
    if (0 == (w->types & type)) {
        return false;
    }
    for (size_t i = 0; i < w->nids; i++) {
        if (0 == strcmp(w->ids[i], uuid) || 0 == strcmp(w->ids[i], name)) {
            return true;
        }
    }
    return 0 == w->nids;
}

/* The distance from each PU of set to device d: min and max. */
static void dev_distance(hwloc_topology_t t, hwloc_const_bitmap_t set, hwloc_obj_t d,
                         pmix_device_distance_t *out)
{
    hwloc_obj_t at = hwloc_get_non_io_ancestor_obj(t, d), pu = NULL;
    unsigned lo = UINT16_MAX, hi = 0;
    while (NULL != (pu = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_PU, pu))) {
        hwloc_obj_t common;
        unsigned dist;
        if (!hwloc_bitmap_isset(set, pu->os_index)) {
            continue;
        }
        common = NULL != at ? hwloc_get_common_ancestor_obj(t, pu, at) : NULL;
        dist = NULL != common && pu->depth >= common->depth ? (unsigned)(pu->depth - common->depth)
                                                            : UINT16_MAX - 1;
        lo = dist < lo ? dist : lo;
        hi = dist > hi ? dist : hi;
    }
    out->mindist = (uint16_t)lo;
    out->maxdist = (uint16_t)hi;
}

/* The distances from the PUs of set (none outside t) to the devices of t that w wants. */
static pmix_status_t distances(hwloc_topology_t t, hwloc_const_bitmap_t set, const want_t *w,
                               pmix_device_distance_t **out, size_t *nout)
{
    pmix_device_distance_t *res = NULL;
    size_t n = 0, cap = 0;
    hwloc_obj_t d = NULL;
    *out = NULL;
    *nout = 0;
    while (NULL != (d = hwloc_get_next_osdev(t, d))) {
        pmix_device_type_t type = 0;
        char *uuid;
        for (size_t i = 0; i < NDEVTYPES; i++) {
            type = devtypes[i].hw == d->attr->osdev.type ? devtypes[i].pmix : type;
        }
        if (0 == (w->types & type) || NULL == d->name) {
            continue;
        }
        if (NULL == (uuid = dev_uuid(d))) {
            goto nomem;
        }
        if (!wanted(w, type, uuid, d->name)) {
            free(uuid);
            continue;
        }
        if (n == cap) {
            pmix_device_distance_t *grown;
            cap = 0 == cap ? 4 : 2 * cap;
            if (NULL == (grown = realloc(res, cap * sizeof *grown))) {
                free(uuid);
                goto nomem;
            }
            res = grown;
        }
        PMIX_DEVICE_DIST_CONSTRUCT(&res[n]);
        res[n].uuid = uuid;
        res[n].type = type;
        if (NULL == (res[n++].osname = strdup(d->name))) {
            goto nomem;
        }
        dev_distance(t, set, d, &res[n - 1]);
    }
    *out = res;
    *nout = n;
    return PMIX_SUCCESS;
nomem:
    for (size_t i = 0; i < n; i++) {
        PMIX_DEVICE_DIST_DESTRUCT(&res[i]);
    }
    free(res);
    return PMIX_ERR_NOMEM;
}

/* The topology to measure tp on, topo.lock held: the node's own one (tp NULL, or the topology
 * lent out) with its I/O devices, else tp's. */
static pmix_status_t measured_topology(const pmix_topology_t *tp, hwloc_topology_t *out)
{
    pmix_status_t rc;
    if (NULL != tp) {
        if (!is_hwloc(tp->source)) {
            return PMIX_ERR_NOT_SUPPORTED;
        }
        if (NULL == tp->topology) {
            return PMIX_ERR_BAD_PARAM;
        }
        if (tp->topology != topo.node) {
            *out = tp->topology;
            return PMIX_SUCCESS;
        }
    }
    if (NULL == topo.io) {
        hwloc_topology_t node;
        if (PMIX_SUCCESS != (rc = node_topology(&node))) {
            return rc;
        }
        if (0 < hwloc_get_nbobjs_by_type(node, HWLOC_OBJ_OS_DEVICE)) {
            topo.io = node;
        } else if (PMIX_SUCCESS != (rc = load(NULL, &topo.io))) {
            return rc;
        }
    }
    *out = topo.io;
    return PMIX_SUCCESS;
}

/* The PUs to measure from: those of cs (NULL: the process's binding) that t has. */
static pmix_status_t measured_set(hwloc_topology_t t, const pmix_cpuset_t *cs, hwloc_bitmap_t set)
{
    if (NULL == cs) {
        if (!hwloc_topology_is_thissystem(t) ||
            0 != hwloc_get_cpubind(t, set, HWLOC_CPUBIND_PROCESS)) {
            return PMIX_ERR_BAD_PARAM; /* a topology of another machine needs a cpuset */
        }
    } else if (!is_hwloc(cs->source)) {
        return PMIX_ERR_NOT_SUPPORTED;
    } else if (NULL == cs->bitmap || 0 != hwloc_bitmap_copy(set, cs->bitmap)) {
        return PMIX_ERR_BAD_PARAM;
    }
    hwloc_bitmap_and(set, set, hwloc_topology_get_topology_cpuset(t));
    return hwloc_bitmap_iszero(set) ? PMIX_ERR_BAD_PARAM : PMIX_SUCCESS;
}

static pmix_status_t compute(pmix_topology_t *tp, pmix_cpuset_t *cs, const pmix_info_t *info,
                             size_t ninfo, pmix_device_distance_t **out, size_t *nout)
{
    hwloc_bitmap_t set = NULL;
    hwloc_topology_t t = NULL;
    want_t w;
    pmix_status_t rc;

    *out = NULL;
    *nout = 0;
    if (!wu_client_ready()) {
        return PMIX_ERR_INIT;
    }
    if (PMIX_SUCCESS != (rc = parse_want(info, ninfo, &w))) {
        free(w.ids);
        return rc;
    }
    if (NULL == (set = hwloc_bitmap_alloc())) {
        free(w.ids);
        return PMIX_ERR_NOMEM;
    }
    /* the lock keeps the node's topologies from being released meanwhile; reading an hwloc
     * topology is safe in any number of threads */
    pthread_mutex_lock(&topo.lock);
    rc = measured_topology(tp, &t);
    if (PMIX_SUCCESS == rc) {
        rc = measured_set(t, cs, set);
    }
    if (PMIX_SUCCESS == rc) {
        rc = distances(t, set, &w, out, nout);
    }
    pthread_mutex_unlock(&topo.lock);
    hwloc_bitmap_free(set);
    free(w.ids);
    return rc;
}

pmix_status_t PMIx_Compute_distances(pmix_topology_t *topo, pmix_cpuset_t *cpuset,
                                     pmix_info_t info[], size_t ninfo,
                                     pmix_device_distance_t *distances[], size_t *ndist)
{
    if (NULL == distances || NULL == ndist) {
        return PMIX_ERR_BAD_PARAM;
    }
    return compute(topo, cpuset, info, ninfo, distances, ndist);
}

typedef struct {
    pmix_device_distance_t *dist;
    size_t n;
    pmix_device_dist_cbfunc_t cbfunc;
    void *cbdata;
} dist_req_t;

static void dist_release(void *arg)
{
    dist_req_t *r = arg;
    for (size_t i = 0; i < r->n; i++) {
        PMIX_DEVICE_DIST_DESTRUCT(&r->dist[i]);
    }
    free(r->dist);
    free(r);
}

static void dist_deliver(void *arg)
{
    dist_req_t *r = arg;
    r->cbfunc(PMIX_SUCCESS, r->dist, r->n, r->cbdata, dist_release, r);
}

pmix_status_t PMIx_Compute_distances_nb(pmix_topology_t *topo, pmix_cpuset_t *cpuset,
                                        pmix_info_t info[], size_t ninfo,
                                        pmix_device_dist_cbfunc_t cbfunc, void *cbdata)
{
    dist_req_t *r;
    pmix_status_t rc;
    if (NULL == cbfunc) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (r = calloc(1, sizeof *r))) {
        return PMIX_ERR_NOMEM;
    }
    r->cbfunc = cbfunc;
    r->cbdata = cbdata;
    /* computed here; the answer comes on the progress thread, after this returns */
    rc = compute(topo, cpuset, info, ninfo, &r->dist, &r->n);
    if (PMIX_SUCCESS == rc && PMIX_SUCCESS != (rc = wu_client_shift(dist_deliver, r))) {
        rc = rc <= WU_INTERNAL_ERR_BASE ? PMIX_ERR_INIT : rc;
    }
    if (PMIX_SUCCESS != rc) {
        dist_release(r);
    }
    return rc;
}
