#!/bin/sh
# Boot a kernel with an initramfs in QEMU and collect its output.
# usage: qemu-run.sh BZIMAGE INITRAMFS RUNDIR
# Env: MEM (default 2G), SMP (2), TIMEOUT (seconds, 600), APPEND (extra
# kernel command line), ACCEL (kvm|tcg|icount, default: scripts/accel.sh's
# probe, which also picks the CPU model for KVM; KVM_CPU: the model of
# ACCEL=kvm; icount: TCG whose guest clocks count instructions, SMP=1),
# SPLAT_STOP (1: stop the guest SPLAT_GRACE=15 s after the first splat),
# SWAP (zram|ssd|hdd|file|zswap: all but zram attach a virtio disk, made by
# scripts/swap-disk.sh in RUNDIR and removed after the run; DISK_WRITE_BPS
# limits its writes to that many bytes a second), ARCH (x86_64
# or arm64: qemu-system-aarch64 -M virt under TCG, -cpu max with the cheap
# pointer authentication; the output channel is a virtio console there).
# Writes RUNDIR/console.log (kernel console) and RUNDIR/output.log (the
# command's output: ttyS1, hvc0 on arm64), prints the output, and exits with the guest
# command's exit status; non-zero on timeout or any kernel splat.
. "$(dirname "$0")/lib.sh"
need "$QEMU" timeout
kernel=$1 initrd=$2 run=$3
mkdir -p "$run"
console=$run/console.log output=$run/output.log
rm -f "$console" "$output"

accel=${ACCEL:-}
# KVM is for x86_64 guests on an x86_64 host: arm64 guests run under TCG
[ "$KARCH" = arm64 ] && accel=${accel:-tcg}
[ -n "$accel" ] || accel=$("$TOP/scripts/accel.sh" "$kernel") || exit 1
case $accel in
kvm) cpu="-accel kvm -cpu ${KVM_CPU:-host}" ;;
"kvm "*) cpu="-accel kvm -cpu ${accel#kvm }" ;;
tcg) cpu="-accel tcg -cpu max" ;;
icount) cpu="-accel tcg -cpu max" ;;
*) die "ACCEL must be kvm, tcg or icount (not '$accel')" ;;
esac
# icount: every guest clock (TSC, HPET, the arch timer) advances one
# nanosecond an instruction executed, and jumps over idle time: a
# benchmark's times count the instructions of the work it timed, however
# fast QEMU runs them. One vCPU: with two, QEMU 7.2's round-robin icount
# let the idle vCPU's timers go unfired and the guest stalled RCU.
icount=
if [ "$accel" = icount ]; then
	[ "${SMP:-2}" = 1 ] ||
		die "ACCEL=icount needs SMP=1 (with ${SMP:-2} vCPUs the guest stalls RCU under QEMU's icount)"
	icount='-icount shift=0,sleep=off'
fi
swap=$(swap_kind) || exit 1
bps=$(disk_write_bps) || exit 1
drive=
if [ "$swap" != zram ]; then
	disk=$run/swap-disk.img
	"$TOP/scripts/swap-disk.sh" "$disk" || exit 1
	trap 'rm -f "$disk"' EXIT
	drive="-drive file=$disk,format=raw,if=virtio,cache=unsafe,discard=unmap${bps:+,throttling.bps-write=$bps}"
	# PCI interrupt routing from the BIOS table, not ACPI: the debug
	# kernel (KASAN, lockdep) under TCG spends 26 s in the _PRT method
	# when the disk is enabled, and the soft lockup watchdog fires.
	[ "$KARCH" = x86 ] && APPEND="acpi=noirq ${APPEND:-}"
fi
if [ "$KARCH" = arm64 ]; then
	# pointer authentication with QEMU's own cheap algorithm: the
	# architected one is slow to emulate
	cpu="$cpu,pauth-impdef=on"
	machine="-M virt" tty=ttyAMA0
	out="-device virtio-serial-pci -chardev file,id=out,path=$output -device virtconsole,chardev=out"
else
	machine= tty=ttyS0 out="-serial file:$output"
fi
# rootfstype=ramfs: the initramfs unpacks into ramfs, not tmpfs, so that
# reclaim never swaps the guest's own files out; the tests compare swap
# usage before and after what they do
append="console=$tty panic=-1 oops=panic panic_on_warn=0 nokaslr rootfstype=ramfs ${APPEND:-}"
set -- "$QEMU" $machine $cpu $icount -smp "${SMP:-2}" -m "${MEM:-2G}" \
	-kernel "$kernel" -initrd "$initrd" -append "$append" $drive \
	-no-reboot -display none -monitor none -nodefaults -vga none \
	-serial "file:$console" $out
echo "$*" >"$run/qemu.cmd"
msg "+ $*"
start=$(date +%s)
rm -f "$run/splat-stop"
timeout -k 10 "${TIMEOUT:-600}" "$@" </dev/null &
qpid=$!
# Stop early on a splat: a kernel that live-locks after one (a swap
# reference lost, say) would otherwise run into TIMEOUT. SPLAT_GRACE
# seconds after the first one, for the reports that follow it.
watch=
if [ "${SPLAT_STOP:-1}" = 1 ]; then
	(
		while kill -0 "$qpid" 2>/dev/null; do
			sleep 5
			# 1: a splat (0: none; 2: no console log yet)
			"$TOP/scripts/splat-scan.sh" "$console" >/dev/null 2>&1
			[ $? = 1 ] || continue
			sleep "${SPLAT_GRACE:-15}"
			echo "$(($(date +%s) - start))" >"$run/splat-stop"
			kill "$qpid" 2>/dev/null
			break
		done
	) &
	watch=$!
fi
wait "$qpid"
qrc=$?
[ -n "$watch" ] && kill "$watch" 2>/dev/null
wall=$(($(date +%s) - start))
echo "$wall" >"$run/wall-seconds"
if [ -f "$run/splat-stop" ]; then
	[ -f "$output" ] && sed '/^guest-exit: /d' "$output"
	msg "error: kernel splat: guest stopped $(cat "$run/splat-stop") s after boot (SPLAT_STOP=0 lets it run on)"
	"$TOP/scripts/splat-scan.sh" "$console"
	exit 1
fi

[ -f "$output" ] && sed '/^guest-exit: /d' "$output" | sed '${/^$/d;}'
if [ $qrc = 124 ] || [ $qrc = 137 ]; then
	msg "error: guest timed out after ${TIMEOUT:-600} s (TIMEOUT=); console tail:"
	tail -n 30 "$console" | sed 's/^/  | /' >&2
	"$TOP/scripts/splat-scan.sh" "$console" >/dev/null 2>&1 ||
		"$TOP/scripts/splat-scan.sh" "$console"
	exit 124
fi
[ $qrc = 0 ] || { tail -n 20 "$console" >&2; die "qemu failed (exit $qrc)"; }
"$TOP/scripts/splat-scan.sh" "$console" || exit 1
rc=$(sed -n 's/^guest-exit: \([0-9]*\).*/\1/p' "$output" 2>/dev/null | tail -n 1)
if [ -z "$rc" ]; then
	msg "error: guest stopped without a status line; console tail:"
	tail -n 30 "$console" | sed 's/^/  | /' >&2
	exit 1
fi
exit "$rc"
