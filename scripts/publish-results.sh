#!/bin/sh
# Publish a `make run` result: publish-results.sh [RESULTS_DIR]
# (default results/latest). Copies its table, samples, summary and meta
# into measured/results, or measured/noise for a null run (NULL=1), both
# tracked in git, then writes the README table and the cover letter from
# them: numbers in README.md and patches/ always come from a real run.
. "$(dirname "$0")/lib.sh"
src=${1:-$TOP/results/latest}
for f in meta samples.tsv summary.tsv table.txt; do
	[ -f "$src/$f" ] || die "no $src/$f (make run first, or RESULTS=results/STAMP)"
done
if [ "$(kv "$src/meta" null)" = 1 ]; then
	dst=$TOP/measured/noise
else
	dst=$TOP/measured/results
fi
rm -rf "$dst"
mkdir -p "$dst"
cp "$src/meta" "$src/samples.tsv" "$src/summary.tsv" "$src/table.txt" "$dst/" ||
	die "cannot copy $src into $dst"
step "published $(basename "$(cd "$src" && pwd -P)") as ${dst#"$TOP"/}"
[ "$dst" = "$TOP/measured/results" ] && { "$TOP/scripts/readme-results.sh" "$dst" || exit 1; }
"$TOP/scripts/series.sh" cover
