dnl SPDX-License-Identifier: BSD-3-Clause
dnl wu_pmix_compat.m4 -- which OpenPMIx generation's texts the library reproduces.
dnl
dnl The ABI is both generations' at once (PMIx 5.0 is a superset of 4.2), but a few texts differ
dnl between them and programs print them: PMIx_Error_string ("NOT-FOUND" in 4.2,
dnl "PMIX_ERR_NOT_FOUND" in 5.0) and PMIx_Get_version ("OpenPMIx 4.2.2 (PMIx Standard: 4.2,
dnl ..." or "OpenPMIx 5.0.7 (PMIx Standard: 5.1, ..."). Wireup answers as the generation it
dnl replaces: --with-pmix-compat=4.2 or 5.0; the default (auto) is that of the OpenPMIx headers
dnl installed on the build machine (Debian 12: 4.2, Debian 13: 5.0), else 5.0.
AC_DEFUN([WU_SETUP_PMIX_COMPAT], [
    AC_ARG_WITH([pmix-compat],
        [AS_HELP_STRING([--with-pmix-compat=4.2|5.0|auto],
            [OpenPMIx generation whose error strings and version text the library gives
             (default auto: that of the installed OpenPMIx headers, else 5.0)])],
        [], [with_pmix_compat=auto])
    AS_IF([test "$with_pmix_compat" = "auto"], [
        with_pmix_compat=5.0
        for wu_d in /usr/lib/x86_64-linux-gnu/pmix2/include /usr/lib/pmix2/include /usr/include; do
            AS_IF([test -r "$wu_d/pmix_version.h"], [
                wu_maj=`sed -n 's/^#define PMIX_VERSION_MAJOR *\([[0-9]]*\).*/\1/p' \
                    "$wu_d/pmix_version.h"`
                AS_IF([test "$wu_maj" = "4"], [with_pmix_compat=4.2])
                break])
        done])
    AC_MSG_CHECKING([which OpenPMIx generation's texts to give])
    AS_CASE([$with_pmix_compat],
        [4.2], [AC_DEFINE([WU_PMIX_COMPAT_MAJOR], [4], [OpenPMIx generation reproduced])
                AC_DEFINE([WU_PMIX_COMPAT_VERSION], ["4.2.2"], [OpenPMIx release reproduced])
                AC_DEFINE([WU_PMIX_STD_VERSION], ["4.2"], [PMIx Standard level reported])
                AC_DEFINE([WU_PMIX_ABI_VERSION], ["0.0"], [ABI levels reported])],
        [5.0], [AC_DEFINE([WU_PMIX_COMPAT_MAJOR], [5], [OpenPMIx generation reproduced])
                AC_DEFINE([WU_PMIX_COMPAT_VERSION], ["5.0.7"], [OpenPMIx release reproduced])
                AC_DEFINE([WU_PMIX_STD_VERSION], ["5.1"], [PMIx Standard level reported])
                AC_DEFINE([WU_PMIX_ABI_VERSION], ["5.0"], [ABI levels reported])],
        [AC_MSG_ERROR([--with-pmix-compat=$with_pmix_compat: use 4.2, 5.0 or auto])])
    AC_MSG_RESULT([$with_pmix_compat])
    wu_pmix_compat_summary=$with_pmix_compat
])
