#!/bin/sh
# Build static mm selftests from the work tree (base + series) into
# build/selftests (build/selftests-arm64 for ARCH=arm64: cross-built), for
# the guest initramfs.
# usage: build-selftests.sh [PROGRAM...]   (default: $SELFTESTS)
# Env: SELFTEST_TREE (another source tree, used as it is: no series
# apply), SELFTEST_OUT (output folder instead of build/selftests).
. "$(dirname "$0")/lib.sh"
need make gcc "${CROSS}gcc"
tree=${SELFTEST_TREE:-$WORK}
[ -n "$SELFTEST_TREE" ] || "$TOP/scripts/series.sh" apply || exit 1
progs=${*:-$SELFTESTS}
[ -n "$progs" ] || die "no selftest programs named"
hdr=$tree/.out/headers$SFX
out=${SELFTEST_OUT:-$BUILD/selftests$SFX}
mkdir -p "$hdr" "$out"
step "building selftests: $progs"
make -s -C "$tree" O="$hdr" ARCH=$KARCH headers >"$hdr/headers.log" 2>&1 ||
	{ tail -n 20 "$hdr/headers.log" >&2; die "make headers failed"; }
sel=$tree/tools/testing/selftests/mm
targets=
for p in $progs; do
	[ -f "$sel/$p.c" ] || die "selftest '$p' not found in $sel"
	targets="$targets $out/$p"
done
# shellcheck disable=SC2086
make -s -C "$sel" OUTPUT="$out" KHDR_INCLUDES="-isystem $hdr/usr/include" \
	ARCH=$KARCH CROSS_COMPILE=$CROSS LDFLAGS=-static $targets >"$out/build.log" 2>&1 ||
	{ grep -E 'error|warning' "$out/build.log" | head -n 20 >&2
	  die "selftest build failed (log: $out/build.log)"; }
