dnl SPDX-License-Identifier: BSD-3-Clause
dnl wu_setup_hwloc.m4 -- find hwloc (>= 2.0), honouring --with-hwloc=DIR.
AC_DEFUN([WU_SETUP_HWLOC], [
    AC_ARG_WITH([hwloc],
        [AS_HELP_STRING([--with-hwloc=DIR], [hwloc installation prefix (default: pkg-config, then system)])])
    WU_FIND_LIB([hwloc], [$with_hwloc], [hwloc], [hwloc.h], [hwloc], [hwloc_topology_init],
                [Debian/Ubuntu: apt-get install libhwloc-dev; RHEL: dnf install hwloc-devel])
    WU_HWLOC_CPPFLAGS="$wu_found_cppflags"
    WU_HWLOC_LIBS="$wu_found_libs"
    wu_hwloc_summary="$wu_found_summary"
    AC_SUBST([WU_HWLOC_CPPFLAGS])
    AC_SUBST([WU_HWLOC_LIBS])
])
