#!/bin/sh
# Build the guest initramfs: mkinitramfs.sh OUT.cpio CMD [FILES...]
# busybox-static (for ARCH=arm64: Debian's arm64 busybox-static, unpacked
# by scripts/deps.sh into cache/busybox-arm64), guest/init,
# build/selftests$SFX/* (or $SELFTEST_OUT/*) and build/stress$SFX/* and
# KMODS (.ko paths) in /opt/tests, FILES in /files. Guest settings from the environment: ZRAM_SIZE ZRAM_COMP MTHP
# MTHP_MODE LRU_GEN SDISC_SIZE SDISC_OPTS SWAP SWAP_PAIR HUGEPAGES (see guest/init).
. "$(dirname "$0")/lib.sh"
need cpio
swap_kind >/dev/null || exit 1
out=$1 cmd=$2
shift 2
bb=
if [ "$KARCH" = arm64 ]; then
	b=$CACHE/busybox-arm64/bin/busybox
	[ -x "$b" ] && bb=$b
	[ -n "$bb" ] || die "missing the arm64 busybox $b (run 'make deps ARCH=arm64' as root)"
else
	for b in /bin/busybox $(command -v busybox); do
		[ -x "$b" ] && ! ldd "$b" >/dev/null 2>&1 && { bb=$b; break; }
	done
	[ -n "$bb" ] || die "missing a static busybox (install busybox-static)"
fi
stage=$(mktemp -d) && trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/bin "$stage"/sbin "$stage"/etc "$stage"/proc "$stage"/sys \
	"$stage"/dev "$stage"/tmp "$stage"/files "$stage"/opt/tests
cp "$bb" "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
cp "$TOP/guest/init" "$stage/init"
chmod 755 "$stage/init"
tests=${SELFTEST_OUT:-$BUILD/selftests$SFX}
[ -d "$tests" ] && cp -r "$tests/." "$stage/opt/tests/"
# kernel modules built with the kernel (KMODS: paths), e.g. sdisc.ko
for m in ${KMODS:-}; do
	[ -f "$m" ] || die "KMODS: $m does not exist (rebuild the kernel: make kernel)"
	cp "$m" "$stage/opt/tests/"
done
# the stress suite's programs (scripts/build-stress.sh), when built
for p in "$BUILD"/stress$SFX/*; do
	[ -f "$p" ] && [ -x "$p" ] && cp "$p" "$stage/opt/tests/"
done
for f in "$@"; do
	[ -e "$f" ] || die "FILES: $f does not exist"
	cp -rL "$f" "$stage/files/"
done
printf '%s\n' "$cmd" >"$stage/etc/guest.cmd"
cat >"$stage/etc/guest.conf" <<EOC
SWAP='$(swap_kind)'
SWAP_PAIR='${SWAP_PAIR:-}'
HUGEPAGES='${HUGEPAGES:-0}'
ZRAM_SIZE='${ZRAM_SIZE:-1G}'
ZRAM_COMP='${ZRAM_COMP:-lz4}'
MTHP='${MTHP-64K}'
MTHP_MODE='${MTHP_MODE:-always}'
LRU_GEN='${LRU_GEN:-1}'
SDISC_SIZE='${SDISC_SIZE:-0}'
SDISC_OPTS='${SDISC_OPTS:-}'
EOC
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$out" ||
	die "cpio failed"
