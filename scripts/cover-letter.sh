#!/bin/sh
# Write the series' cover letter: cover-letter.sh OUT [PREFIX [VERSION]]
# From patches/cover.in (subject line, then the prose), the published
# results (measured/results, measured/noise, and their -arm64 twins: see
# scripts/publish-results.sh),
# the commits base..HEAD of the work tree (shortlog, diffstat) and, when
# patches/sent/ holds an earlier version, a range-diff against it.
# Deterministic: the same inputs give the same file (make export, check).
# PREFIX: subject prefix (default PATCH); VERSION: the series version
# (default: one more than the newest patches/sent/vN).
. "$(dirname "$0")/lib.sh"
out=$1 prefix=$2 ver=$3
need git awk
in=$TOP/patches/cover.in
[ -f "$in" ] || die "no $in (the cover letter's subject and prose)"
subject=$(sed -n '1s/^Subject: //p' "$in")
[ -n "$subject" ] || die "$in: the first line must be 'Subject: ...'"
n=$(git -C "$WORK" rev-list --count base..HEAD)
[ "$n" -gt 0 ] || die "the work tree has no patches"

# the newest version sent before, and this one's number
prev=$(ls -d "$TOP"/patches/sent/v[0-9]* 2>/dev/null | sed 's|.*/v||' | sort -n | tail -n 1)
[ -n "$ver" ] || ver=$((${prev:-0} + 1))
[ -z "$prev" ] || [ "$prev" -lt "$ver" ] ||
	prev=$(ls -d "$TOP"/patches/sent/v[0-9]* | sed 's|.*/v||' | sort -n |
		awk -v v="$ver" '$1 < v' | tail -n 1)

[ -n "$prefix" ] || { prefix=PATCH; [ "$ver" -gt 1 ] && prefix="PATCH v$ver"; }
last=$(git -C "$WORK" rev-parse HEAD)
zero=$(printf '%0*d' ${#n} 0)	# git format-patch pads numbers to N's width

# Changes since the previous version: range-diff of its patches, applied
# to base in a scratch worktree, against base..HEAD (hashes dropped: they
# depend on when and where the trees were made).
changes() {
	if [ -z "$prev" ]; then
		echo "This is v$ver: there is no earlier version to compare with."
		return
	fi
	pdir=$TOP/patches/sent/v$prev
	scratch=$CACHE/prev-v$prev
	rm -rf "$scratch"
	git -C "$SRC" worktree prune
	git -C "$SRC" worktree add -q --detach "$scratch" base ||
		die "cannot make a scratch worktree for v$prev"
	for p in $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$pdir/series"); do
		git -C "$scratch" -c user.name=series -c user.email=series@localhost \
			am -q --committer-date-is-author-date "$pdir/$p" >/dev/null 2>&1 || {
			git -C "$scratch" am --abort >/dev/null 2>&1
			echo "v$prev (patches/sent/v$prev) does not apply to this base: no range-diff."
			return
		}
	done
	echo "Changes since v$prev (git range-diff of patches/sent/v$prev against this series):"
	echo
	git -C "$WORK" -c core.abbrev=7 -c color.ui=never range-diff --no-notes \
		base.."$(git -C "$scratch" rev-parse HEAD)" base..HEAD |
		sed -E 's/^( *[0-9-]+): +[0-9a-f-]{7,} /\1: /; s/ ([0-9-]+): +[0-9a-f-]{7,} / \1: /'
	git -C "$SRC" worktree remove --force "$scratch" >/dev/null 2>&1
}

# results RESULTS NOISE ARCH: one architecture's published table and band
results() {
	res=$1 noise=$2 arch=$3
	if [ ! -f "$res/table.txt" ]; then
		echo "No results are published yet (make run, then make publish)."
		return
	fi
	h=$(kv "$res/meta" series_hash)
	c=$(kv "$res/meta" code_hash)
	# the patches this letter goes with: beside OUT when an export writes
	# them there (so one export is enough), else patches/
	pd=$(dirname "$out")
	[ -f "$pd/series" ] || pd=$TOP/patches
	if [ -n "$h" ] && [ "$h" = "$("$TOP/scripts/series.sh" hash "$pd")" ]; then
		state="this series exactly"
	elif [ -n "$c" ] && [ "$c" = "$("$TOP/scripts/series.sh" code-hash "$pd")" ]; then
		# numbers from a run go into changelogs after it: same code
		state="this series' code exactly (changelogs edited since)"
	else
		state="the series at $(kv "$res/meta" patched) (git describe)"
	fi
	echo "$arch: results of the run $(kv "$res/meta" date), $state, copied by"
	echo "scripts/publish-results.sh (never typed):"
	echo
	sed 's/^/  /' "$res/table.txt"
	echo
	if [ -f "$noise/summary.tsv" ]; then
		awk -v cmd="$(kv "$noise/meta" command)" -v date="$(kv "$noise/meta" date)" '
			{ r = $8 + 0; if (NR == 1 || r < lo) lo = r; if (NR == 1 || r > hi) hi = r }
			$9 != "" && $9 != "-" && $1 !~ /^calibrate_/ {
				c = $9 + 0; if (!nc++ || c < clo) clo = c; if (nc == 1 || c > chi) chi = c
			}
			END {
				printf "Noise band: a null run, the base kernel booted in both columns,\n"
				printf "gave ratios from %.2f to %.2f over its %d rows; it ran %s as\n", lo, hi, NR, date
				printf "  %s\n", cmd
				if (nc)
					printf "(ratio/cal, each boot divided by its calibrate row: %.2f to %.2f)\n", clo, chi
				printf "A row shows a real change only when the two kernels'"'"' min-max ranges\n"
				printf "do not overlap (column \"real?\"); a ratio inside the band alone\n"
				printf "means nothing.\n"
			}' "$noise/summary.tsv"
	else
		echo "Noise band: no null run is published (make run NULL=1, then make publish)."
	fi
	# the counted work (make costs), where published
	costs=$TOP/measured/costs${res#"$TOP"/measured/results}
	if [ -f "$costs/table.txt" ]; then
		echo
		echo "$arch: the work counted on kernels built for counting (run $(kv "$costs/meta" date)):"
		echo
		sed 's/^/  /' "$costs/table.txt"
	fi
}

{
	echo "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001"
	git -C "$WORK" log -1 --format='From: %an <%ae>%nDate: %aD' "$last"
	echo "Subject: [$prefix $zero/$n] $subject"
	echo
	sed 1d "$in" | sed '1{/^$/d;}'
	echo
	results "$TOP/measured/results" "$TOP/measured/noise" x86_64
	if [ -f "$TOP/measured/results-arm64/table.txt" ]; then
		echo
		results "$TOP/measured/results-arm64" "$TOP/measured/noise-arm64" arm64
	fi
	echo
	changes
	echo
	echo "Based on $(cat "$SRC/.git/base-version")."
	echo
	git -C "$WORK" shortlog --no-merges base..HEAD
	git -C "$WORK" -c diff.renames=true diff --stat=72 --summary base..HEAD
} >"$out"
