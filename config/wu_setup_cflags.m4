dnl SPDX-License-Identifier: BSD-3-Clause
dnl wu_setup_cflags.m4 -- language level, warnings, visibility and --enable-debug.
AC_DEFUN([WU_SETUP_CFLAGS], [
    AC_ARG_ENABLE([debug],
        [AS_HELP_STRING([--enable-debug], [debug checks (object lifetime, list ownership, status escapes) and -g -O0])],
        [wu_enable_debug=$enableval], [wu_enable_debug=no])
    AS_IF([test "$wu_enable_debug" = "yes"],
          [AC_DEFINE([WU_ENABLE_DEBUG], [1], [debug checks enabled])
           WU_DEBUG_CFLAGS="-g -O0"],
          [AC_DEFINE([WU_ENABLE_DEBUG], [0], [debug checks enabled])
           WU_DEBUG_CFLAGS=""])
    dnl Warnings are on for every build; -Werror only when the user (or CI) asks for it.
    WU_WARN_CFLAGS="-std=gnu11 -Wall -Wextra -Wundef -Wsign-compare -Wmissing-prototypes -Wstrict-prototypes -Wshadow=local -Wno-unused-parameter"
    AC_ARG_ENABLE([werror],
        [AS_HELP_STRING([--enable-werror], [treat compiler warnings as errors])],
        [AS_IF([test "$enableval" = "yes"], [WU_WARN_CFLAGS="$WU_WARN_CFLAGS -Werror"])])
    WU_VISIBILITY_CFLAGS="-fvisibility=hidden"
    AC_SUBST([WU_DEBUG_CFLAGS])
    AC_SUBST([WU_WARN_CFLAGS])
    AC_SUBST([WU_VISIBILITY_CFLAGS])
])
