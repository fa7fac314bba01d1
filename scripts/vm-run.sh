#!/bin/sh
# Run a command in a guest, the way `vng -- cmd` does.
# usage: vm-run.sh KERNEL VARIANT CMD [FILES...]
# Builds what is missing, boots KERNEL-VARIANT with swap set up, runs CMD
# (cwd /files, where FILES are copied), prints its output, exits with its
# status. Logs in build/KERNEL-VARIANT/NAME/ (NAME: $RUN_NAME or vm-run;
# build/KERNEL-VARIANT-arm64/NAME/ for ARCH=arm64).
. "$(dirname "$0")/lib.sh"
[ $# -ge 3 ] && [ -n "$3" ] ||
	die "usage: make vm-run KERNEL=base|patched CMD='...' [FILES='...']"
kernel=$1 variant=$2 cmd=$3
shift 3
disk_write_bps one-device >/dev/null || exit 1
img=$("$TOP/scripts/build-kernel.sh" "$kernel" "$variant") || exit 1
"$TOP/scripts/build-selftests.sh" || exit 1
"$TOP/scripts/build-stress.sh" || exit 1
kdir=${img%/*}
run=$kdir/${RUN_NAME:-vm-run}
mkdir -p "$run"
KMODS=$kdir/sdisc.ko \
	"$TOP/scripts/mkinitramfs.sh" "$run/initramfs.cpio" "$cmd" "$@" || exit 1
step "booting ${kdir##*/} ($(cat "$kdir/base-version")); console: ${run#"$TOP"/}/console.log"
"$TOP/scripts/qemu-run.sh" "$img" "$run/initramfs.cpio" "$run"
