# SPDX-License-Identifier: BSD-3-Clause
# lib.sh -- sourced by the ABI shell tests: run a program that was NOT built by this project on
# our build's libpmix.so.2. In a sanitizer build the library needs the sanitizer runtimes loaded
# first, so they are preloaded (leak checking is left to the unit tests).
# Needs: $b (build dir), $lib (our libpmix.so.2), $cc (C compiler).
wu_abi_preload=
for rt in $(readelf -d "$lib" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(lib[a-z]*san\.so[.0-9]*\)\].*/\1/p'); do
    path=$($cc -print-file-name="$rt")
    wu_abi_preload="${wu_abi_preload:+$wu_abi_preload:}$path"
done
run_ours() {
    if [ -n "$wu_abi_preload" ]; then
        LD_PRELOAD="$wu_abi_preload" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
            LD_LIBRARY_PATH="$b/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" LD_BIND_NOW=1 \
            timeout 60 "$@"
    else
        LD_LIBRARY_PATH="$b/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" LD_BIND_NOW=1 \
            timeout 60 "$@"
    fi
}
