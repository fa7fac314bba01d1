#!/bin/sh
# Summarise a `make costs` folder: costs-table.sh RESULTS_DIR
# Reads counts.tsv ("kernel case=... page=... size_mib=... ci_lock=..."),
# writes table.txt (printed): per case and page size, each count per MiB
# on base and patched, and base/patched.
. "$(dirname "$0")/lib.sh"
res=$1
[ -s "$res/counts.tsv" ] || die "no counts in $res/counts.tsv"
{
	echo "Work counted per MiB, base -> patched (base/patched), on kernels built for counting"
	awk '
	BEGIN {
		name[1] = "ci_lock"; name[2] = "tlb_add"; name[3] = "unmap_one"
		name[4] = "tlb_flush"; name[5] = "tlb_now"; name[6] = "memcg_id"
		fmt = "%-16s %-4s %-19s %-16s %-9s %-13s %-17s %s\n"
		printf fmt, "case", "page", "cluster lock", "TLB-batch adds", "unmap_one",
			"flush", "flush now", "memcg ids"
	}
	{
		delete v
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
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
} >"$res/table.txt.new" && mv "$res/table.txt.new" "$res/table.txt"
cat "$res/table.txt"
