#!/bin/sh
# Put a `make run` table into README.md between the results markers, so
# README numbers always come from a real run.
# usage: readme-results.sh [RESULTS_DIR]   (default: measured/results and,
# when published, measured/results-arm64, between the results-arm64 markers)
. "$(dirname "$0")/lib.sh"
if [ -z "$1" ]; then
	# both published tables
	"$0" "$TOP/measured/results" || exit 1
	[ -f "$TOP/measured/results-arm64/table.txt" ] || exit 0
	exec "$0" "$TOP/measured/results-arm64"
fi
res=$1
[ -f "$res/table.txt" ] || die "no $res/table.txt (make run, then make publish)"
readme=$TOP/README.md
# the markers: results, or results-arm64 for an arm64 run (its meta)
mark=results
[ "$(kv "$res/meta" arch)" = arm64 ] && mark=results-arm64
grep -q "^<!-- $mark:begin -->\$" "$readme" && grep -q "^<!-- $mark:end -->\$" "$readme" ||
	die "README.md lacks the <!-- $mark:begin/end --> markers"
tmp=$(mktemp)
awk -v tbl="$res/table.txt" -v b="<!-- $mark:begin -->" -v e="<!-- $mark:end -->" '
	$0 == b {
		print; print "```"
		while ((getline l < tbl) > 0) print l
		print "```"; skip = 1; next
	}
	$0 == e { skip = 0 }
	!skip' "$readme" >"$tmp" && mv "$tmp" "$readme"
msg "README.md: results from ${res#"$TOP"/}"
