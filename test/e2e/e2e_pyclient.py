#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# e2e_pyclient.py -- OpenPMIx's Python binding (python3-pmix: its PMIxClient, a Cython module
# linked against libpmix.so.2) as a client of wrun's server, on our library. Every rank:
# init declaring a programming model, the job size, a put + commit + collecting fence and a Get
# of every peer's value, a handler for PMIX_MODEL_DECLARED registered after init (the
# declaration must reach it), rank 0 publishes and the others look it up, a query of the
# namespaces, then finalize. Prints "pyclient rank R: ok" (rank 0 first the libpmix it
# loaded), or "FAIL: ..." and exits 1.
import sys
import time

import pmix
from pmix import PMIxClient


def const(name, default=None):
    return getattr(pmix, name, default)


def fail(rank, what):
    print("pyclient rank %s: FAIL: %s" % (rank, what), flush=True)
    sys.exit(1)


def value_of(v):
    # the binding hands a value back as its Python form, or as {'value': ..., 'val_type': ...}
    return v['value'] if isinstance(v, dict) and 'value' in v else v


def main():
    c = PMIxClient()
    model = [{'key': const('PMIX_PROGRAMMING_MODEL'), 'value': 'wu-python', 'val_type': const('PMIX_STRING')},
             {'key': const('PMIX_MODEL_LIBRARY_NAME'), 'value': 'e2e', 'val_type': const('PMIX_STRING')}]
    rc, me = c.init(model)
    if 0 != rc:
        fail('?', "init returned %d" % rc)
    rank, ns = me['rank'], me['nspace']
    wildcard = const('PMIX_RANK_WILDCARD')
    rc, size = c.get({'nspace': ns, 'rank': wildcard}, const('PMIX_JOB_SIZE'), [])
    if 0 != rc:
        fail(rank, "get of the job size returned %d" % rc)
    size = int(value_of(size))

    rc = c.put(const('PMIX_GLOBAL'), 'py.key', {'value': 'rank-%d' % rank, 'val_type': const('PMIX_STRING')})
    if 0 != rc or 0 != c.commit():
        fail(rank, "put/commit returned %d" % rc)
    rc = c.fence([], [{'key': const('PMIX_COLLECT_DATA'), 'value': True, 'val_type': const('PMIX_BOOL')}])
    if 0 != rc:
        fail(rank, "fence returned %d" % rc)
    for peer in range(size):
        rc, v = c.get({'nspace': ns, 'rank': peer}, 'py.key', [])
        if 0 != rc or value_of(v) != 'rank-%d' % peer:
            fail(rank, "get of rank %d's py.key returned %d, %r" % (peer, rc, v))

    # the model this process declared at init reaches a handler registered afterwards
    seen = []

    def on_model(evid, status, source, info, results):
        seen.append(status)
        return const('PMIX_EVENT_ACTION_COMPLETE'), []

    rc, ref = c.register_event_handler([const('PMIX_MODEL_DECLARED')], [], on_model)
    if 0 != rc:
        fail(rank, "register_event_handler returned %d" % rc)
    for _ in range(100):
        if seen:
            break
        time.sleep(0.05)
    if [const('PMIX_MODEL_DECLARED')] != seen:
        fail(rank, "the model declaration did not reach a handler registered after init: %r" % seen)

    if 0 == rank:
        rc = c.publish([{'key': 'py.svc', 'value': 'svc-of-0', 'val_type': const('PMIX_STRING')}])
        if 0 != rc:
            fail(rank, "publish returned %d" % rc)
    if 0 != c.fence([], []):
        fail(rank, "the second fence failed")
    if 0 != rank:
        rc, pdata = c.lookup([{'key': 'py.svc'}], [])
        if 0 != rc or 'svc-of-0' not in repr(pdata):
            fail(rank, "lookup of py.svc returned %d, %r" % (rc, pdata))
    rc, res = c.query([{'keys': [const('PMIX_QUERY_NAMESPACES')], 'qualifiers': []}])
    if 0 != rc or ns not in repr(res):
        fail(rank, "query of the namespaces returned %d, %r" % (rc, res))
    if 0 != c.fence([], []):
        fail(rank, "the last fence failed")
    rc = c.finalize([])
    if 0 != rc:
        fail(rank, "finalize returned %d" % rc)
    if 0 == rank:
        with open('/proc/self/maps') as maps:
            libs = sorted({l.split()[-1] for l in maps if 'libpmix.so' in l})
        print("pyclient libpmix: %s" % ' '.join(libs), flush=True)
    print("pyclient rank %d: ok" % rank, flush=True)


if __name__ == '__main__':
    main()
