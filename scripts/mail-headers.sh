#!/bin/sh
# Add To: and Cc: headers to a git format-patch mail, after its Subject:
# usage: mail-headers.sh FILE TO CC   (TO, CC: one address a line)
. "$(dirname "$0")/lib.sh"
f=$1
[ -f "$f" ] || die "mail-headers: no file $f"
awk -v to="$2" -v cc="$3" '
	function field(name, list,   n, a, i, s) {
		n = split(list, a, "\n"); s = ""
		for (i = 1; i <= n; i++) if (a[i] != "") s = s (s == "" ? "" : ",\n    ") a[i]
		if (s != "") print name ": " s
	}
	done { print; next }
	# the header line after Subject (and its folded lines)
	insub && !/^[ \t]/ { field("To", to); field("Cc", cc); done = 1; print; next }
	/^Subject: / { insub = 1 }
	{ print }
' "$f" >"$f.new" && mv "$f.new" "$f" || die "mail-headers: cannot rewrite $f"
grep -q '^To: \|^Cc: ' "$f" || die "mail-headers: no recipients for $(basename "$f")"
