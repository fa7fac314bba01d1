#!/bin/sh
# make cow-counters: what a COW fault leaves in the swap cache, on the base.
# Builds the base with only the counter patch (tests/cow-counters.patch,
# a measurement patch that is not part of the series) in cache/cowbase
# (perf config), boots it with MGLRU on and then off, runs the fork-and-write
# workload (swap_batch -w) at each size of BENCH_PAGES and prints the
# counters, one line a run. Env: BENCH_MIB (256), BENCH_PAGES ("4 64"),
# WL_SECONDS (20), WL_CHILDREN (3), SWAP (zram|ssd|hdd|file: the guest's
# swap device, named in every line). Logs: results/cow-counters-STAMP-SWAP/.
. "$(dirname "$0")/lib.sh"
[ "$KARCH" = x86 ] || die "make cow-counters boots x86_64 guests only for now (ARCH=$ARCH)"
need git make gcc
mib=${BENCH_MIB:-256} pages=${BENCH_PAGES:-4 64}
secs=${WL_SECONDS:-20} kids=${WL_CHILDREN:-3}
swap=$(swap_kind) || exit 1
patch=$TOP/tests/cow-counters.patch
[ -f "$patch" ] || die "no counter patch: ${patch#"$TOP"/} is missing"
"$TOP/scripts/base-tree.sh" || exit 1
src=$CACHE/cowbase out=$CACHE/cowbase/.out/perf
if ! git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	rm -rf "$src"
	git -C "$SRC" worktree prune
	git -C "$SRC" worktree add -q --detach "$src" base || die "cannot create $src"
fi
git -C "$src" checkout -q --detach base && git -C "$src" reset -q --hard base ||
	die "cannot reset $src to base"
git -C "$src" -c user.name=harness -c user.email=harness@localhost am -q "$patch" || {
	git -C "$src" am --abort 2>/dev/null
	die "$(basename "$patch") does not apply to the base (tree: $src)"
}
mkdir -p "$out"
"$TOP/scripts/kconfig.sh" "$src" "$out" perf || exit 1
cc=gcc
if command -v ccache >/dev/null 2>&1; then
	cc="ccache gcc"
	export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache} CCACHE_BASEDIR=$src
fi
step "building base + $(basename "$patch") (perf; log: $out/build.log)"
make -C "$src" O="$out" CC="$cc" -j"$(nproc)" bzImage >"$out/build.log" 2>&1 || {
	grep -E 'error|Error' "$out/build.log" | head -n 20 >&2
	die "kernel build failed (full log: $out/build.log)"
}
"$TOP/scripts/build-selftests.sh" swap_batch || exit 1

res=$TOP/results/cow-counters-$(date -u +%Y%m%dT%H%M%SZ)-$swap
cmd="rc=0"
for p in $pages; do
	cmd="$cmd
swap_batch -w -s $mib -m $p -d $secs -c $kids -r 1 || rc=1"
done
cmd="$cmd
exit \$rc"
for lru in 1 0; do
	log=$res/lru$lru
	mkdir -p "$log"
	step "booting it with lru_gen=$lru, swap on $swap: swap_batch -w, $mib MiB, pages: $pages KiB"
	LRU_GEN=$lru "$TOP/scripts/mkinitramfs.sh" "$log/initramfs.cpio" "$cmd" || exit 1
	LRU_GEN=$lru "$TOP/scripts/qemu-run.sh" "$out/arch/x86/boot/bzImage" \
		"$log/initramfs.cpio" "$log" >"$log/guest.out" 2>"$log/qemu.err" ||
		die "the run with lru_gen=$lru failed (logs: $log)"
	rm -f "$log/initramfs.cpio"
	tr -d '\r' <"$log/output.log" | sed -n "s/^swap_batch: metric=cowws /swap=$swap lru_gen=$lru /p" |
		tee -a "$res/counters.txt"
done
msg "counters: ${res#"$TOP"/}/counters.txt"
