#!/bin/sh
# Every prefix of the series builds and boots: prefix-check.sh [VARIANT]
# Checks out base + the first k patches (k = 1..N) in a detached worktree
# (cache/bisect) and builds its kernel (VARIANT, default perf: the kernel
# users run; ccache makes each step incremental). A prefix whose last patch
# only touches tools/ is skipped (same kernel as the one before), but for
# the last. Every prefix built is booted (each changes the kernel: mm/ or
# the headers it uses; a boot takes seconds), with its own swap_batch built
# from that prefix when it has one, and runs its test mode (swap_batch -t)
# and the stress suite's short mode (swap-stress, the harness's own): exit
# status, failed cases, kernel splats and timeouts count.
# Names the first patch that breaks the build (or adds a compiler warning
# in a file it touches), a boot or a test; exit 1 then. On success, writes
# cache/prefix-check/<series hash>-VARIANT.ok, which `make send` looks for.
# Env: PREFIX_BOOT=0 builds only (`make bisect-check`); PREFIX_TIMEOUT
# (240): seconds before a booted prefix counts as hung; PREFIX_FROM=k
# checks only prefixes k..N (after a change to the last patches; no
# stamp is written then, since the others were not checked).
# ARCH=arm64: the same, cross-built and booted on qemu-system-aarch64
# (objects in .out/VARIANT-arm64, logs in build/prefix-check-arm64, stamp
# <series hash>-VARIANT-arm64.ok; PREFIX_TIMEOUT defaults to 600 there).
. "$(dirname "$0")/lib.sh"
variant=${1:-perf}
need make gcc flex bison bc git "${CROSS}gcc"
"$TOP/scripts/series.sh" apply || exit 1
"$TOP/scripts/build-stress.sh" || exit 1
dir=$CACHE/bisect
out=$dir/.out/$variant$SFX
tests=$dir/.out/selftests$SFX
logs=$BUILD/prefix-check$SFX
n=$(git -C "$WORK" rev-list --count base..HEAD)
[ "$n" -gt 0 ] || die "the work tree has no patches to check"
key=$("$TOP/scripts/series.sh" hash) || exit 1
if [ ! -e "$dir/.git" ]; then
	git -C "$SRC" worktree prune
	git -C "$SRC" worktree add -q --detach "$dir" base ||
		die "cannot make the prefix worktree $dir"
fi
if command -v ccache >/dev/null 2>&1; then
	cc="ccache ${CROSS}gcc"
	export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache} CCACHE_BASEDIR=$dir
else
	cc=${CROSS}gcc
fi
boot_timeout=${PREFIX_TIMEOUT:-240}
[ "$KARCH" = arm64 ] && boot_timeout=${PREFIX_TIMEOUT:-600}
rm -rf "$logs"
mkdir -p "$logs"
start=$(date +%s)
k=0 booted=0 built=0
for c in $(git -C "$WORK" rev-list --reverse base..HEAD); do
	k=$((k + 1))
	subj=$(git -C "$WORK" log -1 --format=%s "$c")
	name="[$k/$n] $subj"
	[ $k -lt "${PREFIX_FROM:-1}" ] && continue
	files=$(git -C "$WORK" diff-tree --no-commit-id --name-only -r "$c")
	# a patch that touches only tools/ (selftests) leaves the kernel as
	# the previous prefix had it (but for the last, to leave one build)
	if [ $k -lt "$n" ] && ! printf '%s\n' "$files" | grep -qv '^tools/'; then
		msg "$name: tools only, the kernel is the previous prefix's"
		continue
	fi
	git -C "$dir" checkout -q --detach "$c" || die "cannot check out $c"
	mkdir -p "$out"
	"$TOP/scripts/kconfig.sh" "$dir" "$out" "$variant" >"$out/kconfig.out" 2>&1 ||
		{ cat "$out/kconfig.out" >&2; die "$name: configuring failed"; }
	t=$(date +%s)
	if ! make -C "$dir" O="$out" ARCH=$KARCH CROSS_COMPILE=$CROSS CC="$cc" \
		-j"$(nproc)" $KTARGET >"$out/build.log" 2>&1; then
		grep -E 'error|Error' "$out/build.log" | head -n 20 >&2
		cp "$out/build.log" "$logs/$k-build.log"
		die "$name: does not build (log: ${logs#"$TOP"/}/$k-build.log)"
	fi
	built=$((built + 1))
	# warnings in the files this patch touches (the first build also
	# compiles everything else, with the base's own warnings)
	warns=$(for f in $(printf '%s\n' "$files" | sed 's/[.][ch]$//'); do
		grep "$f[.][ch]:[0-9]*:[0-9]*: warning:" "$out/build.log"; done | sort -u)
	msg "$name: builds in $(($(date +%s) - t)) s"
	if [ -n "$warns" ]; then
		printf '%s\n' "$warns" | sed 's/^/    /' >&2
		die "$name: new compiler warnings in the files it changes"
	fi
	[ "${PREFIX_BOOT:-1}" = 1 ] || continue
	t=$(date +%s)
	rm -rf "$tests"
	label="swap-stress -s 1 -r 60"
	if [ -f "$dir/tools/testing/selftests/mm/swap_batch.c" ]; then
		SELFTEST_TREE=$dir SELFTEST_OUT=$tests "$TOP/scripts/build-selftests.sh" swap_batch \
			2>"$logs/$k-selftests.log" ||
			{ cat "$logs/$k-selftests.log" >&2; die "$name: swap_batch does not build"; }
		label="swap_batch -t; $label"
	fi
	run=$logs/$k
	SELFTEST_OUT=$tests "$TOP/scripts/mkinitramfs.sh" "$run.cpio" \
		"rc=0
t() { echo \"# selftest: \$*\"; \"\$@\"; r=\$?; echo \"# selftest-exit: \$r\"
	[ \$r = 0 ] || [ \$r = 4 ] || rc=1; }
$(printf '%s\n' "$label" | tr ';' '\n' | sed 's/^ *//; s/^/t /')
exit \$rc" || exit 1
	# swap_batch -t takes seconds on the perf kernel: a hang shows sooner
	TIMEOUT=$boot_timeout "$TOP/scripts/qemu-run.sh" "$out/$KIMAGE" \
		"$run.cpio" "$run" >"$run.out" 2>"$run.err"
	grc=$?
	rm -f "$run.cpio"
	set -- $("$TOP/scripts/tap-summary.sh" "$run/output.log" 2>/dev/null | tail -n 1)
	sum="${1:-0} passed, ${2:-0} failed, ${3:-0} skipped"
	if [ $grc != 0 ] || [ "${2:-1}" != 0 ]; then
		grep -E '^not ok' "$run/output.log" | head -n 10 >&2
		tail -n 15 "$run.err" >&2
		if ! "$TOP/scripts/splat-scan.sh" "$run/console.log" >/dev/null 2>&1; then
			grc=splat
		fi
		case $grc in
		124) why="the guest hangs (timeout)" ;;
		splat) why="a kernel splat in the console ($label: $sum)" ;;
		*) grep -q '^ok ' "$run/output.log" 2>/dev/null &&
			why="$label fails ($sum)" ||
			why="does not boot or the test did not run (exit $grc)" ;;
		esac
		die "$name: $why; logs: ${run#"$TOP"/}/"
	fi
	booted=$((booted + 1))
	msg "$name: boots, $label: $sum in $(($(date +%s) - t)) s"
done
took=$(($(date +%s) - start))
if [ "${PREFIX_BOOT:-1}" != 1 ]; then
	from=${PREFIX_FROM:-1}
	[ "$from" -gt 1 ] && what="prefixes $from..$n" || what="all $n prefixes"
	msg "$what of the series build (${ARCH:-x86_64} $variant, no boots)"
	exit 0
fi
if [ "${PREFIX_FROM:-1}" -gt 1 ]; then
	msg "prefixes $PREFIX_FROM..$n of the series build ($variant: $built builds, $booted boots with swap_batch -t and swap-stress) in $((took / 60)) min $((took % 60)) s (no stamp: partial check)"
	exit 0
fi
mkdir -p "$CACHE/prefix-check"
printf 'series %s\nvariant %s\nprefixes %s built %s booted %s\ntook_s %s\ndate %s\n' \
	"$key" "$variant" "$n" "$built" "$booted" "$took" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
	>"$CACHE/prefix-check/$key-$variant$SFX.ok"
msg "all $n prefixes of the series build (${ARCH:-x86_64} $variant: $built builds, $booted boots with swap_batch -t and swap-stress) in $((took / 60)) min $((took % 60)) s"
