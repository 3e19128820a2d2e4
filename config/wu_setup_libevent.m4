dnl SPDX-License-Identifier: BSD-3-Clause
dnl wu_setup_libevent.m4 -- find libevent core + pthreads (2.1), honouring --with-libevent=DIR.
AC_DEFUN([WU_SETUP_LIBEVENT], [
    AC_ARG_WITH([libevent],
        [AS_HELP_STRING([--with-libevent=DIR], [libevent installation prefix (default: pkg-config, then system)])])
    WU_FIND_LIB([libevent], [$with_libevent], [libevent_core libevent_pthreads], [event2/event.h event2/thread.h],
                [event_core], [event_base_new],
                [Debian/Ubuntu: apt-get install libevent-dev; RHEL: dnf install libevent-devel])
    WU_EVENT_CPPFLAGS="$wu_found_cppflags"
    WU_EVENT_LIBS="$wu_found_libs"
    dnl the pthreads glue lives in its own library
    AS_CASE([" $WU_EVENT_LIBS "], [*event_pthreads*], [],
            [WU_EVENT_LIBS="$WU_EVENT_LIBS -levent_pthreads"])
    wu_save_LIBS="$LIBS"; LIBS="$WU_EVENT_LIBS $LIBS"; wu_save_CPPFLAGS="$CPPFLAGS"; CPPFLAGS="$WU_EVENT_CPPFLAGS $CPPFLAGS"
    AC_MSG_CHECKING([for evthread_use_pthreads])
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <event2/thread.h>]], [[return evthread_use_pthreads();]])],
        [AC_MSG_RESULT([yes])],
        [AC_MSG_RESULT([no])
         AC_MSG_ERROR([libevent was found but its pthreads support (libevent_pthreads) is missing.
Install it (Debian/Ubuntu: apt-get install libevent-dev) or point --with-libevent=DIR at a build with threads.])])
    LIBS="$wu_save_LIBS"; CPPFLAGS="$wu_save_CPPFLAGS"
    wu_event_summary="$wu_found_summary"
    AC_SUBST([WU_EVENT_CPPFLAGS])
    AC_SUBST([WU_EVENT_LIBS])
])
