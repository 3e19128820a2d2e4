/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_test_hwloc_lsan.h -- included once by a test program that discovers a node's I/O devices
 * through hwloc: hwloc's PCI plugin (libpciaccess) leaves what it allocates during a discovery
 * behind, in a module that is unloaded before LeakSanitizer reports. In a sanitizer build the
 * program unwinds allocations fully (the plugin has no frame pointers, so the fast unwinder
 * would stop inside it) and suppresses the leaks whose stack passes through libhwloc: Wireup's
 * own leaks still fail the program. Elsewhere these hooks are never called. */
#ifndef WU_TEST_HWLOC_LSAN_H
#define WU_TEST_HWLOC_LSAN_H

const char *__asan_default_options(void);
const char *__lsan_default_suppressions(void);

__attribute__((visibility("default"), used)) const char *__asan_default_options(void)
{
    return "fast_unwind_on_malloc=0";
}

__attribute__((visibility("default"), used)) const char *__lsan_default_suppressions(void)
{
    return "leak:libhwloc.so\n";
}

#endif
