#!/bin/sh
# make stress: a long run of the stress suite (stress/swap-stress.c) on the
# debug kernel (KASAN, lockdep, DEBUG_VM) of KERNEL (base or patched).
# Env: KERNEL (patched), DURATION (seconds, 1200), SEED (default: from the
# clock; printed, and a failing seed reproduces), WORKERS (4), STRESS_OPS
# (only these churn operations, e.g. wvPRK: see stress/swap-stress.c),
# SWAP (zram|ssd|hdd|file|zswap: the first of the suite's two swap devices;
# zswap: zswap on in front of the ssd disk).
# Writes results/stress-STAMP-KERNEL-SWAP/ (summary.txt, output and console
# logs). A splat, a hang (TIMEOUT: DURATION + 900 s) or a failed case
# fails the run.
. "$(dirname "$0")/lib.sh"
kernel=${KERNEL:-patched} duration=${DURATION:-1200} workers=${WORKERS:-4}
seed=${SEED:-$(date +%s)}
for v in duration workers seed; do
	eval "val=\$$v"
	case $val in ''|*[!0-9]*) die "$(echo "$v" | tr a-z A-Z) must be a number, not '$val'" ;; esac
done
swap=$(swap_kind) || exit 1
img=$("$TOP/scripts/build-kernel.sh" "$kernel" debug) || exit 1
"$TOP/scripts/build-stress.sh" || exit 1
stamp=$(date -u +%Y%m%dT%H%M%SZ)
res=$TOP/results/stress-$stamp-$kernel-$swap$SFX
mkdir -p "$res"
case $STRESS_OPS in *[!wvPFDUHRXTK]*) die "STRESS_OPS takes letters of wvPFDUHRXTK, not '$STRESS_OPS'" ;; esac
cmd="swap-stress -s $seed -t $duration -w $workers"
[ -n "$STRESS_OPS" ] && cmd="SWAP_STRESS_OPS=$STRESS_OPS $cmd"
export TIMEOUT=$((duration + 900))
"$TOP/scripts/mkinitramfs.sh" "$res/initramfs.cpio" "$cmd" || exit 1
kdir=${img%/*}
step "stress on ${kdir##*/}, swap on $swap ($(cat "$kdir/base-version")): $cmd; console: ${res#"$TOP"/}/console.log"
"$TOP/scripts/qemu-run.sh" "$img" "$res/initramfs.cpio" "$res" >"$res/guest.out"
grc=$?
rm -f "$res/initramfs.cpio"
grep -E '^(not ok|swap-stress: FAIL|# first error)' "$res/output.log" 2>/dev/null | head -n 20 >&2
splats=0
"$TOP/scripts/splat-scan.sh" "$res/console.log" >/dev/null 2>&1 || splats=1
sum=$(tr -d '\r' <"$res/output.log" 2>/dev/null | sed -n 's/^# swap-stress summary: //p' | tail -n 1)
{
	echo "kernel=${kdir##*/} base=\"$(cat "$kdir/base-version")\" rev=$(cat "$kdir/kernel-rev")"
	echo "command=\"$cmd\" swap=$swap date=$stamp guest-exit=$grc splats=$splats"
	echo "${sum:-no summary: the guest did not finish}"
} >"$res/summary.txt"
step "summary (${res#"$TOP"/}/summary.txt)"
sed 's/^/  /' "$res/summary.txt" >&2
[ $grc = 0 ] || die "stress run on $kernel failed (exit $grc); repeat with SEED=$seed"
