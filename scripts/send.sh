#!/bin/sh
# make send: mail the series to its maintainers and lists, in one step
# that cannot skip a check. Dry run unless SEND=1.
#  1. the sender is the git identity of this checkout (user.name/email):
#     every mail's From and the Signed-off-by of the team are replaced by it
#  2. patches/ must match the work tree; checkpatch --strict must pass;
#     the prefix check (scripts/prefix-check.sh perf) must have passed on
#     this exact series, or is run now (about half an hour under TCG)
#  3. patches are formatted with the subject prefix (V=2: "PATCH v2",
#     RFC=1: "RFC PATCH", RESEND=1: "RESEND PATCH"), the cover letter is
#     made for that version (scripts/cover-letter.sh)
#  4. To/Cc per patch from the base tree's scripts/get_maintainer.pl:
#     maintainers To, reviewers and lists Cc, linux-mm and linux-kernel
#     always Cc'd; the cover letter goes to the union
#  5. git send-email --dry-run (prints every mail's headers), or a real
#     send with SEND=1; then patches/sent/vN keeps what was sent, for the
#     next version's range-diff (commit it).
# Mails are left in build/send/. Extra git send-email options: SEND_OPTS.
. "$(dirname "$0")/lib.sh"
need git perl
git send-email -h >/dev/null 2>&1
[ $? -le 129 ] && git --exec-path >/dev/null && [ -x "$(git --exec-path)/git-send-email" ] ||
	die "missing git send-email (install the package git-email: make deps as root)"

name=$(git -C "$TOP" config user.name) email=$(git -C "$TOP" config user.email)
[ -n "$name" ] && [ -n "$email" ] ||
	die "no sender identity: set git config user.name and user.email (the mails are From them and signed off by them)"
sender="$name <$email>"

prev=$(ls -d "$TOP"/patches/sent/v[0-9]* 2>/dev/null | sed 's|.*/v||' | sort -n | tail -n 1)
ver=${V:-$((${prev:-0} + 1))}
ver=${ver#v}
case $ver in ''|*[!0-9]*|0) die "V must be a version number (2 or v2), not '$V'" ;; esac
prefix=PATCH
[ "$RFC" = 1 ] && prefix="RFC $prefix"
[ "$RESEND" = 1 ] && prefix="RESEND $prefix"
[ "$ver" -gt 1 ] && prefix="$prefix v$ver"

"$TOP/scripts/series.sh" apply || exit 1
"$TOP/scripts/series.sh" check || exit 1
step "checkpatch --strict"
"$TOP/scripts/checkpatch.sh" || die "checkpatch --strict found problems: not sending"
key=$("$TOP/scripts/series.sh" hash) || exit 1
stamp=$CACHE/prefix-check/$key-perf.ok
if [ -f "$stamp" ]; then
	step "prefix check passed on this series: $(tr '\n' ' ' <"$stamp")"
else
	step "no prefix check has passed on this exact series ($key): running it now"
	"$TOP/scripts/prefix-check.sh" perf || die "the prefix check failed: not sending"
fi

out=$BUILD/send
rm -rf "$out"
mkdir -p "$out"
n=$(git -C "$WORK" rev-list --count base..HEAD)
"$TOP/scripts/series.sh" format "$out" "$prefix" || exit 1
"$TOP/scripts/cover-letter.sh" "$out/0000-cover-letter.patch" "$prefix" "$ver" || exit 1

# re-sign: the author line and Signed-off-by of the team become the sender's
team=$(git -C "$WORK" log -1 --format='%an <%ae>' base..HEAD)
if [ "$sender" = "$team" ]; then
	[ "$SEND" = 1 ] && die "the sender is the team identity ($team): a real send needs your own (git config user.name/user.email)"
	warn "the sender is the team identity ($team): fine for a dry run, not for SEND=1"
fi
for f in "$out"/*.patch; do
	awk -v team="$team" -v me="$sender" '
		function flush() {	# a header, unfolded: the From of the team becomes me
			if (h == "") return
			if (h == "From: " team) print "From: " me; else printf "%s", raw
			h = raw = ""
		}
		BEGIN { hdr = 1 }
		hdr && /^[ \t]/ { h = h $0; raw = raw $0 "\n"; next }
		hdr { flush() }
		hdr && $0 == "" { hdr = 0; print; next }
		hdr { h = $0; raw = $0 "\n"; next }
		$0 == "Signed-off-by: " team { if (!signed++) print "Signed-off-by: " me; next }
		$0 == "Signed-off-by: " me { if (signed++) next }
		{ print }' "$f" >"$f.new" && mv "$f.new" "$f"
done

# recipients, from the base tree's MAINTAINERS
gm=$SRC/scripts/get_maintainer.pl
[ -f "$gm" ] || die "no $gm in the base tree"
lists="linux-mm@kvack.org linux-kernel@vger.kernel.org"
: >"$out/.to-all"; : >"$out/.cc-all"
for f in "$out"/[0-9]*.patch; do
	[ "$(basename "$f")" = 0000-cover-letter.patch ] && continue
	r=$(cd "$SRC" && perl "$gm" --no-git --no-git-fallback --rolestats "$f" 2>/dev/null) ||
		die "get_maintainer.pl failed on $(basename "$f")"
	to=$(printf '%s\n' "$r" | sed -n 's/ (maintainer:.*//p')
	cc=$( { printf '%s\n' "$r" | grep -v ' (maintainer:' | sed 's/ (.*//'
		printf '%s\n' $lists; } | awk 'NF && !seen[$0]++')
	printf '%s\n' "$to" >>"$out/.to-all"
	printf '%s\n' "$cc" >>"$out/.cc-all"
	"$TOP/scripts/mail-headers.sh" "$f" "$to" "$cc" || exit 1
done
to=$(awk 'NF && !seen[$0]++' "$out/.to-all")
cc=$(awk -v to="$out/.to-all" 'BEGIN { while ((getline l < to) > 0) t[l] = 1 }
	NF && !t[$0] && !seen[$0]++' "$out/.cc-all")
"$TOP/scripts/mail-headers.sh" "$out/0000-cover-letter.patch" "$to" "$cc" || exit 1
rm -f "$out/.to-all" "$out/.cc-all"

mode=--dry-run
[ "$SEND" = 1 ] && mode=
step "git send-email ${mode:-(REAL SEND)}: $((n + 1)) mails [$prefix 0/$n..$n/$n] from $sender"
# shellcheck disable=SC2086
git -C "$TOP" send-email $mode --from="$sender" --confirm=never --no-annotate \
	--suppress-cc=self --no-chain-reply-to --thread --8bit-encoding=UTF-8 \
	$SEND_OPTS "$out"/*.patch </dev/null || die "git send-email failed"
if [ "$SEND" = 1 ]; then
	keep=$TOP/patches/sent/v$ver
	rm -rf "$keep" && mkdir -p "$keep"
	cp "$TOP/patches/series" "$TOP"/patches/[0-9]*.patch "$keep/"
	rm -f "$keep/0000-cover-letter.patch"
	step "sent; patches/sent/v$ver keeps this version for the next one's range-diff: commit it"
else
	step "dry run: nothing was sent (SEND=1 sends; mails are in ${out#"$TOP"/}/)"
fi
