#!/bin/sh
# Summarise a `make costs` or `make profile` folder: costs-table.sh RESULTS_DIR
# make costs: reads counts.tsv ("kernel case=... page=... size_mib=...
# ci_lock=..."), writes table.txt (printed): per case and page size, each
# count per MiB on base and patched, and base/patched.
# make profile: reads profile.tsv ("kernel case=... page=... size_mib=...
# pass=top|tree depth=N func=F hit=N us=T"), writes table.txt: per case and
# page size, the call tree of guest/profile.tree with each function's
# calls and time a MiB, base beside patched, and base/patched. The first
# row, "(alone)", is the top function timed with nothing else traced; the
# rows under it come from the pass that traced the whole tree.
. "$(dirname "$0")/lib.sh"
res=$1
# awk: the line's "key=value" fields into v[], the kernel in $1
kv='function parse(  i, kv) {
	delete v
	for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
}
'

counts_table() {
	echo "Work counted per MiB, base -> patched (base/patched), on kernels built for counting"
	awk "$kv"'
	BEGIN {
		name[1] = "ci_lock"; name[2] = "tlb_add"; name[3] = "unmap_one"
		name[4] = "tlb_flush"; name[5] = "tlb_now"; name[6] = "memcg_id"
		fmt = "%-16s %-4s %-19s %-16s %-9s %-13s %-17s %s\n"
		printf fmt, "case", "page", "cluster lock", "TLB-batch adds", "unmap_one",
			"flush", "flush now", "memcg ids"
	}
	{
		parse()
		row = v["case"] " " v["page"]
		if (!(row in seen)) { seen[row] = 1; order[++n] = row }
		for (c = 1; c <= 6; c++) {
			val[$1, row, c] = "na"
			if ((name[c] in v) && v[name[c]] != "na")
				val[$1, row, c] = v[name[c]] / v["size_mib"]
		}
	}
	function num(x) { return x == int(x) ? sprintf("%d", x) : sprintf("%.1f", x) }
	function cell(b, p,   r) {
		if (b == "na" || p == "na") return "n/a"
		b = int(b * 10 + 0.5) / 10; p = int(p * 10 + 0.5) / 10
		if (b == p) return num(b)
		r = (p > 0 && b > 0) ? sprintf(" (%sx)", num(int(b / p * 10 + 0.5) / 10)) : ""
		return num(b) "->" num(p) r
	}
	END {
		for (r = 1; r <= n; r++) {
			split(order[r], rp, " ")
			printf fmt, rp[1], rp[2],
				cell(val["base", order[r], 1], val["patched", order[r], 1]),
				cell(val["base", order[r], 2], val["patched", order[r], 2]),
				cell(val["base", order[r], 3], val["patched", order[r], 3]),
				cell(val["base", order[r], 4], val["patched", order[r], 4]),
				cell(val["base", order[r], 5], val["patched", order[r], 5]),
				cell(val["base", order[r], 6], val["patched", order[r], 6])
		}
	}' "$res/counts.tsv" || die "summary failed"
	echo "cluster lock: acquisitions of the swap cluster locks (lock_stat); TLB-batch adds:"
	echo "arch_tlbbatch_add_pending() calls; unmap_one: try_to_unmap_one() calls; flush:"
	echo "try_to_unmap_flush() calls (each flushes what was deferred, if anything); flush"
	echo "now: flush_tlb_mm_range() calls, flushes not deferred (x86; n/a on arm64, where it"
	echo "is inline and reclaim always defers); memcg ids: lookup_swap_cgroup_id() and"
	echo "swap_cgroup_id_run() calls, reads of swap entries' memcg ids; from the function"
	echo "profiler"
	sed -n -e 's/^guest=/guest: /p' -e 's/^command=/command: /p' "$res/meta"
}

profile_table() {
	echo "Time a MiB (us) and calls a MiB, base -> patched, on kernels built for profiling:"
	echo "medians of the boots of each kernel, and their min-max"
	grep -q '^command=.*ACCEL=icount' "$res/meta" &&
		echo "ACCEL=icount: \"us\" are thousands of guest instructions, the profiler's own included"
	awk "$kv"'
	BEGIN {
		fmt = "%-36s %9s %-15s %9s %-15s %7s %7s %6s\n"
	}
	{
		parse()
		blk = v["case"] " " v["page"]
		if (!(blk in seen)) { seen[blk] = 1; order[++n] = blk }
		key = v["pass"] == "top" ? "(alone)" : v["func"]
		if (!((blk, key) in row)) {
			row[blk, key] = ++nr[blk]
			fn[blk, nr[blk]] = key
			dep[blk, nr[blk]] = v["pass"] == "top" ? -1 : v["depth"]
			top[blk] = v["pass"] == "top" ? v["func"] : top[blk]
		}
		k = $1 SUBSEP blk SUBSEP key
		if (v["us"] == "na") next
		nv[k]++
		us[k, nv[k]] = v["us"] / v["size_mib"]
		hit[k, nv[k]] = v["hit"] / v["size_mib"]
	}
	function f(x) {
		if (x == "") return "-"
		if (x == int(x) || x >= 100) return sprintf("%d", x + 0.5)
		return x >= 1 ? sprintf("%.1f", x) : sprintf("%.3f", x)
	}
	# median (and lo, hi) of a[k, 1..nv[k]]; "" when there is none
	function stat(a, k,   i, j, t, m, s) {
		lo = hi = ""
		m = nv[k]
		if (!m) return ""
		for (i = 1; i <= m; i++) s[i] = a[k, i]
		for (i = 2; i <= m; i++)
			for (j = i; j > 1 && s[j - 1] > s[j]; j--) { t = s[j]; s[j] = s[j - 1]; s[j - 1] = t }
		lo = s[1]; hi = s[m]
		return m % 2 ? s[(m + 1) / 2] : (s[m / 2] + s[m / 2 + 1]) / 2
	}
	END {
		for (b = 1; b <= n; b++) {
			blk = order[b]
			printf "\n%s\n", blk
			printf fmt, "function", "base us", "(min-max)", "pat. us", "(min-max)",
				"b calls", "p calls", "ratio"
			for (r = 1; r <= nr[blk]; r++) {
				key = fn[blk, r]
				label = key == "(alone)" ? top[blk] " (alone)" : key
				pad = ""
				for (d = 0; d < dep[blk, r]; d++) pad = pad "  "
				kb = "base" SUBSEP blk SUBSEP key
				kp = "patched" SUBSEP blk SUBSEP key
				bm = stat(us, kb); br = bm == "" ? "" : f(lo) "-" f(hi)
				pm = stat(us, kp); pr = pm == "" ? "" : f(lo) "-" f(hi)
				rt = (bm > 0 && pm > 0) ? sprintf("%.2f", bm / pm) : "-"
				printf fmt, pad label, f(bm), br, f(pm), pr,
					f(stat(hit, kb)), f(stat(hit, kp)), rt
			}
		}
	}' "$res/profile.tsv" || die "summary failed"
	echo
	echo "us: microseconds a MiB in the function, with what it calls (the function graph"
	echo "profiler's time); calls: calls a MiB; ratio: of the medians, base us / patched us;"
	echo "-: the kernel has no such function (or inlined it). (alone): the top function with"
	echo "nothing else traced; the rows under it traced together, each call adding the"
	echo "profiler's own cost"
	sed -n -e 's/^guest=/guest: /p' -e 's/^command=/command: /p' "$res/meta"
}

if [ -s "$res/profile.tsv" ]; then
	profile_table >"$res/table.txt.new" || exit 1
elif [ -s "$res/counts.tsv" ]; then
	counts_table >"$res/table.txt.new" || exit 1
else
	die "no counts in $res/counts.tsv or profile in $res/profile.tsv"
fi
mv "$res/table.txt.new" "$res/table.txt" && cat "$res/table.txt"
