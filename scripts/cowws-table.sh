#!/bin/sh
# The fork-and-write workload's numbers from a `make run BENCH=cowws`
# result folder: cowws-table.sh RESULTS_DIR
# Reads cowws.tsv ("kernel round key=value ...", one line a run) and writes
# cowws.txt (printed): per page size and field, the median over all runs
# of each kernel, and patched/base. "-": the kernel has no such counter.
. "$(dirname "$0")/lib.sh"
res=$1
[ -s "$res/cowws.tsv" ] || die "no workload runs in $res/cowws.tsv"
# field order as in the first line, then one "kernel page field value" a value
order=$(head -n 1 "$res/cowws.tsv" | tr ' ' '\n' | sed -n 's/=.*//p' |
	grep -v -x -e page -e round -e size_mib | tr '\n' ' ')
awk '{
	page = ""
	for (i = 3; i <= NF; i++) if ($i ~ /^page=/) page = substr($i, 6)
	for (i = 3; i <= NF; i++) {
		n = index($i, "="); f = substr($i, 1, n - 1); v = substr($i, n + 1)
		if (v != "-") print $1, page, f, v
	}
}' "$res/cowws.tsv" | sort -k1,1 -k2,2 -k3,3 -k4,4g |
awk -v order="$order" '
function flush() {
	if (!c) return
	med[key] = (c % 2) ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
	c = 0
}
{
	k = $1 SUBSEP $2 SUBSEP $3
	if (k != key) { flush(); key = k }
	a[++c] = $4 + 0
	if (!($2 in seenp)) { seenp[$2] = 1; pages[++np] = $2 }
}
END {
	flush()
	nf = split(order, fields, " ")
	printf "%-24s %-5s %14s %14s %9s\n", "field (median)", "page", "base", "patched", "p/b"
	for (p = 1; p <= np; p++)
		for (j = 1; j <= nf; j++) {
			b = (("base" SUBSEP pages[p] SUBSEP fields[j]) in med) ? med["base", pages[p], fields[j]] : "-"
			q = (("patched" SUBSEP pages[p] SUBSEP fields[j]) in med) ? med["patched", pages[p], fields[j]] : "-"
			r = (b != "-" && q != "-" && b > 0) ? sprintf("%.3f", q / b) : "-"
			printf "%-24s %-5s %14s %14s %9s\n", fields[j], pages[p],
				b == "-" ? b : sprintf("%.1f", b), q == "-" ? q : sprintf("%.1f", q), r
		}
}' >"$res/cowws.txt" || die "workload summary failed"
{
	echo "fork-and-write workload (swap_batch -w), medians of all runs; p/b = patched/base"
	echo "(ms: per 10000 accesses; acc_per_s: higher is better; '-': no such counter)"
	sed 's/^/  /' "$res/cowws.txt"
} >"$res/cowws.txt.new" && mv "$res/cowws.txt.new" "$res/cowws.txt"
cat "$res/cowws.txt"
