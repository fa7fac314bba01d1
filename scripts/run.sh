#!/bin/sh
# make run: base versus patched, side by side.
# Builds the perf kernels for base and patched, boots them alternately
# ROUNDS times each, runs swap_batch's benchmark mode at each page size of
# BENCH_PAGES (KiB), and prints a table (scripts/bench-table.sh), with JSON
# and a PNG chart under results/.
# Env: ROUNDS (5), BENCH_MIB (256), BENCH_PAGES ("4 64"), BENCH_METRICS
# (swap_batch -M: the rows named, e.g. refault,calibrate), INNER (1: runs
# per boot; the boot's sample is their median), NULL (1: a null run, base
# against itself: the second kernel of each round is base again, labelled
# "patched", to measure the noise band), BENCH (swap: swap_batch -b; cowws:
# the fork-and-write workload swap_batch -w, WL_SECONDS (30) a run,
# WL_CHILDREN (3), with its counters in cowws.txt; discard: swap_discard -b,
# rounds of mmap, write, MADV_PAGEOUT, munmap on the slow-discard device
# sdisc0 (guest/sdisc) with no other swap: DISCARD (pages|once|none: the
# swapon policy), DISCARD_ROUNDS (8) rounds of BENCH_MIB (128 here) a boot,
# SDISC_OPTS (the device's timing), DISCARD_LAYOUT (rounds, or scattered:
# swap_discard -l scattered, DISCARD_ROUNDS (3) times fill the device, free
# every other cluster and swap out as much again at once)), LRU_GEN (1/0),
# SWAP (zram|ssd|hdd|file|zswap:
# the guest's swap device, named in meta and the table), ARCH (x86_64 or
# arm64: see scripts/lib.sh; arm64 results are folders STAMP-arm64),
# PREFIXES (A:B: the "base" column is the base with the series' first A
# patches, the "patched" one with its first B; 0 is the base itself: the
# numbers of one patch are PREFIXES=K-1:K).
. "$(dirname "$0")/lib.sh"
bench=${BENCH:-swap}
def_mib=256
[ "$bench" = discard ] && def_mib=128
rounds=${ROUNDS:-5} mib=${BENCH_MIB:-$def_mib} pages=${BENCH_PAGES:-4 64} inner=${INNER:-1}
null=${NULL:-0}
[ "${ACCEL:-}" != icount ] || [ "${SMP:-2}" = 1 ] ||
	die "ACCEL=icount needs SMP=1 (with ${SMP:-2} vCPUs the guest stalls RCU under QEMU's icount)"
wl_seconds=${WL_SECONDS:-30} wl_children=${WL_CHILDREN:-3}
discard=${DISCARD:-pages} layout=${DISCARD_LAYOUT:-rounds}
discard_rounds=${DISCARD_ROUNDS:-$([ "$layout" = scattered ] && echo 3 || echo 8)}
prog=swap_batch
case $bench in
swap)
	run_args="-b"
	# BENCH_METRICS: those rows only (swap_batch -M), e.g. refault,calibrate
	if [ -n "${BENCH_METRICS:-}" ]; then
		printf '%s\n' "$BENCH_METRICS" | grep -Eqx '[a-z-]+(,[a-z-]+)*' ||
			die "BENCH_METRICS must be row names joined by commas (pageout,swapin,munmap-excl,fork,munmap-shared,lazyfree-pageout,pageout-zero,refault,calibrate), not '$BENCH_METRICS'"
		run_args="-b -M $BENCH_METRICS"
	fi ;;
cowws)
	[ "$wl_seconds" -ge 1 ] 2>/dev/null || die "WL_SECONDS must be a number >= 1"
	[ "$wl_children" -ge 0 ] 2>/dev/null || die "WL_CHILDREN must be a number >= 0"
	run_args="-w -d $wl_seconds -c $wl_children" ;;
discard)
	case $discard in pages|once|none) ;; *) die "DISCARD must be pages, once or none, not '$discard'" ;; esac
	case $layout in rounds|scattered) ;; *) die "DISCARD_LAYOUT must be rounds or scattered, not '$layout'" ;; esac
	[ "$discard_rounds" -ge 1 ] 2>/dev/null || die "DISCARD_ROUNDS must be a number >= 1"
	prog=swap_discard
	run_args="-d /dev/sdisc0 -b -p $discard -n $discard_rounds -l $layout"
	# the benchmark's device only: 1.5 times the region, so that the
	# allocator needs the clusters of the previous round back
	export ZRAM_SIZE=0 SDISC_SIZE=$((mib * 3 / 2))M
	export SDISC_OPTS="${SDISC_OPTS:-delay_us=30000 us_per_mib=1000 depth=4}" ;;
*) die "BENCH must be swap, cowws or discard, not '$bench'" ;;
esac
swap=$(swap_kind) || exit 1
bps=$(disk_write_bps one-device) || exit 1
[ "$bench" = discard ] && [ "$swap" != zram ] &&
	die "BENCH=discard swaps to its slow-discard device only: leave SWAP unset"
case $swap in
zram) swap_desc="zram ${ZRAM_SIZE:-1G} ${ZRAM_COMP:-lz4}" ;;
file) swap_desc="a swap file on ext4 on a virtio disk of ${DISK_SIZE:-1G} (non-rotational)" ;;
ssd) swap_desc="virtio disk ${DISK_SIZE:-1G}, rotational 0 (ssd)" ;;
zswap) swap_desc="zswap (lz4, zsmalloc) in front of a virtio disk ${DISK_SIZE:-1G}, rotational 0" ;;
hdd) swap_desc="virtio disk ${DISK_SIZE:-1G}, rotational 1 (hdd)" ;;
esac
[ -z "$bps" ] || swap_desc="$swap_desc, writes limited to $bps bytes a second"
# the kernels behind the two columns, "base" and "patched"
kb=base kp=patched
if [ -n "${PREFIXES:-}" ]; then
	printf '%s\n' "$PREFIXES" | grep -Eqx '[0-9]+:[0-9]+' ||
		die "PREFIXES must be A:B, two patch counts (0: the base), e.g. 10:11, not '$PREFIXES'"
	[ "$null" = 1 ] && die "PREFIXES and NULL=1 do not go together"
	kb=prefix-${PREFIXES%%:*} kp=prefix-${PREFIXES#*:}
fi
kernels="$kb $kp"
[ "$null" = 1 ] && kernels=$kb
[ "$rounds" -ge 1 ] 2>/dev/null || die "ROUNDS must be a number >= 1"
start=$(date +%s)
stamp=$(date -u +%Y%m%dT%H%M%SZ)
res=$TOP/results/$stamp$SFX
mkdir -p "$res"
"$TOP/scripts/base-tree.sh" --check-newer

for k in $kernels; do
	img=$("$TOP/scripts/build-kernel.sh" "$k" perf) || exit 1
	cfg=$BUILD/$k-perf$SFX/.config
	for o in LOCKDEP PROVE_LOCKING DEBUG_SPINLOCK DEBUG_MUTEXES DEBUG_LOCK_ALLOC \
		 DEBUG_VM DEBUG_LIST DEBUG_ATOMIC_SLEEP KASAN SLUB_DEBUG KCOV; do
		grep -q "^CONFIG_$o=y" "$cfg" &&
			die "perf kernel $k has CONFIG_$o=y: timings would be meaningless ($cfg)"
	done
done
SELFTESTS="${SELFTESTS:+$SELFTESTS }$prog" "$TOP/scripts/build-selftests.sh" || exit 1

cmd='cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
echo "clocksource: $cs"
case $cs in jiffies|refined-jiffies) echo "refusing to time on the $cs clock"; exit 3 ;; esac
rc=0'
# keep the worst status: a failure (not 4, kselftest's skip) wins over a skip
for p in $pages; do
	cmd="$cmd
$prog $run_args -s $mib -m $p$([ "$bench" = discard ] || echo " -r $inner"); r=\$?
[ \$r = 0 ] || [ \$rc != 0 -a \$rc != 4 ] || rc=\$r"
done
cmd="$cmd
exit \$rc"

: >"$res/samples.tsv"
n=0 total=$((rounds * 2))
for r in $(seq 1 "$rounds"); do
	for k in base patched; do
		n=$((n + 1))
		kk=$kb
		[ "$k" = patched ] && [ "$null" != 1 ] && kk=$kp
		msg "[$n/$total] round $r: $k ($kk-perf$([ "$null" = 1 ] && [ "$k" = patched ] && echo ', null run')), $prog $run_args ${mib} MiB, pages: $pages KiB"
		log=$res/$k-round$r
		img=$BUILD/$kk-perf$SFX/${KIMAGE##*/}
		mkdir -p "$log"
		KMODS=${img%/*}/sdisc.ko \
			"$TOP/scripts/mkinitramfs.sh" "$log/initramfs.cpio" "$cmd" || exit 1
		"$TOP/scripts/qemu-run.sh" "$img" "$log/initramfs.cpio" \
			"$log" >"$log/guest.out" 2>"$log/qemu.err"
		grc=$?
		rm -f "$log/initramfs.cpio"
		if grep -Eq 'swap_(batch|discard): FAIL' "$log/output.log"; then
			grep -E 'swap_(batch|discard): FAIL' "$log/output.log" >&2
			die "$k kernel swapped data back wrong: no numbers reported (logs: $log)"
		fi
		case $grc in
		0) ;;
		3) die "guest clock is jiffies: timings would be garbage (see $log/console.log)" ;;
		4) warn "$k round $r: some metrics were not measured:"
		   grep -E 'REFUSED|SKIP' "$log/output.log" | sed 's/^/  /' >&2 ;;
		*) cat "$log/qemu.err" >&2
		   die "$k round $r failed (exit $grc; logs: $log)" ;;
		esac
		# one sample per boot and metric: the median of its INNER runs
		awk -v k="$k" -v r="$r" '/^swap_(batch|discard): metric=/ {
			for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			key = v["metric"] " " v["page"]
			if (!(key in n)) order[++nk] = key
			ms[key, ++n[key]] = v["ms"] + 0
		}
		END {
			for (j = 1; j <= nk; j++) {
				key = order[j]; c = n[key]
				for (i = 1; i <= c; i++) a[i] = ms[key, i]
				for (i = 2; i <= c; i++)
					for (m = i; m > 1 && a[m - 1] > a[m]; m--) {
						t = a[m]; a[m] = a[m - 1]; a[m - 1] = t
					}
				med = (c % 2) ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
				print k, r, key, med
			}
		}' "$log/output.log" >>"$res/samples.tsv"
		# the workload's counters, one line a run: kernel round key=value...
		[ "$bench" = cowws ] &&
			sed -n "s/^swap_batch: metric=cowws /$k $r /p" "$log/output.log" |
			tr -d '\r' >>"$res/cowws.tsv"
	done
done
clock=$(sed -n 's/^clocksource: //p' "$res/base-round1/output.log" | tr -d '\r' | head -n 1)
# the accelerator and the CPU model that booted: "tcg, cpu max"
accel=$(grep -o -- '-accel [a-z]* -cpu [^ ]*' "$res/base-round1/qemu.cmd" |
	sed 's/^-accel \([a-z]*\) -cpu /\1, cpu /')
# ACCEL=icount: the times are counts of guest instructions
icount=
grep -q -- ' -icount ' "$res/base-round1/qemu.cmd" && icount=1
[ -n "$icount" ] && accel="$accel, icount shift=0"
cat >"$res/meta" <<EOM
date=$stamp
arch=$([ "$KARCH" = arm64 ] && echo arm64 || echo x86_64)
base=$(cat "$BUILD/$kb-perf$SFX/base-version")
base_rev=$(cat "$BUILD/$kb-perf$SFX/kernel-rev")
patched=$(if [ "$null" = 1 ]; then echo "base (null run)"; else cat "$BUILD/$kp-perf$SFX/kernel-rev"; fi)
null=$null
prefixes=${PREFIXES:-}
perf_align=${PERF_ALIGN:-}
series_hash=$("$TOP/scripts/series.sh" hash)
code_hash=$("$TOP/scripts/series.sh" code-hash)
series=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/patches/series" | wc -l)
machine=$(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
accel=$accel
clocksource=$clock
swap=$swap_desc
guest=$([ "$KARCH" = arm64 ] && echo "arm64 (-M virt), ")${SMP:-2} vCPUs, ${MEM:-2G}, swap $swap_desc, lru_gen=${LRU_GEN:-1}$([ "$bench" = discard ] && echo ", sdisc0 $SDISC_SIZE on zram: $SDISC_OPTS")
command=make run$([ "$KARCH" = arm64 ] && echo " ARCH=arm64")$([ -n "${PREFIXES:-}" ] && echo " PREFIXES=$PREFIXES")$([ -n "${PERF_ALIGN:-}" ] && echo " PERF_ALIGN=\"$PERF_ALIGN\"")$([ -n "$icount" ] && echo " ACCEL=icount")$([ "${SMP:-2}" != 2 ] && echo " SMP=$SMP")$([ "$swap" != zram ] && echo " SWAP=$swap")$([ -n "$bps" ] && echo " DISK_WRITE_BPS=$bps") ROUNDS=$rounds BENCH_MIB=$mib BENCH_PAGES="$pages" INNER=$inner$([ -n "${BENCH_METRICS:-}" ] && echo " BENCH_METRICS=$BENCH_METRICS")$([ "$null" = 1 ] && echo " NULL=1")$([ "$bench" = cowws ] && echo " BENCH=cowws WL_SECONDS=$wl_seconds WL_CHILDREN=$wl_children LRU_GEN=${LRU_GEN:-1}")$([ "$bench" = discard ] && echo " BENCH=discard DISCARD=$discard$([ "$layout" = scattered ] && echo " DISCARD_LAYOUT=scattered") DISCARD_ROUNDS=$discard_rounds SDISC_OPTS=\"$SDISC_OPTS\"")
rounds=$rounds
took_s=$(($(date +%s) - start))
EOM
"$TOP/scripts/bench-table.sh" "$res" || exit 1
[ "$bench" = cowws ] && { "$TOP/scripts/cowws-table.sh" "$res" || exit 1; }
rm -f "$TOP/results/latest$SFX"
ln -s "$stamp$SFX" "$TOP/results/latest$SFX"
msg "results: results/$stamp$SFX/ (results/latest$SFX): table.txt, results.json, chart.png"
