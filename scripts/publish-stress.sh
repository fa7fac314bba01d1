#!/bin/sh
# make publish-stress: copy the newest long stress run of each kernel
# (results/stress-STAMP-KERNEL/summary.txt) into measured/stress/KERNEL.txt
# (tracked), then write README's block between <!-- stress:begin --> and
# <!-- stress:end --> from them.
. "$(dirname "$0")/lib.sh"
dst=$TOP/measured/stress
mkdir -p "$dst"
for k in base patched; do
	src=$(ls -d "$TOP"/results/stress-*-"$k" 2>/dev/null | sort | tail -n 1)
	[ -n "$src" ] && [ -f "$src/summary.txt" ] || continue
	tr -d '\r' <"$src/summary.txt" >"$dst/$k.txt"
	msg "published ${src#"$TOP"/}/summary.txt"
done
ls "$dst"/*.txt >/dev/null 2>&1 || die "no stress run to publish (make stress first)"
block=$(mktemp) && trap 'rm -f "$block"' EXIT
{
	echo "Last long runs (\`make stress\`, published from measured/stress/):"
	echo
	echo "| kernel | command | exit | splats | seconds | processes | rounds | pages verified | faults injected | swapoffs | errors | failed cases |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
	for f in "$dst"/*.txt; do
		awk '
		{ sub(/\r$/, "") }
		NR == 1 { k = $1; sub(/^kernel=/, "", k) }
		NR == 2 { c = $0; sub(/^command="/, "", c); sub(/".*/, "", c)
			  for (i = 1; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] } }
		NR == 3 { for (i = 1; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] } }
		END {
			printf "| %s | `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
				k, c, v["guest-exit"], v["splats"], v["seconds"], v["processes"],
				v["rounds"], v["pages-verified"], v["faults-injected"],
				v["swapoffs"], v["errors"], v["failed"]
		}' "$f"
	done
} >"$block"
awk -v blk="$block" '
	/<!-- stress:begin -->/ { print; while ((getline l < blk) > 0) print l; skip = 1; next }
	/<!-- stress:end -->/ { skip = 0 }
	!skip
' "$TOP/README.md" >"$TOP/README.md.new" && mv "$TOP/README.md.new" "$TOP/README.md"
msg "README.md: stress block rewritten"
