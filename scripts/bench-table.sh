#!/bin/sh
# Summarise a `make run` result folder: bench-table.sh RESULTS_DIR
# Reads samples.tsv ("kernel round metric page ms") and meta; writes
# table.txt (printed), results.json and chart.png (gnuplot). Per metric and
# page size: median, min and max of each kernel, ratio base/patched, and
# "real" only when the two min-max ranges do not overlap.
. "$(dirname "$0")/lib.sh"
res=$1
[ -s "$res/samples.tsv" ] || die "no samples in $res/samples.tsv"

tr -d '\r' <"$res/meta" >"$res/meta.clean" && mv "$res/meta.clean" "$res/meta"
awk -v meta="$res/meta" -v tsv="$res/summary.tsv" -v json="$res/results.json" '
function isort(a, n,   i, j, t) {
	for (i = 2; i <= n; i++) {
		t = a[i]
		for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
		a[j + 1] = t
	}
}
function stats(key,   n, a, i) {
	n = cnt[key]
	for (i = 1; i <= n; i++) a[i] = val[key, i] + 0
	isort(a, n)
	MED = (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	MIN = a[1]; MAX = a[n]; N = n
}
function calibrated(row, page,   kk, i, key) {
	for (kk = 1; kk <= 2; kk++) {
		key = (kk == 1 ? "base" : "patched") SUBSEP row
		for (i = 1; i <= cnt[key]; i++)
			if (!((substr(key, 1, index(key, SUBSEP) - 1), boot[key, i], page) in cal) ||
			    cal[substr(key, 1, index(key, SUBSEP) - 1), boot[key, i], page] <= 0)
				return 0
	}
	return 1
}
function normed(key, page,   n, a, i, kern) {
	n = cnt[key]; kern = substr(key, 1, index(key, SUBSEP) - 1)
	for (i = 1; i <= n; i++) a[i] = val[key, i] / cal[kern, boot[key, i], page]
	isort(a, n)
	MED = (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function jstr(s) { gsub(/[\r\n\t]/, " ", s); gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }
{
	k = $1 SUBSEP $3 SUBSEP $4
	val[k, ++cnt[k]] = $5
	boot[k, cnt[k]] = $2
	if ($3 == "calibrate") cal[$1, $2, $4] = $5
	if (!(($3 SUBSEP $4) in seen)) { seen[$3 SUBSEP $4] = 1; order[++nrows] = $3 SUBSEP $4 }
}
END {
	while ((getline l < meta) > 0) {
		i = index(l, "="); mk[++nm] = substr(l, 1, i - 1); mv[nm] = substr(l, i + 1)
	}
	printf "{\n  \"meta\": {\n" > json
	for (i = 1; i <= nm; i++)
		printf "    %s: %s%s\n", jstr(mk[i]), jstr(mv[i]), i < nm ? "," : "" > json
	printf "  },\n  \"results\": [\n" > json
	fmt = "%-17s %-5s %12s %12s %8s %9s  %-21s %-21s %s\n"
	printf fmt, "metric", "page", "base ms", "patched ms", "ratio", "ratio/cal", "base min-max", "patched min-max", "real?"
	for (r = 1; r <= nrows; r++) {
		split(order[r], mp, SUBSEP)
		if (!(("base" SUBSEP order[r]) in cnt) || !(("patched" SUBSEP order[r]) in cnt)) {
			printf "%-17s %-5s (missing on one kernel)\n", mp[1], mp[2]
			continue
		}
		stats("base" SUBSEP order[r]); bm = MED; bl = MIN; bh = MAX; bn = N
		stats("patched" SUBSEP order[r]); pm = MED; pl = MIN; ph = MAX; pn = N
		ratio = pm > 0 ? bm / pm : 0
		# the ratio of the medians of every boot sample over the same boot
		# calibration (calibrate at the same page size): a boot
		# that ran slow throughout counts like the others
		ncal = "-"
		if (mp[1] != "calibrate" && calibrated(order[r], mp[2])) {
			normed("base" SUBSEP order[r], mp[2]); bc = MED
			normed("patched" SUBSEP order[r], mp[2]); pc = MED
			if (pc > 0) ncal = sprintf("%.3f", bc / pc)
		}
		real = (bl > ph) ? "yes, faster" : (bh < pl) ? "yes, slower" : "no"
		printf fmt, mp[1], mp[2], sprintf("%.2f", bm), sprintf("%.2f", pm),
			sprintf("%.3f", ratio), ncal, sprintf("%.2f-%.2f", bl, bh),
			sprintf("%.2f-%.2f", pl, ph), real
		printf "%s_%s %.3f %.3f %.3f %.3f %.3f %.3f %.3f %s\n", mp[1], mp[2],
			bm, bl, bh, pm, pl, ph, ratio, ncal > tsv
		printf "    {\"metric\": %s, \"page\": %s, \"base\": {\"median_ms\": %.3f, \"min_ms\": %.3f, \"max_ms\": %.3f, \"n\": %d}, \"patched\": {\"median_ms\": %.3f, \"min_ms\": %.3f, \"max_ms\": %.3f, \"n\": %d}, \"ratio\": %.4f, \"ratio_calibrated\": %s, \"real\": %s}%s\n",
			jstr(mp[1]), jstr(mp[2]), bm, bl, bh, bn, pm, pl, ph, pn, ratio,
			ncal == "-" ? "null" : ncal,
			jstr(real), r < nrows ? "," : "" > json
	}
	printf "  ]\n}\n" > json
}' "$res/samples.tsv" >"$res/table.txt" || die "summary failed"

{
	if [ "$(sed -n 's/^null=//p' "$res/meta")" = 1 ]; then
		echo "NULL RUN: both columns are the base kernel (\"patched\" = base booted again)"
	fi
	prog=swap_batch
	grep -q '^command=.*BENCH=discard' "$res/meta" && prog=swap_discard
	echo "$prog, base vs patched: medians of $(sed -n 's/^rounds=//p' "$res/meta") boots each, alternating; ratio = base/patched (>1: patched faster)"
	pf=$(sed -n 's/^prefixes=//p' "$res/meta")
	[ -n "$pf" ] &&
		echo "PREFIXES=$pf: \"base\" is the base with the series' first ${pf%%:*} patches, \"patched\" with its first ${pf#*:} (kernels $(sed -n 's/^base_rev=//p' "$res/meta") and $(sed -n 's/^patched=//p' "$res/meta"))"
	grep -q '^accel=.*icount' "$res/meta" &&
		echo "ACCEL=icount: the guest's clock advances 1 ns an instruction, so \"ms\" are millions of guest instructions executed, not time; boots repeat a count within about 1% (to 0.01% in the long rows), so real? says only that the counts differ"
	grep -q ' calibrate ' "$res/samples.tsv" &&
		echo "ratio/cal: the same ratio, of each boot's time over its own calibrate row (the calibration, which the series does not change)"
	[ $prog = swap_discard ] &&
		echo "(rounds: total ms of the rounds; pageout-*: ms per MADV_PAGEOUT call; *-mib, discard-reqs and freed-clusters: counts, not ms)"
	sed -e 's/^/  /' "$res/table.txt"
	sed -n -e 's/^base=/base kernel: /p' -e 's/^machine=/host: /p' -e 's/^accel=/qemu accel: /p' \
		-e 's/^clocksource=/guest clocksource: /p' -e 's/^guest=/guest: /p' \
		-e 's/^command=/command: /p' "$res/meta"
} >"$res/table.txt.new" && mv "$res/table.txt.new" "$res/table.txt"
cat "$res/table.txt"

if command -v gnuplot >/dev/null 2>&1; then
	gnuplot <<EOG 2>"$res/gnuplot.log" || warn "gnuplot failed (see $res/gnuplot.log)"
set terminal pngcairo size 1100,520 noenhanced font ",10"
set output "$res/chart.png"
set title "swap_batch: time relative to the base median (bars: median, whiskers: min-max); lower is better"
set ylabel "time / base median"
set style data histogram
set style histogram errorbars gap 2 lw 1
set style fill solid 0.6 border -1
set xtics rotate by -30
set key outside right top
set grid ytics
set yrange [0:*]
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2
plot "$res/summary.tsv" using (\$2/\$2):(\$3/\$2):(\$4/\$2):xtic(1) title "base", \
     "" using (\$5/\$2):(\$6/\$2):(\$7/\$2) title "patched"
EOG
else
	warn "gnuplot not installed: no chart"
fi
