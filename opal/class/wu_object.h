/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_object.h -- reference-counted objects with single inheritance.
 *
 * A class is a static wu_class_t naming its parent, a constructor and a destructor. Objects
 * embed wu_object_t (or a subclass) as their first member. WU_NEW allocates and runs the
 * constructors from the root class down; the last WU_RELEASE runs the destructors from the
 * leaf up and frees. WU_CONSTRUCT/WU_DESTRUCT do the same for objects embedded in other
 * memory (no allocation, no free).
 *
 * Debug builds (--enable-debug) stamp each object with a magic number, keep released objects
 * in a small quarantine before freeing them, and abort with a clear message on a retain or
 * release of an object that was already released (use after release, double release). */
#ifndef WU_OBJECT_H
#define WU_OBJECT_H

#include "opal/util/wu_macros.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct wu_object wu_object_t;
typedef void (*wu_construct_t)(wu_object_t *obj);
typedef void (*wu_destruct_t)(wu_object_t *obj);

typedef struct wu_class {
    const char *name;
    const struct wu_class *parent;
    wu_construct_t ctor;
    wu_destruct_t dtor;
    size_t size;
} wu_class_t;

/* The layout does not depend on the build type, so components built out of tree agree with it. */
struct wu_object {
    uint64_t magic;   /* WU_OBJECT_MAGIC while alive; checked in debug builds */
    const char *file; /* where it was created */
    int line;
    const wu_class_t *cls;
    _Atomic int32_t refcount;
    int32_t heap; /* 1 if WU_NEW allocated it, 0 if WU_CONSTRUCTed in place */
};

#define WU_OBJECT_MAGIC      UINT64_C(0x5755424a45435421) /* "WUBJECT!" */
#define WU_OBJECT_MAGIC_DEAD UINT64_C(0x5755444541444f42) /* released */

extern const wu_class_t wu_object_t_class;

#define WU_CLASS(type)             (&type##_class)
#define WU_CLASS_DECLARATION(type) extern const wu_class_t type##_class
/* Define a class: WU_CLASS_INSTANCE(wu_list_t, wu_object_t, ctor, dtor); ctor/dtor may be NULL. */
#define WU_CLASS_INSTANCE(type, parent, ctor, dtor)                                  \
    const wu_class_t type##_class = {#type, &parent##_class, (wu_construct_t)(ctor), \
                                     (wu_destruct_t)(dtor), sizeof(type)}

WU_EXPORT wu_object_t *wu_obj_new(const wu_class_t *cls, const char *file, int line);
WU_EXPORT void wu_obj_construct(wu_object_t *obj, const wu_class_t *cls, const char *file,
                                int line);
WU_EXPORT void wu_obj_destruct(wu_object_t *obj, const char *file, int line);
WU_EXPORT void wu_obj_retain(wu_object_t *obj, const char *file, int line);
/* Returns 1 if this release destroyed the object. */
WU_EXPORT int wu_obj_release(wu_object_t *obj, const char *file, int line);
/* True if obj's class is cls or derives from it. */
int wu_obj_is_a(const wu_object_t *obj, const wu_class_t *cls);

#define WU_NEW(type) ((type *)wu_obj_new(WU_CLASS(type), __FILE__, __LINE__))
#define WU_CONSTRUCT(ptr, type) \
    wu_obj_construct((wu_object_t *)(ptr), WU_CLASS(type), __FILE__, __LINE__)
#define WU_DESTRUCT(ptr) wu_obj_destruct((wu_object_t *)(ptr), __FILE__, __LINE__)
#define WU_RETAIN(ptr)   wu_obj_retain((wu_object_t *)(ptr), __FILE__, __LINE__)
/* Releases and sets the pointer variable to NULL. */
#define WU_RELEASE(ptr)                                           \
    do {                                                          \
        wu_obj_release((wu_object_t *)(ptr), __FILE__, __LINE__); \
        (ptr) = NULL;                                             \
    } while (0)
#define WU_REFCOUNT(ptr) atomic_load(&((wu_object_t *)(ptr))->refcount)

#endif
