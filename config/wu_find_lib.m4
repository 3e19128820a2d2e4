dnl SPDX-License-Identifier: BSD-3-Clause
dnl wu_find_lib.m4 -- one way to look for a dependency, so every "missing X" error reads the same.
dnl WU_FIND_LIB(name, with-value, pkg-config-modules, headers, lib, function, install-hint)
dnl Sets wu_found_cppflags, wu_found_libs, wu_found_summary; stops configure with a clear error if absent.
AC_DEFUN([WU_FIND_LIB], [
    wu_fl_with="$2"
    wu_found_cppflags=""
    wu_found_libs=""
    AS_IF([test "$wu_fl_with" = "no"], [AC_MSG_ERROR([$1 is required; --without-$1 is not supported])])
    AS_IF([test -n "$wu_fl_with" && test "$wu_fl_with" != "yes"],
          [AS_IF([test ! -d "$wu_fl_with"], [AC_MSG_ERROR([--with-$1=$wu_fl_with: no such directory])])
           wu_found_cppflags="-I$wu_fl_with/include"
           AS_IF([test -d "$wu_fl_with/lib64"], [wu_found_libs="-L$wu_fl_with/lib64 -Wl,-rpath,$wu_fl_with/lib64"],
                 [wu_found_libs="-L$wu_fl_with/lib -Wl,-rpath,$wu_fl_with/lib"])
           wu_found_libs="$wu_found_libs -l$5"
           wu_found_summary="$wu_fl_with"],
          [m4_ifval([$3],
             [AS_IF([test -n "$PKG_CONFIG" && $PKG_CONFIG --exists $3 2>/dev/null],
                    [wu_found_cppflags=`$PKG_CONFIG --cflags $3`
                     wu_found_libs=`$PKG_CONFIG --libs $3`
                     wu_found_summary="pkg-config: $3 `$PKG_CONFIG --modversion $3 | tr '\n' ' '`"],
                    [wu_found_libs="-l$5"; wu_found_summary="system"])],
             [wu_found_libs="-l$5"; wu_found_summary="system"])])
    wu_save_CPPFLAGS="$CPPFLAGS"; CPPFLAGS="$wu_found_cppflags $CPPFLAGS"
    wu_save_LIBS="$LIBS"; LIBS="$wu_found_libs $LIBS"
    for wu_fl_h in $4; do
        AC_CHECK_HEADER([$wu_fl_h], [],
            [AC_MSG_ERROR([$1 is required but its header $wu_fl_h was not found.
$7
or point --with-$1=DIR at an installation.])])
    done
    AC_MSG_CHECKING([whether $6 links from $1])
    AC_LINK_IFELSE([AC_LANG_CALL([], [$6])], [AC_MSG_RESULT([yes])],
        [AC_MSG_RESULT([no])
         AC_MSG_ERROR([$1 is required but linking $6 with "$wu_found_libs" failed.
$7
or point --with-$1=DIR at an installation.])])
    CPPFLAGS="$wu_save_CPPFLAGS"; LIBS="$wu_save_LIBS"
])
