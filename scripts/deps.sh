#!/bin/sh
# Install (as root) or check the host tools the harness needs.
# usage: deps.sh [--check]
. "$(dirname "$0")/lib.sh"

PKGS="git make gcc libc6-dev bc flex bison libelf-dev libssl-dev cpio xz-utils
zstd perl python3 python3-ply git-email e2fsprogs
libmailtools-perl libio-socket-ssl-perl libauthen-sasl-perl busybox-static qemu-system-x86 ccache gnuplot-nox kmod rsync"
TOOLS="git make gcc bc flex bison cpio xz perl python3 qemu-system-x86_64"
# ARCH=arm64: the cross toolchain, static libc, QEMU for arm, and Debian's
# arm64 busybox-static, unpacked into cache/busybox-arm64 for the initramfs
if [ "$KARCH" = arm64 ]; then
	PKGS="$PKGS gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm"
	TOOLS="$TOOLS aarch64-linux-gnu-gcc qemu-system-aarch64"
fi
bb64=$CACHE/busybox-arm64

arm64_busybox() {
	[ "$KARCH" = arm64 ] && ! [ -x "$bb64/bin/busybox" ] || return 0
	[ "$(id -u)" = 0 ] || die "no arm64 busybox in $bb64: run 'make deps ARCH=arm64' as root"
	step "fetching busybox-static:arm64 into ${bb64#"$TOP"/}"
	dpkg --print-foreign-architectures | grep -qx arm64 ||
		dpkg --add-architecture arm64 || die "dpkg --add-architecture arm64 failed"
	apt-get update -qq >/dev/null || die "apt-get update failed"
	tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && apt-get download -qq busybox-static:arm64 >/dev/null 2>&1) ||
		die "apt-get download busybox-static:arm64 failed"
	mkdir -p "$bb64" && dpkg-deb -x "$tmp"/busybox-static_*_arm64.deb "$bb64" ||
		die "cannot unpack busybox-static:arm64 into $bb64"
	[ -x "$bb64/bin/busybox" ] || die "busybox-static:arm64 has no bin/busybox"
}

missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
[ -x /bin/busybox ] || [ -x /usr/bin/busybox ] || missing="$missing busybox-static"
if [ -z "$missing" ]; then
	arm64_busybox
	exit 0
fi

if [ "$1" = --check ] || [ "$(id -u)" != 0 ]; then
	warn "packages not installed:$missing (run 'make deps' as root)"
	need $TOOLS
	exit 0
fi
step "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null || die "apt-get update failed"
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
	die "apt-get install failed for:$missing"
arm64_busybox
