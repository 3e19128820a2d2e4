dnl SPDX-License-Identifier: BSD-3-Clause
dnl plog/syslog builds where the C library has syslog(3).
AC_DEFUN([WU_MCA_CONFIG_plog_syslog], [
    AC_CHECK_HEADER([syslog.h], [$1], [$2])
])
