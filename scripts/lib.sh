# Shared shell helpers; sourced, never run.
# shellcheck shell=sh

TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
CACHE=${CACHE:-$TOP/cache}
BUILD=${BUILD:-$TOP/build}
SRC=$CACHE/linux		# git tree, tag "base"
WORK=$CACHE/work		# git worktree of $SRC, branch "work": base + series

msg() { printf '%s\n' "$*" >&2; }
step() { printf '==> %s\n' "$*" >&2; }
warn() { printf 'WARNING: %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

need() {
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 ||
			die "missing tool '$t' (run 'make deps' as root, or install it)"
	done
}

# Value of key=value in a file (first match).
kv() { sed -n "s/^$2=//p" "$1" | head -n 1; }

# Identity of the base the cache was made from (base/pin or BASE_TREE).
base_ident() { cat "$SRC/.git/base-ident" 2>/dev/null; }

# SWAP, the guest's swap device (guest/init): zram (default), ssd, hdd,
# file or zswap (zswap in front of the ssd disk). Prints it; dies naming
# the valid values.
swap_kind() {
	case ${SWAP:-zram} in
	zram | ssd | hdd | file | zswap) echo "${SWAP:-zram}" ;;
	*) die "SWAP must be one of zram, ssd, hdd, file, zswap (not '$SWAP')" ;;
	esac
}

# DISK_WRITE_BPS: the swap disk's write rate in bytes a second (QEMU's
# throttling.bps-write), for a disk whose writeback outlasts the calls
# that start it; empty: not limited. Prints it; dies on a bad value, and
# with "one-device" also when SWAP is zram (no disk to limit).
disk_write_bps() {
	case ${DISK_WRITE_BPS:-} in
	'') return 0 ;;
	*[!0-9]* | 0*) die "DISK_WRITE_BPS must be a whole number of bytes a second such as 4000000, not '$DISK_WRITE_BPS'" ;;
	esac
	[ "${1:-}" != one-device ] || [ "$(swap_kind)" != zram ] ||
		die "DISK_WRITE_BPS limits the swap disk: set SWAP=ssd, hdd, file or zswap"
	echo "$DISK_WRITE_BPS"
}

# ARCH, the guest's architecture: x86_64 (default) or arm64 (cross-built
# with Debian's aarch64-linux-gnu toolchain, booted on qemu-system-aarch64
# -M virt). Sets KARCH (the kernel's ARCH), CROSS (CROSS_COMPILE), KTARGET
# and KIMAGE (the boot image's make target and path in the object tree),
# QEMU, and SFX: the suffix of every per-architecture build folder ("" for
# x86_64, so that its folders keep their names).
guest_arch() {
	case ${ARCH:-x86_64} in
	x86_64 | x86)
		KARCH=x86 CROSS= KTARGET=bzImage KIMAGE=arch/x86/boot/bzImage
		QEMU=qemu-system-x86_64 SFX= ;;
	arm64 | aarch64)
		KARCH=arm64 CROSS=aarch64-linux-gnu- KTARGET=Image
		KIMAGE=arch/arm64/boot/Image QEMU=qemu-system-aarch64 SFX=-arm64 ;;
	*) die "ARCH must be x86_64 or arm64 (not '$ARCH')" ;;
	esac
}
guest_arch
