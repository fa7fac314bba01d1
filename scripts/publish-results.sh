#!/bin/sh
# Publish a `make run` result: publish-results.sh [RESULTS_DIR]
# (default results/latest, results/latest-arm64 with ARCH=arm64). Copies its table, samples, summary and meta
# into measured/results, or measured/noise for a null run (NULL=1), both
# tracked in git (measured/results-arm64, noise-arm64 for ARCH=arm64),
# then writes the README table and the cover letter from them: numbers
# in README.md and patches/ always come from a real run.
# A `make costs` folder (results/costs-STAMP) goes to measured/costs, or
# measured/costs-arm64, alone; a `make profile` folder to measured/profile
# (profile-arm64), alone.
. "$(dirname "$0")/lib.sh"
src=${1:-$TOP/results/latest$SFX}
# a `make costs` or `make profile` folder: its counts or profile go to
# measured/costs or measured/profile (costs-arm64, profile-arm64)
data=
[ -f "$src/counts.tsv" ] && data=counts.tsv dir=costs
[ -f "$src/profile.tsv" ] && data=profile.tsv dir=profile
if [ -n "$data" ]; then
	for f in meta $data table.txt; do
		[ -f "$src/$f" ] || die "no $src/$f (make $dir first)"
	done
	sfx=
	[ "$(kv "$src/meta" arch)" = arm64 ] && sfx=-arm64
	dst=$TOP/measured/$dir$sfx
	rm -rf "$dst" && mkdir -p "$dst" &&
		cp "$src/meta" "$src/$data" "$src/table.txt" "$dst/" ||
		die "cannot copy $src into $dst"
	step "published $(basename "$(cd "$src" && pwd -P)") as ${dst#"$TOP"/}"
	# the cover letter carries the counts
	[ "$dir" = costs ] || exit 0
	exec "$TOP/scripts/series.sh" cover
fi
for f in meta samples.tsv summary.tsv table.txt; do
	[ -f "$src/$f" ] || die "no $src/$f (make run first, or RESULTS=results/STAMP)"
done
[ -z "$(kv "$src/meta" perf_align)" ] ||
	die "$src was built with PERF_ALIGN=\"$(kv "$src/meta" perf_align)\": a layout experiment, not the kernels make run builds; it is not published"
case $(kv "$src/meta" accel) in
*icount*) die "$src ran with ACCEL=icount: its numbers count instructions, not time; it is not published (keep it in measured/icount/)" ;;
esac
# the README table and the cover letter are the whole series against the
# base, swap_batch's benchmarks: other runs are kept by hand next to
# their story (measured/discard/, measured/cowws/, measured/prefix/)
[ -z "$(kv "$src/meta" prefixes)" ] ||
	die "$src is a PREFIXES=$(kv "$src/meta" prefixes) run: make publish takes base against the whole series only (copy it to measured/prefix/ instead)"
case $(kv "$src/meta" command) in
*BENCH=*) die "$src is not a swap_batch benchmark run ($(kv "$src/meta" command)): make publish takes those only (copy it to measured/discard/ or measured/cowws/ instead)" ;;
esac
# arm64 runs go to the same folders with -arm64 appended
sfx=
[ "$(kv "$src/meta" arch)" = arm64 ] && sfx=-arm64
if [ "$(kv "$src/meta" null)" = 1 ]; then
	dst=$TOP/measured/noise$sfx
else
	dst=$TOP/measured/results$sfx
fi
rm -rf "$dst"
mkdir -p "$dst"
cp "$src/meta" "$src/samples.tsv" "$src/summary.tsv" "$src/table.txt" "$dst/" ||
	die "cannot copy $src into $dst"
step "published $(basename "$(cd "$src" && pwd -P)") as ${dst#"$TOP"/}"
[ "$dst" = "$TOP/measured/results$sfx" ] && { "$TOP/scripts/readme-results.sh" "$dst" || exit 1; }
"$TOP/scripts/series.sh" cover
