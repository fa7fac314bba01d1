#!/bin/sh
# make mutants: mutation testing of the series. Each tests/mutants/*.diff
# is one plausible one-line mistake in the code of one patch, against the
# tip of the work tree; its header says which patch (Patch: NN), what the
# mistake is, which test should catch it, and on which swap device
# (Tests: zram, ssd, hdd, file, zswap: one or more). For each, in turn:
# apply it in cache/work, run `make test` (scripts/test.sh, ALLOW_DIRTY=1)
# on that device, and put the tree back, also on error and ^C.
#   caught       make test failed: a case, KUnit, a splat or a hang
#   survived     make test passed: a test to write, or a written reason in
#                the diff's header that the mistake changes nothing
#   build-error  the kernel did not build (not a catch: fix the mutant)
#   stale        the diff no longer applies (name and file are printed)
#   error        make test stopped before its tests: the run stops there
# Env: MUTANTS="a b" (only these, names of tests/mutants/ with or without
# .diff), MUTANT_SWAP=KIND (that device for every mutant), MUTANT_FULL=1
# (every device's list, as plain make test, rather
# than the Tests: device). SWAP is not used. ARCH, TIMEOUT and the other
# make test options apply.
# Writes measured/mutants/results-STAMP.tsv (a row as each mutant ends)
# and build/mutants/STAMP/ (make test's log and the guests' logs of each).
# Refuses to start on a work tree with uncommitted changes, or when make
# test would fail whatever the mutant (patches/ and the work tree
# disagree, checkpatch). Non-zero only when the harness fails, never for
# survivors.
. "$(dirname "$0")/lib.sh"
need git awk
mdir=$TOP/tests/mutants
full=${MUTANT_FULL:-0}
case $full in 0 | 1) ;; *) die "MUTANT_FULL must be 0 or 1, not '$full'" ;; esac
# MUTANT_SWAP=KIND: boot that device for every mutant instead of its Tests:
# line (a short boot: KUnit runs in every one)
if [ -n "${MUTANT_SWAP:-}" ]; then
	[ "$MUTANT_SWAP" = zram ] || [ -f "$TOP/tests/kselftests.$MUTANT_SWAP" ] ||
		die "MUTANT_SWAP must be zram or a device with a list in tests/ (kselftests.KIND), not '$MUTANT_SWAP'"
fi

# the mutants to run, in name order
files=
if [ -n "$MUTANTS" ]; then
	for n in $MUTANTS; do
		n=${n##*/}
		f=$mdir/${n%.diff}.diff
		[ -f "$f" ] || die "MUTANTS: no mutant ${f#"$TOP"/}"
		files="$files $f"
	done
else
	for f in "$mdir"/*.diff; do
		[ -f "$f" ] && files="$files $f"
	done
fi
[ -n "$files" ] || die "no mutants in ${mdir#"$TOP"/}"

# A mutant's header: the lines before its diff. Patch: NN, Tests: KIND...
header() { sed -e '/^diff --git /,$d' -e '/^--- /,$d' "$1"; }
patch_of() { header "$1" | sed -n 's/^Patch: *\([0-9][0-9]*\).*/\1/p' | head -n 1; }
tests_of() {
	header "$1" | sed -n 's/^Tests: *//p' | head -n 1 | tr ',' ' ' |
		tr -s ' ' | sed 's/^ //; s/ $//'
}

# the devices make test has a list for: zram, and each tests/kselftests.KIND
kinds=zram
for l in "$TOP"/tests/kselftests.*; do
	[ -f "$l" ] && kinds="$kinds ${l##*/kselftests.}"
done
bad=
for f in $files; do
	n=$(basename "$f" .diff)
	[ -n "$(patch_of "$f")" ] || bad="$bad
  $n: no 'Patch: NN' line"
	t=$(tests_of "$f")
	[ -n "$t" ] || bad="$bad
  $n: no 'Tests: DEVICE' line"
	for k in $t; do
		case " $kinds " in
		*" $k "*) ;;
		*) bad="$bad
  $n: Tests: $k, which make test has no list for (it has: $kinds)" ;;
		esac
	done
done
[ -z "$bad" ] || die "mutants with a bad header:$bad"

# uncommitted changes in $WORK, untracked files included (nothing: clean)
dirty() {
	git -C "$WORK" status --porcelain --untracked-files=normal 2>/dev/null | head -n 5
}
clean_or_die() {
	[ -z "$(dirty)" ] || die "uncommitted changes in $WORK ($1): mutants are applied to the committed series alone; commit (and export) or drop them first:
$(dirty)"
}
[ -d "$WORK" ] && clean_or_die "before the first mutant"
# What make test checks before it builds must pass now: it fails
# the same way with every mutant, and each would read as caught.
"$TOP/scripts/series.sh" apply || exit 1
clean_or_die "before the first mutant"
"$TOP/scripts/series.sh" check ||
	die "patches/ and the work tree disagree: make test would fail for every mutant"
"$TOP/scripts/checkpatch.sh" ||
	die "checkpatch fails on the series: make test would fail for every mutant"

stamp=$(date -u +%Y%m%dT%H%M%SZ)
out=$TOP/measured/mutants
logs=$BUILD/mutants/$stamp
tsv=$out/results-$stamp.tsv
mkdir -p "$out" "$logs" || die "cannot make $out and $logs"
hash=$("$TOP/scripts/series.sh" code-hash) || exit 1
{
	echo "# make mutants $stamp: series code-hash $hash, ARCH=${ARCH:-x86_64}, MUTANT_FULL=$full, base $(cat "$SRC/.git/base-version" 2>/dev/null)"
	printf 'mutant\tpatch\tdevice\tverdict\tresult\tseconds\tcaught_by\n'
} >"$tsv"

# The mutant applied now, taken back on any exit.
applied=
restore() {
	[ -n "$applied" ] || return 0
	if git -C "$WORK" apply -R "$applied"; then
		applied=
		return 0
	fi
	warn "cannot take mutant $(basename "$applied" .diff) back out of $WORK: git -C ${WORK#"$TOP"/} apply -R ${applied#"$TOP"/}"
	applied=
	return 1
}
trap 'restore' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# What failed, from make test's log: the programs with failing cases,
# KUnit, and the first splat, crash or timeout (the device named when
# several ran).
caught_by() {
	awk '
	function add(s) { out = out (out == "" ? "" : "; ") s }
	{ sub(/\r$/, "") }
	/^==> kselftest results, swap on / { dev = $6; ndev++; next }
	/ pass +[0-9]+ +fail +[0-9]+ +skip / {
		line = $0
		sub(/^ +/, "", line)
		name = substr(line, 1, index(line, " pass ") - 1)
		sub(/ +$/, "", name)
		f = line
		sub(/.* fail +/, "", f)
		if (f + 0 > 0) { fails[++n] = name; fdev[n] = dev }
		next
	}
	/^FAIL: guest timed out/ {
		t = $0
		sub(/.*swap on /, "", t)
		sub(/\).*/, "", t)
		guest = guest (guest == "" ? "" : "; ") "timeout on " t
	}
	/^FAIL: guest run failed on / {
		t = $0
		sub(/^FAIL: guest run failed on /, "", t)
		sub(/:.*/, "", t)
		if (guest == "") guest = "guest failed on " t ")"
	}
	/^kernel splat\(s\) in / { want = (splat == ""); next }
	want {
		s = $0
		sub(/^ *[0-9]+: */, "", s)
		sub(/^\[[^]]*\] */, "", s)
		gsub(/\t/, " ", s)
		splat = substr(s, 1, 100)
		want = 0
	}
	/Testing complete\./ {
		k = 0
		if (match($0, /failed: [0-9]+/)) k += substr($0, RSTART + 8, RLENGTH - 8)
		if (match($0, /crashed: [0-9]+/)) k += substr($0, RSTART + 9, RLENGTH - 9)
		if (k > 0) kunit = "KUnit (" k " failed)"
	}
	/no KUnit results found|KUnit output missing/ { kunit = "KUnit (no results)" }
	END {
		for (i = 1; i <= n; i++)
			add(fails[i] (ndev > 1 ? " on " fdev[i] : ""))
		if (kunit != "") add(kunit)
		if (splat != "") add("splat: " splat)
		else if (guest != "") add(guest)
		print out
	}' "$1"
}

# make test's logs of the guests that ran (scripts/test.sh: test for zram,
# test-KIND for the others), kept beside its own log
keep_guest_logs() {
	for k in $2; do
		d=$BUILD/patched-debug$SFX/test-$k
		[ "$k" = zram ] && d=$BUILD/patched-debug$SFX/test
		[ -d "$d" ] || continue
		mkdir -p "$logs/$1/$k"
		for l in console.log output.log kunit.log; do
			[ -f "$d/$l" ] && cp "$d/$l" "$logs/$1/$k/"
		done
	done
}

nc=0 ns=0 nb=0 nst=0 survivors='' total=0 i=0
for f in $files; do total=$((total + 1)); done
start=$(date +%s)
for f in $files; do
	i=$((i + 1))
	name=$(basename "$f" .diff)
	patch=$(patch_of "$f")
	devs=$(tests_of "$f")
	[ -n "${MUTANT_SWAP:-}" ] && devs=$MUTANT_SWAP
	[ "$full" = 1 ] && devs=all
	t0=$(date +%s)
	clean_or_die "before mutant $name"
	result=- why=
	if ! git -C "$WORK" apply --check "$f" 2>"$logs/$name.apply"; then
		warn "mutant $name (${f#"$TOP"/}) does not apply to the work tree: stale
$(sed 's/^/  /' "$logs/$name.apply")"
		verdict=stale devs=-
	else
		rm -f "$logs/$name.apply"
		applied=$f
		git -C "$WORK" apply "$f" ||
			{ applied=''; die "git apply of ${f#"$TOP"/} failed after its --check passed"; }
		step "[$i/$total] mutant $name (patch $patch): make test on $devs (logs: ${logs#"$TOP"/}/$name.*)"
		verdict=survived
		for k in $devs; do
			# all: SWAP empty, make test boots every device with a list
			swap=$k ran=$k
			[ "$k" = all ] && swap='' ran=$kinds
			run=$logs/$name.$k.log
			ALLOW_DIRTY=1 SWAP=$swap "$TOP/scripts/test.sh" >"$run" 2>&1
			rc=$?
			sum=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$run" | tail -n 1)
			[ -n "$sum" ] && result=$sum && keep_guest_logs "$name" "$ran"
			[ $rc = 0 ] && continue
			if grep -Eq '^error: (kernel build .* failed|sdisc module build failed)' "$run"; then
				verdict=build-error
				why=$(grep -E ' error: ' "$run" | head -n 1 | tr '\t' ' ' | cut -c1-120)
			elif [ -n "$sum" ]; then
				verdict=caught
				why=$(caught_by "$run")
				[ -n "$why" ] || why="make test failed (exit $rc)"
			else
				restore
				printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$patch" "$k" \
					error - $(($(date +%s) - t0)) "make test exit $rc before its tests" >>"$tsv"
				die "make test stopped before it ran the tests for mutant $name (exit $rc; log: ${run#"$TOP"/}); rows so far: ${tsv#"$TOP"/}"
			fi
			break
		done
		restore || exit 1
		clean_or_die "after mutant $name"
	fi
	secs=$(($(date +%s) - t0))
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$patch" \
		"$(printf '%s' "$devs" | tr ' ' ',')" "$verdict" "$result" "$secs" \
		"${why:--}" >>"$tsv"
	case $verdict in
	caught) nc=$((nc + 1)) ;;
	survived) ns=$((ns + 1)) survivors="$survivors $name" ;;
	build-error) nb=$((nb + 1)) ;;
	stale) nst=$((nst + 1)) ;;
	esac
	msg "    $name: $verdict${why:+ ($why)} in $secs s"
done
took=$(($(date +%s) - start))
msg "rows: ${tsv#"$TOP"/}; logs: ${logs#"$TOP"/}/; took $((took / 60)) min $((took % 60)) s"
[ -z "$survivors" ] ||
	msg "survived (each needs a test, or a reason in its header that it changes nothing):$survivors"
echo "$nc caught, $ns survived, $nb build-error, $nst stale"
