#!/bin/sh
# Build the swap stress suite (stress/*.c) as static programs for the
# guest, into build/stress (it goes to /opt/tests in the initramfs).
. "$(dirname "$0")/lib.sh"
need gcc
out=$BUILD/stress
mkdir -p "$out"
for src in "$TOP"/stress/*.c; do
	prog=$out/$(basename "$src" .c)
	[ "$prog" -nt "$src" ] && continue
	step "building $(basename "$prog") (stress suite)"
	gcc -static -O2 -Wall -Wextra -Werror -pthread -o "$prog" "$src" \
		>"$out/build.log" 2>&1 ||
		{ cat "$out/build.log" >&2; die "building $src failed (static libc: libc6-dev)"; }
done
