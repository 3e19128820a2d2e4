dnl SPDX-License-Identifier: BSD-3-Clause
dnl wu_mca.m4 -- decide, for every component autogen.pl found, whether it is built and how
dnl (linked into libpmix, or a DSO wu_mca_<fw>_<comp>.so), from --enable-mca-dso,
dnl --enable-mca-no-build and the component's own configure.m4 (if it has one).
dnl
dnl A component's configure.m4 defines WU_MCA_CONFIG_<fw>_<comp>([action-if-ok], [action-if-not]);
dnl it may set WU_MCA_<fw>_<comp>_CPPFLAGS and WU_MCA_<fw>_<comp>_LIBS.

AC_DEFUN([WU_SETUP_MCA], [
    AC_ARG_ENABLE([mca-dso],
        [AS_HELP_STRING([--enable-mca-dso@<:@=LIST@:>@],
            [build components as DSOs loaded at run time: all (no LIST), or a comma list of fw-comp or fw names])],
        [wu_mca_dso="$enableval"], [wu_mca_dso=no])
    AC_ARG_ENABLE([mca-no-build],
        [AS_HELP_STRING([--enable-mca-no-build=LIST], [do not build these components (comma list of fw-comp or fw)])],
        [wu_mca_no_build="$enableval"], [wu_mca_no_build=""])
    AS_IF([test "$wu_mca_no_build" = "yes" || test "$wu_mca_no_build" = "no"], [wu_mca_no_build=""])
    wu_mca_dso=`echo "$wu_mca_dso" | tr ' ' ','`
    wu_mca_no_build=`echo "$wu_mca_no_build" | tr ' ' ','`
    dnl every name given must be a framework or component we know
    for wu_mca_n in `echo "$wu_mca_dso,$wu_mca_no_build" | tr ',' ' '`; do
        AS_CASE([$wu_mca_n], [yes|no|""], [continue])
        AS_CASE([" WU_MCA_ALL_NAMES "], [*" $wu_mca_n "*], [],
            [AC_MSG_ERROR([unknown component or framework "$wu_mca_n" in --enable-mca-dso/--enable-mca-no-build.
Known names (fw or fw-comp): WU_MCA_ALL_NAMES])])
    done
    WU_MCA_SUMMARY=""
    WU_MCA_DSO_NAMES=""
    WU_MCA_CONFIGURE_ALL
    AC_DEFINE_UNQUOTED([WU_MCA_BUILD_SUMMARY], ["$WU_MCA_SUMMARY"], [how each component is built])
    AC_SUBST([WU_MCA_DSO_NAMES])
])

dnl WU_MCA_COMPONENT(fw, comp, has-configure-m4)
AC_DEFUN([WU_MCA_COMPONENT], [
    wu_mca_build=yes
    wu_mca_how=static
    wu_mca_why=""
    AS_CASE([",$wu_mca_no_build,"], [*",$1-$2,"*|*",$1,"*],
            [wu_mca_build=no; wu_mca_why="excluded by --enable-mca-no-build"])
    m4_if([$3], [1], [AS_IF([test "$wu_mca_build" = "yes"],
          [AC_MSG_CHECKING([whether component $1/$2 can be built])
           WU_MCA_CONFIG_$1_$2([AC_MSG_RESULT([yes])],
                               [AC_MSG_RESULT([no]); wu_mca_build=no; wu_mca_why="its configure check failed"])])])
    AS_IF([test "$wu_mca_build" = "yes"],
          [AS_CASE([",$wu_mca_dso,"], [*",yes,"*|*",$1-$2,"*|*",$1,"*], [wu_mca_how=dso])])
    AS_IF([test "$wu_mca_build" = "yes" && test "$wu_mca_how" = "static"],
          [AC_DEFINE([WU_MCA_STATIC_$1_$2], [1], [component $1/$2 is linked into libpmix])])
    AS_IF([test "$wu_mca_build" = "yes" && test "$wu_mca_how" = "dso"],
          [WU_MCA_DSO_NAMES="$WU_MCA_DSO_NAMES $1-$2"])
    AM_CONDITIONAL([WU_MCA_BUILD_$1_$2], [test "$wu_mca_build" = "yes"])
    AM_CONDITIONAL([WU_MCA_DSO_$1_$2], [test "$wu_mca_how" = "dso"])
    AC_SUBST([WU_MCA_$1_$2_CPPFLAGS])
    AC_SUBST([WU_MCA_$1_$2_LIBS])
    AS_IF([test "$wu_mca_build" = "yes"],
          [WU_MCA_SUMMARY="$WU_MCA_SUMMARY $1/$2:$wu_mca_how"],
          [WU_MCA_SUMMARY="$WU_MCA_SUMMARY $1/$2:not-built"
           AC_MSG_NOTICE([component $1/$2 will not be built: $wu_mca_why])])
])
