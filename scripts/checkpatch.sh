#!/bin/sh
# checkpatch.pl --strict on every patch of patches/series (the base tree's
# checkpatch). Errors always fail. A WARNING or CHECK fails unless the
# patch's notes (below its "---" line: git notes on the work commit, see
# scripts/series.sh) justify its type on a line "checkpatch: TYPE: why".
. "$(dirname "$0")/lib.sh"
need perl
mkdir -p "$BUILD"
"$TOP/scripts/base-tree.sh" || exit 1
cp=$SRC/scripts/checkpatch.pl
bad=0 n=0
for p in $(sed -e 's/#.*//' "$TOP/patches/series" | grep -v '^[[:space:]]*$'); do
	n=$((n + 1))
	f=$TOP/patches/$p
	# exit 0: clean (--terse prints nothing then), 1: problems listed;
	# anything else, or no verdict with problems, means it did not run.
	# (stderr only carries spdxcheck.py's noise when python3-ply is missing)
	res=$(cd "$SRC" && perl "$cp" --strict --show-types --terse --no-color "$f" 2>"$BUILD/checkpatch.err")
	rc=$?
	if [ $rc -gt 1 ] || { [ $rc = 1 ] && ! printf '%s\n' "$res" | grep -q '^total: '; }; then
		die "checkpatch.pl did not run on $p (exit $rc): $(tail -n 3 "$BUILD/checkpatch.err")"
	fi
	errs=$(printf '%s\n' "$res" | grep -c ': ERROR:')
	unjust=
	for t in $(printf '%s\n' "$res" | sed -n 's/.*: \(WARNING\|CHECK\):\([A-Z0-9_]*\):.*/\2/p' | sort -u); do
		"$TOP/scripts/series.sh" notes "$f" | grep -q "^checkpatch: $t:" || unjust="$unjust $t"
	done
	if [ "$errs" != 0 ] || [ -n "$unjust" ]; then
		msg "checkpatch: $p: $errs error(s), unjustified:${unjust:- none}"
		printf '%s\n' "$res" | grep -E 'ERROR|WARNING|CHECK' | sed 's/^/  /' >&2
		bad=$((bad + 1))
	fi
done
msg "checkpatch --strict: $n patch(es), $bad with problems"
[ $bad = 0 ]
