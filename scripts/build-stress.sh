#!/bin/sh
# Build the swap stress suite (stress/*.c) as static programs for the
# guest, into build/stress (build/stress-arm64 for ARCH=arm64, cross-built;
# it goes to /opt/tests in the initramfs).
. "$(dirname "$0")/lib.sh"
need "${CROSS}gcc"
out=$BUILD/stress$SFX
mkdir -p "$out"
for src in "$TOP"/stress/*.c; do
	prog=$out/$(basename "$src" .c)
	[ "$prog" -nt "$src" ] && continue
	step "building $(basename "$prog") (stress suite)"
	"${CROSS}gcc" -static -O2 -Wall -Wextra -Werror -pthread -o "$prog" "$src" \
		>"$out/build.log" 2>&1 ||
		{ cat "$out/build.log" >&2; die "building $src failed (static libc: libc6-dev, or libc6-dev-arm64-cross for arm64)"; }
done
