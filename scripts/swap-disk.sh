#!/bin/sh
# The guest's swap disk for SWAP=ssd|hdd|file|zswap: a sparse raw image that
# QEMU attaches as a virtio disk (/dev/vda in the guest).
# usage: swap-disk.sh IMG      (SWAP and DISK_SIZE from the environment)
#   ssd, hdd: an empty image; guest/init marks the queue rotational 0 or 1
#             and makes it the swap device (zswap: as ssd, zswap in front)
#   file:     the image holds an ext4 file system; guest/init makes a swap
#             file on it
# Prints nothing; non-zero with a message on bad settings.
. "$(dirname "$0")/lib.sh"
img=$1
[ -n "$img" ] || die "usage: swap-disk.sh IMG"
size=${DISK_SIZE:-1G}
case $size in
[1-9]*[KMG] | [1-9]*) ;;
*) die "DISK_SIZE must be a size like 512M or 2G, not '$size'" ;;
esac
need truncate
rm -f "$img"
truncate -s "$size" "$img" || die "cannot create the swap disk $img ($size)"
case ${SWAP:-zram} in
ssd | hdd | zswap) ;;
file)
	PATH=$PATH:/usr/sbin:/sbin need mkfs.ext4
	mkfs.ext4 -q -F -L swapfs "$img" >/dev/null 2>&1 ||
		die "mkfs.ext4 on $img failed (install e2fsprogs)" ;;
*) die "swap-disk.sh is for SWAP=ssd, hdd, file or zswap, not '${SWAP:-zram}'" ;;
esac
