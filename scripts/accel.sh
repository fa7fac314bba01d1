#!/bin/sh
# Print the QEMU accelerator to use: "kvm MODEL" when /dev/kvm is there AND
# boots a guest with one of the CPU models in KVM_CPUS, tried in order, else
# "tcg". A /dev/kvm that cannot run a guest (seen here: nested KVM where
# QEMU aborts on MSR 0x10a, IA32_ARCH_CAPABILITIES, with -cpu host or max,
# and a guest that never prints a byte with models that lack the MSR)
# would otherwise fail or hang every boot.
# usage: accel.sh BZIMAGE
# Env: KVM_CPUS (default "host host,arch-capabilities=off qemu64"),
# KVM_PROBE_TIMEOUT (seconds a model gets, default 30).
# A probe boots BZIMAGE under KVM with no initramfs: a working KVM prints
# "Linux version" in a second or two, then panics (no root) and exits. The
# verdict is kept in $BUILD/accel.probe, keyed by host kernel, QEMU and
# KVM_CPUS; $BUILD/accel.probe.log has one line per model tried.
. "$(dirname "$0")/lib.sh"
need qemu-system-x86_64 timeout
kernel=$1
[ -f "$kernel" ] || die "usage: accel.sh BZIMAGE"
if ! [ -r /dev/kvm ] || ! [ -w /dev/kvm ]; then
	echo tcg
	exit 0
fi
models=${KVM_CPUS:-host host,arch-capabilities=off qemu64}
key="$(uname -r) $(qemu-system-x86_64 --version | head -n 1) cpus: $models"
probe=$BUILD/accel.probe
if [ -f "$probe" ] && [ "$(sed -n 1p "$probe")" = "$key" ]; then
	sed -n 2p "$probe"
	exit 0
fi
mkdir -p "$BUILD"
log=$BUILD/accel.probe.log
: >"$log"
accel=tcg
for model in $models; do
	out=$BUILD/accel.probe.console
	rm -f "$out"
	timeout -k 5 "${KVM_PROBE_TIMEOUT:-30}" qemu-system-x86_64 -accel kvm \
		-cpu "$model" -smp 1 -m 512M -kernel "$kernel" \
		-append "console=ttyS0 panic=-1" -no-reboot -display none \
		-monitor none -nodefaults -vga none -serial "file:$out" \
		</dev/null >"$out.qemu" 2>&1
	rc=$?
	if grep -q 'Linux version' "$out" 2>/dev/null; then
		echo "$model: booted" >>"$log"
		accel="kvm $model"
		break
	fi
	why=$(tail -n 1 "$out.qemu" 2>/dev/null | cut -c1-120)
	[ "$rc" = 124 ] && why="no console output in ${KVM_PROBE_TIMEOUT:-30} s"
	echo "$model: did not boot (exit $rc: $why)" >>"$log"
done
if [ "$accel" = tcg ]; then
	warn "/dev/kvm is there but no KVM guest booted with the CPU models $models (see $log); using TCG (ACCEL=kvm forces KVM, KVM_CPU its model)"
fi
printf '%s\n%s\n' "$key" "$accel" >"$probe"
echo "$accel"
