#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (issue 30 acceptance, Debian 13): OpenPMIx 5's example programs on OpenPMIx 5's OWN
# library under `wrun --keep-library-path` (openpmix5_examples.sh with WU_EXAMPLES_WIRE=1):
# built with an RPATH to the system's libpmix, they speak OpenPMIx's protocol to wrun's server
# and must print what they print under prterun. Skipped without prterun (Debian 12).
WU_EXAMPLES_WIRE=1
export WU_EXAMPLES_WIRE
. "${WU_TEST_SRCDIR:-.}/test/e2e/openpmix5_examples.sh"
