#!/bin/sh
# make publish-stress: copy the newest long stress run of each kernel and
# swap device (results/stress-STAMP-KERNEL-SWAP/summary.txt) into
# measured/stress/KERNEL.txt (zram) or KERNEL-SWAP.txt (tracked), then
# write the block between <!-- stress:begin --> and <!-- stress:end -->
# of docs/stress.md from them.
. "$(dirname "$0")/lib.sh"
dst=$TOP/measured/stress
doc=$TOP/docs/stress.md
mkdir -p "$dst"
for k in base patched; do
	for sw in zram ssd hdd file; do
		# runs from before SWAP existed end in the kernel's name (zram)
		src=$(ls -d "$TOP"/results/stress-*-"$k-$sw" $([ $sw = zram ] &&
			echo "$TOP/results/stress-*-$k") 2>/dev/null |
			awk -F/ '{ print $NF " " $0 }' | sort | tail -n 1 | cut -d' ' -f2)
		[ -n "$src" ] && [ -f "$src/summary.txt" ] || continue
		out=$dst/$k-$sw.txt
		[ $sw = zram ] && out=$dst/$k.txt
		tr -d '\r' <"$src/summary.txt" >"$out"
		msg "published ${src#"$TOP"/}/summary.txt"
	done
done
ls "$dst"/*.txt >/dev/null 2>&1 || die "no stress run to publish (make stress first)"
block=$(mktemp) && trap 'rm -f "$block"' EXIT
{
	echo "Last long runs (\`make stress\`, published from measured/stress/):"
	echo
	echo "| kernel | swap | command | exit | splats | seconds | processes | rounds | pages verified | faults injected | swapoffs | errors | failed cases |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	for f in "$dst"/*.txt; do
		awk '
		{ sub(/\r$/, "") }
		NR == 1 { k = $1; sub(/^kernel=/, "", k) }
		NR == 2 { c = $0; sub(/^command="/, "", c); sub(/".*/, "", c)
			  for (i = 1; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] } }
		NR == 3 { for (i = 1; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] } }
		END {
			printf "| %s | %s | `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
				k, v["swap"] == "" ? "zram" : v["swap"], c, v["guest-exit"], v["splats"], v["seconds"], v["processes"],
				v["rounds"], v["pages-verified"], v["faults-injected"],
				v["swapoffs"], v["errors"], v["failed"]
		}' "$f"
	done
} >"$block"
awk -v blk="$block" '
	/<!-- stress:begin -->/ { print; while ((getline l < blk) > 0) print l; skip = 1; next }
	/<!-- stress:end -->/ { skip = 0 }
	!skip
' "$doc" >"$doc.new" && mv "$doc.new" "$doc"
msg "docs/stress.md: stress block rewritten"
