dnl SPDX-License-Identifier: BSD-3-Clause
dnl wu_setup_ltdl.m4 -- find libltdl (loads DSO components), honouring --with-libltdl=DIR.
AC_DEFUN([WU_SETUP_LTDL], [
    AC_ARG_WITH([libltdl],
        [AS_HELP_STRING([--with-libltdl=DIR], [libltdl installation prefix (default: system)])])
    WU_FIND_LIB([libltdl], [$with_libltdl], [], [ltdl.h], [ltdl], [lt_dlopenext],
                [Debian/Ubuntu: apt-get install libltdl-dev; RHEL: dnf install libtool-ltdl-devel])
    WU_LTDL_CPPFLAGS="$wu_found_cppflags"
    WU_LTDL_LIBS="$wu_found_libs"
    wu_ltdl_summary="$wu_found_summary"
    AC_SUBST([WU_LTDL_CPPFLAGS])
    AC_SUBST([WU_LTDL_LIBS])
])
