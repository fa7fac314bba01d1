#!/bin/sh
# Print the QEMU accelerator to use: kvm when /dev/kvm is there AND boots a
# guest, else tcg. A /dev/kvm that cannot run a guest (seen here: nested
# KVM where QEMU aborts on MSR 0x10a, or the guest never gets past the
# decompressor) would otherwise fail or hang every boot.
# usage: accel.sh BZIMAGE
# The probe boots BZIMAGE under KVM with no initramfs: a working KVM prints
# "Linux version" in a second or two, then panics (no root) and exits. The
# verdict is kept in $BUILD/accel.probe, keyed by host kernel and QEMU.
. "$(dirname "$0")/lib.sh"
need qemu-system-x86_64 timeout
kernel=$1
[ -f "$kernel" ] || die "usage: accel.sh BZIMAGE"
if ! [ -r /dev/kvm ] || ! [ -w /dev/kvm ]; then
	echo tcg
	exit 0
fi
key="$(uname -r) $(qemu-system-x86_64 --version | head -n 1)"
probe=$BUILD/accel.probe
if [ -f "$probe" ] && [ "$(sed -n 1p "$probe")" = "$key" ]; then
	sed -n 2p "$probe"
	exit 0
fi
mkdir -p "$BUILD"
log=$BUILD/accel.probe.log
rm -f "$log"
timeout -k 5 "${KVM_PROBE_TIMEOUT:-30}" qemu-system-x86_64 -accel kvm -cpu host \
	-smp 1 -m 512M -kernel "$kernel" -append "console=ttyS0 panic=-1" \
	-no-reboot -display none -monitor none -nodefaults -vga none \
	-serial "file:$log" </dev/null >"$log.qemu" 2>&1
if grep -q 'Linux version' "$log" 2>/dev/null; then
	accel=kvm
else
	accel=tcg
	warn "/dev/kvm is there but a KVM guest did not boot (QEMU: $(tail -n 1 "$log.qemu" 2>/dev/null | cut -c1-120)); using TCG (ACCEL=kvm forces it)"
fi
printf '%s\n%s\n' "$key" "$accel" >"$probe"
echo "$accel"
