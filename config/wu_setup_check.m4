dnl SPDX-License-Identifier: BSD-3-Clause
dnl wu_setup_check.m4 -- find the Check unit-test framework (needed only by make check).
AC_DEFUN([WU_SETUP_CHECK], [
    AC_ARG_WITH([check],
        [AS_HELP_STRING([--with-check=DIR], [Check (unit tests) installation prefix])])
    AS_IF([test "$with_check" = "no"],
          [wu_have_check=no],
          [PKG_CHECK_MODULES([CHECK], [check >= 0.11], [wu_have_check=yes], [wu_have_check=no])
           AS_IF([test "$wu_have_check" = "no" && test -n "$with_check" && test "$with_check" != "yes"],
                 [CHECK_CFLAGS="-I$with_check/include"; CHECK_LIBS="-L$with_check/lib -lcheck -lsubunit -lm -lrt -lpthread"
                  wu_have_check=yes])])
    AS_IF([test "$wu_have_check" = "yes"],
          [wu_check_summary="yes ($CHECK_LIBS)"],
          [wu_check_summary="no: 'make check' will fail; Debian/Ubuntu: apt-get install check"
           AC_MSG_WARN([Check not found: the library builds, but 'make check' needs Check (Debian/Ubuntu: apt-get install check)])])
    AM_CONDITIONAL([WU_HAVE_CHECK], [test "$wu_have_check" = "yes"])
    AC_SUBST([CHECK_CFLAGS])
    AC_SUBST([CHECK_LIBS])
])
