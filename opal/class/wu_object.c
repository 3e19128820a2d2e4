/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_object.c -- construction, destruction and reference counting of wu_object_t. */
#include "opal/class/wu_object.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

const wu_class_t wu_object_t_class = {"wu_object_t", NULL, NULL, NULL, sizeof(wu_object_t)};

static WU_NORETURN void obj_fatal(const wu_object_t *obj, const char *what, const char *file,
                                  int line)
{
    fprintf(stderr, "wireup: object error: %s of object %p at %s:%d\n", what, (const void *)obj,
            file, line);
    abort();
}

#if WU_ENABLE_DEBUG
/* Released objects stay here, poisoned, until they are pushed out, so a later retain or
 * release of one is caught instead of touching memory that was handed back to malloc. */
#define QUARANTINE 256
static void *quarantine[QUARANTINE];
static size_t quarantine_next;
static pthread_mutex_t quarantine_lock = PTHREAD_MUTEX_INITIALIZER;

static void obj_free(wu_object_t *obj)
{
    void *old;
    pthread_mutex_lock(&quarantine_lock);
    old = quarantine[quarantine_next];
    quarantine[quarantine_next] = obj;
    quarantine_next = (quarantine_next + 1) % QUARANTINE;
    pthread_mutex_unlock(&quarantine_lock);
    free(old);
}

static void obj_check(const wu_object_t *obj, const char *op, const char *file, int line)
{
    char what[96];
    if (NULL == obj) {
        snprintf(what, sizeof what, "%s (NULL pointer)", op);
        obj_fatal(obj, what, file, line);
    }
    if (WU_OBJECT_MAGIC_DEAD == obj->magic) {
        snprintf(what, sizeof what, "%s after final release", op);
        obj_fatal(obj, what, file, line);
    }
    if (WU_OBJECT_MAGIC != obj->magic) {
        snprintf(what, sizeof what, "%s (not a constructed object)", op);
        obj_fatal(obj, what, file, line);
    }
}
#else
static void obj_free(wu_object_t *obj)
{
    free(obj);
}
#define obj_check(obj, op, file, line) ((void)(obj), (void)(file), (void)(line))
#endif

static void run_ctors(wu_object_t *obj, const wu_class_t *cls)
{
    if (NULL == cls) {
        return;
    }
    run_ctors(obj, cls->parent);
    if (NULL != cls->ctor) {
        cls->ctor(obj);
    }
}

static void run_dtors(wu_object_t *obj)
{
    for (const wu_class_t *c = obj->cls; NULL != c; c = c->parent) {
        if (NULL != c->dtor) {
            c->dtor(obj);
        }
    }
}

void wu_obj_construct(wu_object_t *obj, const wu_class_t *cls, const char *file, int line)
{
    obj->magic = WU_OBJECT_MAGIC;
    obj->file = file;
    obj->line = line;
    obj->cls = cls;
    atomic_init(&obj->refcount, 1);
    obj->heap = 0;
    run_ctors(obj, cls);
}

wu_object_t *wu_obj_new(const wu_class_t *cls, const char *file, int line)
{
    wu_object_t *obj = calloc(1, cls->size);
    if (NULL == obj) {
        return NULL;
    }
    wu_obj_construct(obj, cls, file, line);
    obj->heap = 1;
    return obj;
}

void wu_obj_destruct(wu_object_t *obj, const char *file, int line)
{
    obj_check(obj, "destruct", file, line);
    run_dtors(obj);
    obj->magic = WU_OBJECT_MAGIC_DEAD;
}

void wu_obj_retain(wu_object_t *obj, const char *file, int line)
{
    obj_check(obj, "retain", file, line);
    if (atomic_fetch_add(&obj->refcount, 1) <= 0) {
        obj_fatal(obj, "retain of a released object", file, line);
    }
}

int wu_obj_release(wu_object_t *obj, const char *file, int line)
{
    int32_t prev;
    obj_check(obj, "release", file, line);
    prev = atomic_fetch_sub(&obj->refcount, 1);
    if (prev > 1) {
        return 0;
    }
    if (prev < 1) {
        obj_fatal(obj, "release of an already released object", file, line);
    }
    run_dtors(obj);
    obj->magic = WU_OBJECT_MAGIC_DEAD;
    if (obj->heap) {
        obj_free(obj);
    }
    return 1;
}

int wu_obj_is_a(const wu_object_t *obj, const wu_class_t *cls)
{
    for (const wu_class_t *c = obj->cls; NULL != c; c = c->parent) {
        if (c == cls) {
            return 1;
        }
    }
    return 0;
}
