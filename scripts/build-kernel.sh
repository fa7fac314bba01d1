#!/bin/sh
# Build a guest kernel: build-kernel.sh KERNEL VARIANT
#   KERNEL  base (the pristine base tree), patched (base + patches/series)
#           or prefix-K (base + the series' first K patches, K from 0, in
#           the worktree cache/prefix; make run PREFIXES=A:B)
#   VARIANT perf, debug, count or prof (configs/VARIANT.config)
#   ARCH    x86_64 (default) or arm64 (see scripts/lib.sh)
# Objects go to SRCTREE/.out/VARIANT (VARIANT-arm64 for arm64), and
# ccache's base_dir is the source tree, so that the base and patched trees
# share ccache hits. build/KERNEL-VARIANT/ (KERNEL-VARIANT-arm64/) gets a
# copy of the boot image (bzImage, Image), .config and sdisc.ko (the
# slow-discard test device), and the run logs. Prints the image's path.
. "$(dirname "$0")/lib.sh"
kernel=$1 variant=$2
need make gcc flex bison bc "${CROSS}gcc"
case $kernel in
base) "$TOP/scripts/base-tree.sh" || exit 1; src=$SRC ;;
patched) "$TOP/scripts/series.sh" apply || exit 1; src=$WORK ;;
prefix-*)
	"$TOP/scripts/series.sh" apply || exit 1
	k=${kernel#prefix-}
	n=$(git -C "$WORK" rev-list --count base..HEAD)
	case $k in ''|*[!0-9]*) die "KERNEL=prefix-K: K must be a number from 0 to $n, not '$k'" ;; esac
	[ "$k" -le "$n" ] || die "KERNEL=prefix-$k: the series has $n patches (K from 0 to $n)"
	rev=base
	[ "$k" -gt 0 ] && rev=$(git -C "$WORK" rev-list --reverse base..HEAD | sed -n "${k}p")
	src=$CACHE/prefix
	if [ ! -e "$src/.git" ]; then
		git -C "$SRC" worktree prune
		git -C "$SRC" worktree add -q --detach "$src" base ||
			die "cannot make the prefix worktree $src"
	fi
	git -C "$src" checkout -q --detach "$rev" ||
		die "cannot check out the first $k patches in $src" ;;
*) die "KERNEL must be base, patched or prefix-K (base + the first K patches), not '$kernel'" ;;
esac
out=$src/.out/$variant$SFX
run=$BUILD/$kernel-$variant$SFX
mkdir -p "$out" "$run"

frag_now=$("$TOP/scripts/kconfig.sh" "$src" "$out" "$variant" --dry-run) || exit 1
if [ ! -f "$out/.config" ] || [ "$frag_now" != "$(cat "$out/.fragments" 2>/dev/null)" ]; then
	step "configuring $kernel-$variant$SFX"
	"$TOP/scripts/kconfig.sh" "$src" "$out" "$variant" || exit 1
	printf '%s\n' "$frag_now" >"$out/.fragments"
fi

cc=${CROSS}gcc
if command -v ccache >/dev/null 2>&1; then
	cc="ccache ${CROSS}gcc"
	export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
	# paths relative to the source tree: base and patched share hits
	export CCACHE_BASEDIR=$src
	ccache -M 5G >/dev/null 2>&1
fi
# count (configs/count.config): mm/rmap.c without automatic inlining, so
# that set_tlb_ubc_flush_pending*() stay functions the profiler counts
set --
[ "$variant" = count ] &&
	set -- "CFLAGS_rmap.o=-fno-inline-functions -fno-inline-small-functions -fno-inline-functions-called-once"
# perf: LZ4's functions start on a 4 KiB page, in the base and the patched
# kernel alike. QEMU TCG chains translated blocks only within a guest
# page, so a compression loop that the series' code moves across a page
# boundary runs slower for that reason alone (measured/pageout-layout/).
[ "$variant" = perf ] &&
	set -- CFLAGS_lz4_compress.o=-falign-functions=4096 \
		CFLAGS_lz4_decompress.o=-falign-functions=4096
# PERF_ALIGN: more objects whose functions start on a 4 KiB page in perf
# kernels, for experiments on layout (e.g. PERF_ALIGN=memory.o)
for o in ${PERF_ALIGN:-}; do
	case $o in
	*/*|*[!a-z0-9_.-]*|[!a-z]*|*[!o]|*[!.]o) die "PERF_ALIGN: '$o' is not an object file name such as memory.o (no directory)" ;;
	esac
	[ "$variant" = perf ] || die "PERF_ALIGN applies to perf kernels only (VARIANT=perf)"
	set -- "$@" "CFLAGS_$o=-falign-functions=4096"
done
step "building $kernel-$variant$SFX kernel ($(cat "$SRC/.git/base-version"); log: $out/build.log)"
start=$(date +%s)
if ! make -C "$src" O="$out" ARCH=$KARCH CROSS_COMPILE=$CROSS CC="$cc" \
	-j"$(nproc)" "$@" $KTARGET modules >"$out/build.log" 2>&1; then
	grep -E 'error|Error' "$out/build.log" | head -n 20 >&2
	die "kernel build $kernel-$variant failed (full log: $out/build.log)"
fi
# the slow-discard test device (guest/sdisc), an out-of-tree module built
# against this kernel in a copy, so that the checkout stays clean
mod=$out/sdisc
rm -rf "$mod" && cp -r "$TOP/guest/sdisc" "$mod" || die "cannot copy guest/sdisc to $mod"
if ! make -C "$out" ARCH=$KARCH CROSS_COMPILE=$CROSS CC="$cc" M="$mod" modules \
	>"$out/sdisc.log" 2>&1; then
	grep -E 'error|warning' "$out/sdisc.log" | head -n 20 >&2
	die "sdisc module build failed against $kernel-$variant (log: $out/sdisc.log)"
fi
msg "    built in $(($(date +%s) - start)) s"
cp "$out/$KIMAGE" "$out/.config" "$mod/sdisc.ko" "$run/"
cp "$SRC/.git/base-version" "$run/base-version"
git -C "$src" describe --always --tags >"$run/kernel-rev" 2>/dev/null
echo "$run/${KIMAGE##*/}"
