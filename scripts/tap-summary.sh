#!/bin/sh
# Count kselftest TAP results in a guest output log.
# Programs are delimited by "# selftest: NAME ARGS" and "# selftest-exit: RC"
# (see scripts/test.sh; "# selftest-seconds: START END" from the guest's
# uptime, when there, adds the run time). Prints one line per program and, last,
# "PASS FAIL SKIP" totals. A program that exits non-zero (other than 4,
# kselftest's skip) without a failing case counts as one failure; one that
# prints no case counts as one pass, failure or skip by its exit status.
awk '
{ sub(/\r$/, "") }
function flush(rc,   f) {
	if (name == "") return
	f = fail
	if (rc != 0 && rc != 4 && fail == 0) fail = 1
	if (pass + fail + skip == 0) { if (rc == 0) pass = 1; else if (rc == 4) skip = 1 }
	else if (plan >= 0 && pass + fail + skip != plan) {
		printf "%s: planned %d cases, reported %d\n", name, plan, pass + fail + skip
		fail++
	}
	printf "%-40s pass %4d  fail %3d  skip %4d  (exit %s%s)\n", name, pass, fail, skip, rc,
		secs == "" ? "" : sprintf(", %d s", secs)
	P += pass; F += fail; S += skip
	name = ""
}
/^# selftest: / { flush("?"); name = substr($0, 13); pass = fail = skip = 0; plan = -1; secs = ""; next }
/^# selftest-seconds: / { secs = $4 - $3; next }
/^# selftest-exit: / { rc = $3 + 0; flush(rc); next }
name == "" { next }
/^1\.\.[0-9]+/ { plan = substr($0, 4) + 0; next }
/^not ok / { fail++; next }
/^ok / { if ($0 ~ /# *[Ss][Kk][Ii][Pp]/) skip++; else pass++; next }
END { if (name != "") { fail++; flush("none (no exit line: crash or timeout)") }
      print P + 0, F + 0, S + 0 }
' "$1"
