#!/bin/sh
# Put a `make run` table into README.md between the results markers, so
# README numbers always come from a real run.
# usage: readme-results.sh [RESULTS_DIR]   (default: measured/results)
. "$(dirname "$0")/lib.sh"
res=${1:-$TOP/measured/results}
[ -f "$res/table.txt" ] || die "no $res/table.txt (make run, then make publish)"
readme=$TOP/README.md
grep -q '^<!-- results:begin -->$' "$readme" && grep -q '^<!-- results:end -->$' "$readme" ||
	die "README.md lacks the <!-- results:begin/end --> markers"
tmp=$(mktemp)
awk -v tbl="$res/table.txt" '
	/^<!-- results:begin -->$/ {
		print; print "```"
		while ((getline l < tbl) > 0) print l
		print "```"; skip = 1; next
	}
	/^<!-- results:end -->$/ { skip = 0 }
	!skip' "$readme" >"$tmp" && mv "$tmp" "$readme"
msg "README.md: results from ${res#"$TOP"/}"
