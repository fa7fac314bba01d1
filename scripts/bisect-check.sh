#!/bin/sh
# Every prefix of the series builds: bisect-check.sh [VARIANT]
# Checks out base + the first k patches (k = 1..N) of the work tree in a
# detached worktree (cache/bisect), configures it as `make kernel` would
# (VARIANT, default debug: the one with the series' own options) and
# builds bzImage; a prefix whose last patch only touches tools/ is
# skipped (same kernel as the one before). Names the first
# patch whose prefix fails, with the compiler's errors; exit 1 then.
. "$(dirname "$0")/lib.sh"
variant=${1:-debug}
need make gcc flex bison bc git
"$TOP/scripts/series.sh" apply || exit 1
dir=$CACHE/bisect
out=$dir/.out/$variant
n=$(git -C "$WORK" rev-list --count base..HEAD)
[ "$n" -gt 0 ] || die "the work tree has no patches to check"
if [ ! -e "$dir/.git" ]; then
	git -C "$SRC" worktree add -q --detach "$dir" base ||
		die "cannot make the bisect worktree $dir"
fi
if command -v ccache >/dev/null 2>&1; then
	cc="ccache gcc"
	export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache} CCACHE_BASEDIR=$dir
else
	cc=gcc
fi
k=0
for c in $(git -C "$WORK" rev-list --reverse base..HEAD); do
	k=$((k + 1))
	subj=$(git -C "$WORK" log -1 --format=%s "$c")
	# a patch that touches only tools/ (selftests) leaves the kernel as
	# the previous prefix had it (but for the last, to leave one build)
	if [ $k -lt "$n" ] &&
	   ! git -C "$WORK" diff-tree --no-commit-id --name-only -r "$c" | grep -qv '^tools/'; then
		msg "[$k/$n] tools only, the kernel is the previous prefix's: $subj"
		continue
	fi
	git -C "$dir" checkout -q --detach "$c" || die "cannot check out $c"
	mkdir -p "$out"
	"$TOP/scripts/kconfig.sh" "$dir" "$out" "$variant" >"$out/kconfig.out" 2>&1 ||
		{ cat "$out/kconfig.out" >&2; die "[$k/$n] $subj: configuring failed"; }
	start=$(date +%s)
	if ! make -C "$dir" O="$out" CC="$cc" -j"$(nproc)" bzImage >"$out/build.log" 2>&1; then
		grep -E 'error|Error' "$out/build.log" | head -n 20 >&2
		die "[$k/$n] $subj: does not build (log: $out/build.log)"
	fi
	# warnings in the files this patch touches (the first build also
	# compiles everything else, with the base's own warnings)
	files=$(git -C "$WORK" diff-tree --no-commit-id --name-only -r "$c" | sed 's/[.][ch]$//')
	warns=$(for f in $files; do grep "$f[.][ch]:[0-9]*:[0-9]*: warning:" "$out/build.log"; done | sort -u)
	msg "[$k/$n] builds in $(($(date +%s) - start)) s: $subj"
	if [ -n "$warns" ]; then
		printf '%s\n' "$warns" | sed 's/^/    /' >&2
		die "[$k/$n] $subj: new compiler warnings in the files it changes"
	fi
done
msg "all $n prefixes of the series build ($variant)"
