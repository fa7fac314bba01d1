#!/bin/sh
# make test: checkpatch, apply the series, build the debug kernel, boot it
# once per swap device (tests/kselftests on zram, tests/kselftests.KIND on
# the virtio disk as KIND), count the KUnit suites built into it, and print
# "N passed, N failed, N skipped". Non-zero on any failure, splat, timeout.
. "$(dirname "$0")/lib.sh"
start=$(date +%s)
fail=0
"$TOP/scripts/base-tree.sh" --check-newer
"$TOP/scripts/series.sh" apply || exit 1
"$TOP/scripts/series.sh" check || exit 1
step "checkpatch --strict"
cpf=0
"$TOP/scripts/checkpatch.sh" || cpf=1

img=$("$TOP/scripts/build-kernel.sh" patched debug) || exit 1
run=$BUILD/patched-debug$SFX/test
cfg=$BUILD/patched-debug$SFX/.config
for o in KASAN DEBUG_VM PROVE_LOCKING DEBUG_ATOMIC_SLEEP DEBUG_LIST KUNIT; do
	grep -q "^CONFIG_$o=y" "$cfg" || die "debug kernel lacks CONFIG_$o ($cfg)"
done

# One boot per swap device: tests/kselftests on zram, tests/kselftests.KIND
# on the virtio disk as KIND (ssd, hdd, file; guest/init). SWAP=KIND runs
# only that device's list.
if [ -n "$SWAP" ]; then
	kinds=$(swap_kind) || exit 1
else
	kinds="zram $(cd "$TOP/tests" && ls kselftests.* 2>/dev/null | sed 's/^kselftests\.//' | tr '\n' ' ')"
fi
listof() { [ "$1" = zram ] && echo "$TOP/tests/kselftests" || echo "$TOP/tests/kselftests.$1"; }
# A line "full: CMD" runs only in make test-full (TEST_FULL=1): what does
# not fit in CI's cold 45 minutes
cmdsof() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1" |
	if [ "${TEST_FULL:-0}" = 1 ]; then sed 's/^full: *//'; else grep -v '^full:'; fi
}
all=
for k in $kinds; do
	list=$(listof "$k")
	[ -f "$list" ] || die "SWAP=$k: no test list ${list#"$TOP"/}"
	[ -n "$(cmdsof "$list")" ] || die "${list#"$TOP"/} names no test"
	all="$all
$(cmdsof "$list")"
done
# programs of the stress suite (stress/*.c) are built here, the rest are
# kernel selftests
stress=$(cd "$TOP/stress" && ls ./*.c | sed 's|^\./||; s|\.c$||')
SELFTESTS=$(printf '%s\n' "$all" | awk 'NF { print $1 }' | sort -u |
	grep -v -x -F "$stress" | tr '\n' ' ')
export SELFTESTS
"$TOP/scripts/build-selftests.sh" || exit 1
"$TOP/scripts/build-stress.sh" || exit 1
# swap_discard's device: /dev/sdisc0, slow discards (guest/sdisc), beside
# the swap device; SDISC_SIZE/SDISC_OPTS from the environment win
[ "${SDISC_SIZE:-0}" = 0 ] && export SDISC_SIZE=96M
# hugetlb pages for cow's hugetlb cases (2 MiB each)
export HUGEPAGES=${HUGEPAGES:-16}
# a guest run: the zram one about 20 min under TCG on the x86_64 debug
# kernel, 28 min on the arm64 one
if [ "$KARCH" = arm64 ]; then
	export TIMEOUT=${TIMEOUT:-3600}
else
	export TIMEOUT=${TIMEOUT:-1800}
fi
export SDISC_OPTS="${SDISC_OPTS:-delay_us=2000 us_per_mib=200 depth=4}"

# boot KIND's list; the results go to $run (console.log, output.log)
boot() {
	cmds=$(cmdsof "$(listof "$1")")
	guest_cmd=$(printf '%s\n' 't() { echo "# selftest: $*"; s=$(cut -d" " -f1 /proc/uptime); "$@"; r=$?; echo "# selftest-seconds: $s $(cut -d" " -f1 /proc/uptime)"; echo "# selftest-exit: $r"; }'
		printf '%s\n' "$cmds" | sed 's/^/t /')
	mkdir -p "$run"
	# "# swap-pair: zram" in a list: a zram device beside its swap device,
	# at one priority (guest/init SWAP_PAIR)
	pair=$(sed -n 's/^# swap-pair: *\([a-z0-9]*\).*/\1/p' "$(listof "$1")" | head -n 1)
	export SWAP_PAIR="${pair:-${SWAP_PAIR:-}}"
	SWAP=$1 KMODS=$BUILD/patched-debug$SFX/sdisc.ko \
		"$TOP/scripts/mkinitramfs.sh" "$run/initramfs.cpio" "$guest_cmd" || return 1
	step "booting patched-debug ($(cat "$BUILD/patched-debug$SFX/base-version")), swap on $1: $(printf '%s\n' "$cmds" | tr '\n' ';')"
	SWAP=$1 "$TOP/scripts/qemu-run.sh" "$img" "$run/initramfs.cpio" "$run" >"$run/guest.out"
	grc=$?
	# A crash, or a first splat, before the guest's init printed a line
	# came before any test: the base's early boot under TCG has crashed
	# there twice in about 60 debug boots (IO-APIC setup,
	# rcu_is_watching), and once reported KASAN "wild-memory-access in
	# rcu_is_watching" from an interrupt in identify_cpu() at 0.004 s,
	# nowhere near swap. Boot once more, keep the first console, and say
	# so; any other failure stands.
	init=$(grep -n '^guest: ' "$run/console.log" 2>/dev/null | head -n 1 | cut -d: -f1)
	splat=$("$TOP/scripts/splat-scan.sh" "$run/console.log" 2>&1 |
		sed -n 's/^  \([0-9][0-9]*\):.*/\1/p' | head -n 1)
	if [ $grc != 0 ] && { [ -z "$init" ] ||
	   { [ -n "$splat" ] && [ "$splat" -lt "$init" ]; }; }; then
		mv "$run/console.log" "$run/console.early-crash.log"
		warn "the guest crashed or splatted in early boot, before init (console: ${run#"$TOP"/}/console.early-crash.log); booting once more"
		SWAP=$1 "$TOP/scripts/qemu-run.sh" "$img" "$run/initramfs.cpio" "$run" >"$run/guest.out"
		grc=$?
	fi
	return $grc
}

P=0 F=0 S=0 kruns=
for k in $kinds; do
	run=$BUILD/patched-debug$SFX/test-$k
	[ "$k" = zram ] && run=$BUILD/patched-debug$SFX/test
	boot "$k"
	grc=$?
	case $grc in
	0) ;;
	124) msg "FAIL: guest timed out (swap on $k)"; fail=1 ;;
	*) msg "FAIL: guest run failed on $k (exit $grc: kernel splat or crash, see above)"; fail=1 ;;
	esac
	step "kselftest results, swap on $k (output: ${run#"$TOP"/}/output.log)"
	sum=$("$TOP/scripts/tap-summary.sh" "$run/output.log")
	printf '%s\n' "$sum" | sed '$d' | sed 's/^/  /'
	set -- $(printf '%s\n' "$sum" | tail -n 1)
	p=${1:-0} f=${2:-1} s=${3:-0}
	# a splat, crash or timeout fails the run even when every case passed
	[ $grc != 0 ] && [ $f = 0 ] && f=1
	# skipping cannot turn a boot green: its list names the cases that must
	# run (pass or fail) on each architecture, "# cases-ARCH: N"
	want=$(sed -n "s/^# cases-$KARCH: *\([0-9][0-9]*\).*/\1/p" "$(listof "$k")" | head -n 1)
	if [ -z "$want" ]; then
		warn "$(basename "$(listof "$k")") names no '# cases-$KARCH:' floor: skips not checked"
	elif [ $((p + f)) -lt "$want" ]; then
		msg "FAIL: swap on $k ran $((p + f)) cases, fewer than the $want its list expects ($s skipped)"
		f=$((f + 1))
	fi
	P=$((P + p)) F=$((F + f)) S=$((S + s))
	kruns="$kruns $run"
done
F=$((F + cpf))

# the KUnit suites run at every boot: count them in the first one
run=${kruns# }
run=${run%% *}
step "KUnit results (kunit.py parse of the console, ${run#"$TOP"/})"
python3 "$WORK/tools/testing/kunit/kunit.py" parse "$run/console.log" \
	>"$run/kunit.log" 2>&1
krc=$?
line=$(sed 's/\x1b\[[0-9;]*m//g' "$run/kunit.log" | grep -o 'Testing complete\. .*' | tail -n 1)
msg "  ${line:-no KUnit results found}"
kp=$(printf '%s\n' "$line" | sed -n 's/.*passed: \([0-9]*\).*/\1/p')
kf=$(printf '%s\n' "$line" | sed -n 's/.*failed: \([0-9]*\).*/\1/p')
kc=$(printf '%s\n' "$line" | sed -n 's/.*crashed: \([0-9]*\).*/\1/p')
ks=$(printf '%s\n' "$line" | sed -n 's/.*skipped: \([0-9]*\).*/\1/p')
kf=$(( ${kf:-0} + ${kc:-0} ))
if [ -z "$line" ] || [ $krc != 0 ] && [ "$kf" = 0 ]; then
	msg "FAIL: KUnit output missing or unparsable (${run#"$TOP"/}/kunit.log)"
	kf=$((kf + 1))
fi
# the series' own suite ran, with every case its source has
ksrc=$WORK/mm/tests/swapfile-kunit.h
kwant=$(grep -c '^[[:space:]]*KUNIT_CASE(' "$ksrc" 2>/dev/null)
ktxt=$(sed 's/\x1b\[[0-9;]*m//g' "$run/kunit.log")
kgot=$(printf '%s\n' "$ktxt" | sed -n 's/.*= swapfile (\([0-9]*\) subtests) =.*/\1/p' | head -n 1)
if [ -z "$kwant" ] || [ "$kwant" = 0 ]; then
	msg "FAIL: no KUNIT_CASE in ${ksrc#"$WORK"/}"
	kf=$((kf + 1))
elif [ "${kgot:-0}" != "$kwant" ] ||
     ! printf '%s\n' "$ktxt" | grep -q '\[PASSED\] swapfile '; then
	msg "FAIL: KUnit suite swapfile ran ${kgot:-no} cases (its source has $kwant), or did not pass"
	kf=$((kf + 1))
else
	msg "  KUnit suite swapfile: $kgot of $kwant cases, passed"
fi
P=$((P + ${kp:-0})) F=$((F + kf)) S=$((S + ${ks:-0}))
[ $F = 0 ] || fail=1
msg "base: $(cat "$BUILD/patched-debug$SFX/base-version"); took $(($(date +%s) - start)) s"
echo "$P passed, $F failed, $S skipped"
[ $fail = 0 ]
