#!/bin/sh
# Put a `make run` table into README.md between the results markers, so
# README numbers always come from a real run.
# usage: readme-results.sh [RESULTS_DIR]   (default: measured/results;
# measured/results-arm64 goes between the results-arm64 markers)
. "$(dirname "$0")/lib.sh"
res=${1:-$TOP/measured/results}
[ -f "$res/table.txt" ] || die "no $res/table.txt (make run, then make publish)"
readme=$TOP/README.md
# the markers are named after the folder: results, results-arm64
mark=$(basename "$(cd "$res" && pwd -P)")
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
