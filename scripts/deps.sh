#!/bin/sh
# Install (as root) or check the host tools the harness needs.
# usage: deps.sh [--check]
. "$(dirname "$0")/lib.sh"

PKGS="git make gcc libc6-dev bc flex bison libelf-dev libssl-dev cpio xz-utils
zstd perl python3 python3-ply git-email e2fsprogs
libmailtools-perl libio-socket-ssl-perl libauthen-sasl-perl busybox-static qemu-system-x86 ccache gnuplot-nox kmod rsync"
TOOLS="git make gcc bc flex bison cpio xz perl python3 qemu-system-x86_64"

missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
[ -x /bin/busybox ] || [ -x /usr/bin/busybox ] || missing="$missing busybox-static"
[ -z "$missing" ] && exit 0

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
