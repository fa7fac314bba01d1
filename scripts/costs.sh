#!/bin/sh
# make costs: count the work behind swap_batch's benchmarks, base beside
# patched, in numbers emulation cannot distort. Builds the count kernels
# (configs/count.config: lock_stat and the function profiler; never
# timed), boots each once, and runs guest/costcount at each page size of
# BENCH_PAGES: per case, acquisitions of the swap cluster locks, calls of
# try_to_unmap_one(), TLB-batch adds (arch_tlbbatch_add_pending() calls),
# deferred flushes and reads of swap entries' memcg ids, printed per MiB. Writes results/costs-STAMP
# (-arm64 for ARCH=arm64): counts.tsv, table.txt, meta.
# make profile (costs.sh prof): where the time goes instead. Builds the
# prof kernels (configs/prof.config: the perf options plus the function
# profiler with the function graph tracer), and runs costcount -p with the
# call trees of guest/profile.tree: per case, each function's calls and
# time a MiB, medians of ROUNDS boots of each kernel, alternating (a
# single TCG boot can run slow throughout). Writes
# results/profile-STAMP: profile.tsv, table.txt, meta.
# Env: COST_MIB (64), BENCH_PAGES ("4 64"), ARCH, SWAP (zram, the default,
# or ssd|hdd|file), TIMEOUT (1800 s a boot), ROUNDS (make profile: 3).
. "$(dirname "$0")/lib.sh"
need "${CROSS}gcc" awk
mode=${1:-count}
case $mode in
count) name=costs target=costs out=counts.tsv tag=costcount opt= ;;
prof) name=profile target=profile out=profile.tsv tag=costprof opt=" -p /files/profile.tree" ;;
*) die "costs.sh: mode must be count (make costs) or prof (make profile), not '$mode'" ;;
esac
mib=${COST_MIB:-64} pages=${BENCH_PAGES:-4 64}
[ "$mib" -ge 1 ] 2>/dev/null || die "COST_MIB must be a number >= 1 (MiB)"
rounds=1
if [ "$mode" = prof ]; then
	rounds=${ROUNDS:-3}
	[ "$rounds" -ge 1 ] 2>/dev/null || die "ROUNDS must be a number >= 1 (boots of each kernel)"
fi
for p in $pages; do
	case $p in 4|8|16|32|64|128|256|512|1024|2048) ;;
	*) die "BENCH_PAGES: $p is not a page or mTHP size in KiB (4, 8, ... 2048)" ;;
	esac
done
swap=$(swap_kind) || exit 1
stamp=$(date -u +%Y%m%dT%H%M%SZ)
res=$TOP/results/$name-$stamp$SFX
mkdir -p "$res"
start=$(date +%s)

tool=$BUILD/count$SFX/costcount
mkdir -p "${tool%/*}"
if ! [ "$tool" -nt "$TOP/guest/costcount.c" ]; then
	step "building costcount"
	"${CROSS}gcc" -static -O2 -Wall -Wextra -Werror -o "$tool" \
		"$TOP/guest/costcount.c" >"$res/costcount.build.log" 2>&1 ||
		{ cat "$res/costcount.build.log" >&2; die "building guest/costcount.c failed"; }
fi

cmd='rc=0'
for p in $pages; do
	cmd="$cmd
/files/costcount$opt -s $mib -m $p || rc=1"
done
cmd="$cmd
exit \$rc"

: >"$res/$out"
img_base=$("$TOP/scripts/build-kernel.sh" base "$mode") || exit 1
img_patched=$("$TOP/scripts/build-kernel.sh" patched "$mode") || exit 1
r=0
while [ $r -lt "$rounds" ]; do
	r=$((r + 1))
	for k in base patched; do
		img=$img_base
		[ $k = patched ] && img=$img_patched
		log=$res/$k
		[ "$rounds" = 1 ] || log=$res/$k-$r
		mkdir -p "$log"
		"$TOP/scripts/mkinitramfs.sh" "$log/initramfs.cpio" "$cmd" "$tool" \
			"$TOP/guest/profile.tree" || exit 1
		step "$([ "$mode" = count ] && echo counting || echo profiling) on $k-$mode$SFX$([ "$rounds" = 1 ] || echo ", round $r of $rounds") (console: ${log#"$TOP"/}/console.log)"
		TIMEOUT=${TIMEOUT:-1800} "$TOP/scripts/qemu-run.sh" "$img" \
			"$log/initramfs.cpio" "$log" >"$log/guest.out" 2>"$log/qemu.err"
		grc=$?
		rm -f "$log/initramfs.cpio"
		if [ $grc != 0 ]; then
			grep 'costcount' "$log/output.log" >&2
			cat "$log/qemu.err" >&2
			die "$k $mode boot failed (exit $grc; logs: $log)"
		fi
		tag_round=
		[ "$mode" = prof ] && tag_round=" round=$r"
		tr -d '\r' <"$log/output.log" |
			sed -n "s/^$tag: case=/$k$tag_round case=/p" >>"$res/$out"
		cp "${img%/*}/kernel-rev" "$res/$k.kernel-rev"
	done
done

cat >"$res/meta" <<EOM
date=$stamp
arch=$([ "$KARCH" = arm64 ] && echo arm64 || echo x86_64)
base_rev=$(cat "$res/base.kernel-rev")
patched=$(cat "$res/patched.kernel-rev")
series_hash=$("$TOP/scripts/series.sh" hash)
guest=$([ "$KARCH" = arm64 ] && echo "arm64 (-M virt), ")${SMP:-2} vCPUs, ${MEM:-2G}, swap $swap
command=make $target$([ "$KARCH" = arm64 ] && echo " ARCH=arm64")$([ "$swap" != zram ] && echo " SWAP=$swap") COST_MIB=$mib BENCH_PAGES="$pages"$([ "$mode" = prof ] && echo " ROUNDS=$rounds")$([ "${ACCEL:-}" = icount ] && echo " ACCEL=icount SMP=${SMP:-2}")
took_s=$(($(date +%s) - start))
EOM

"$TOP/scripts/costs-table.sh" "$res" || exit 1
msg "results: ${res#"$TOP"/}/"
