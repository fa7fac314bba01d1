#!/bin/sh
# The patch queue: patches/series <-> commits base..work in $WORK.
# usage: series.sh apply   apply patches/series onto base in $WORK (git am)
#        series.sh export  write the commits base..work back to patches/,
#                          with the cover letter (scripts/cover-letter.sh)
#        series.sh check   patches/ and $WORK agree (no diff on export)
#        series.sh cover   write only patches/0000-cover-letter.patch
#        series.sh hash [DIR]  print a hash of the series (names and
#                          contents) in DIR (default patches/)
#        series.sh format DIR PREFIX   the mails of base..work, for sending
#        series.sh notes FILE  print the notes below a patch's "---" line
# FORCE=1 apply discards work-tree commits that were never exported;
# ALLOW_DIRTY=1 builds uncommitted changes as they are (experiments).
# Notes for reviewers that do not belong in the commit (checkpatch's
# warnings and why they stay) are git notes on the work commits: export
# writes them below each patch's "---" line, apply reads them back.
. "$(dirname "$0")/lib.sh"
need git
PATCHES=$TOP/patches
SERIES=$PATCHES/series
COVER=0000-cover-letter.patch

list_series() {	# patch file names in order, comments and blanks dropped
	[ -f "$SERIES" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$SERIES" | grep -v '^$'
}

ensure_work() {
	"$TOP/scripts/base-tree.sh" || exit 1
	top=$(git -C "$WORK" rev-parse --show-toplevel 2>/dev/null)
	if [ "$top" != "$(cd "$WORK" 2>/dev/null && pwd -P)" ] || [ -z "$top" ]; then
		rm -rf "$WORK"
		git -C "$SRC" worktree prune
		git -C "$SRC" worktree add -q -f -B work "$WORK" base ||
			die "cannot create work tree $WORK"
	fi
}

# format-patch base..work into $1, deterministic: no hash, no version
# trailer, and none of the user's diff/format settings; $2: subject prefix
format_into() {
	git -C "$WORK" -c core.abbrev=12 -c diff.noprefix=false \
		-c core.notesRef=refs/notes/commits \
		-c diff.mnemonicPrefix=false -c diff.algorithm=myers \
		-c diff.renames=true -c diff.relative=false -c format.signOff=false \
		-c format.numbered=auto -c format.coverLetter=false \
		-c format.thread=false \
		format-patch -q --zero-commit --no-signature --notes --no-to --no-cc \
		--subject-prefix="${2:-PATCH}" -o "$1" base..HEAD >/dev/null ||
		die "git format-patch failed"
}

# The notes of a patch file: the indented block that format-patch writes
# after "---", a blank line and "Notes:", unindented (nothing: no notes).
notes_of() {
	awk '!s { if ($0 == "---") s = 1; next }
	     s == 1 { s = 2; if ($0 != "") exit; next }
	     s == 2 { if ($0 != "Notes:") exit; s = 3; next }
	     $0 == "" { exit }
	     { sub(/^    /, ""); print }' "$1"
}

# uncommitted changes in $WORK, untracked files included (nothing: clean)
dirty() {
	git -C "$WORK" status --porcelain --untracked-files=normal 2>/dev/null | head -n 5
}

# Write $1/series from the files in $1, keeping the comment headings of the
# old series in front of the patch (by name sans number) they preceded.
write_series() {
	(cd "$1" && ls [0-9][0-9][0-9][0-9]-*.patch 2>/dev/null) | grep -v "^$COVER\$" |
	awk -v old="$SERIES" '
		BEGIN {
			hdr = 1
			while ((getline l < old) > 0) {
				if (l ~ /^[[:space:]]*(#|$)/) { blk = blk l "\n"; continue }
				n = l; sub(/[[:space:]].*/, "", n); sub(/^[0-9]+-/, "", n)
				if (hdr) head = blk; else before[n] = blk
				hdr = 0; blk = ""
			}
			if (hdr) head = blk; else tail = blk
			printf "%s", head
		}
		{ n = $0; sub(/^[0-9]+-/, "", n); printf "%s%s\n", before[n], $0 }
		END { printf "%s", tail }
	' >"$1/series"
}

cmd_export() {
	ensure_work
	[ -z "$(dirty)" ] ||
		warn "uncommitted changes in $WORK are not exported (commit them; new files: git add -f):
$(dirty)"
	if [ "$(git -C "$WORK" rev-list --count base..HEAD)" = 0 ] &&
	   [ -n "$(list_series)" ] && [ "$FORCE" != 1 ]; then
		die "$WORK has no commits but patches/series lists patches: refusing to empty patches/ (make apply first; FORCE=1 to empty it)"
	fi
	tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
	format_into "$tmp"
	write_series "$tmp"
	"$TOP/scripts/cover-letter.sh" "$tmp/$COVER" || exit 1
	mkdir -p "$PATCHES"
	rm -f "$PATCHES"/[0-9][0-9][0-9][0-9]-*.patch
	for f in "$tmp"/*; do
		[ -e "$f" ] && cp "$f" "$PATCHES/"
	done
	step "exported $(list_series | wc -l) patch(es) to patches/"
}

# 0 when exporting $WORK now would change nothing in patches/; the cover
# letter counts only with --with-cover (new results change just that)
agrees() {
	tmp=$(mktemp -d)
	format_into "$tmp"
	write_series "$tmp"
	if [ "$1" = --with-cover ]; then
		"$TOP/scripts/cover-letter.sh" "$tmp/$COVER" || exit 1
	fi
	: >"$tmp/.diff"
	for f in "$tmp"/series "$tmp"/[0-9]*.patch "$PATCHES"/[0-9]*.patch; do
		[ -e "$f" ] || continue
		b=$(basename "$f")
		[ "$b" = "$COVER" ] && [ "$1" != --with-cover ] && continue
		cmp -s "$tmp/$b" "$PATCHES/$b" || echo "$b" >>"$tmp/.diff"
	done
	sort -u "$tmp/.diff" >"$tmp/.d2"
	ok=0
	[ -s "$tmp/.d2" ] && { sed 's/^/  differs: /' "$tmp/.d2" >&2; ok=1; }
	rm -rf "$tmp"
	return $ok
}

cmd_check() {
	ensure_work
	agrees --with-cover || die "patches/ and $WORK disagree (make export, or make apply FORCE=1)"
	msg "patches/ and the work tree agree ($(list_series | wc -l) patches)"
}

cmd_apply() {
	ensure_work
	if [ -n "$(dirty)" ] && [ "$FORCE" != 1 ]; then
		if [ "$ALLOW_DIRTY" = 1 ]; then
			warn "building $WORK with uncommitted changes (ALLOW_DIRTY=1)"
			agrees || die "ALLOW_DIRTY=1 needs the committed series to match patches/"
			return 0
		fi
		die "uncommitted changes in $WORK (commit and export; ALLOW_DIRTY=1 to build them as they are; FORCE=1 to drop them):
$(dirty)"
	fi
	if [ "$(git -C "$WORK" rev-list --count base..HEAD)" != 0 ] ||
	   [ -n "$(list_series)" ]; then
		agrees 2>"$CACHE/.series-diff" && { msg "series already applied in $WORK"; return 0; }
		[ "$(git -C "$WORK" rev-list --count base..HEAD)" = 0 ] || [ "$FORCE" = 1 ] ||
			{ cat "$CACHE/.series-diff" >&2
			  die "$WORK has commits that differ from patches/ (make export to keep them, FORCE=1 to drop them)"; }
	fi
	git -C "$WORK" am --abort >/dev/null 2>&1
	git -C "$WORK" reset -q --hard base || die "git reset in $WORK failed"
	git -C "$WORK" clean -q -fd || die "git clean in $WORK failed"
	n=0
	for p in $(list_series); do
		[ -f "$PATCHES/$p" ] || die "patches/series names $p, which does not exist"
		if ! out=$(git -C "$WORK" -c user.name="${GIT_AUTHOR_NAME:-series}" \
			-c user.email="${GIT_AUTHOR_EMAIL:-series@localhost}" \
			am -q --committer-date-is-author-date "$PATCHES/$p" 2>&1); then
			git -C "$WORK" am --abort >/dev/null 2>&1
			printf '%s\n' "$out" | grep -E '^(error|Patch failed|fatal)' | head -n 5 >&2
			files=$(printf '%s\n' "$out" | sed -n 's/^error: patch failed: \(.*\):[0-9]*$/\1/p' |
				sort -u | tr '\n' ' ')
			die "patch $p does not apply on $(cat "$SRC/.git/base-version")${files:+ (conflicting file: $files)}"
		fi
		notes_of "$PATCHES/$p" >"$CACHE/.series-notes"
		if [ -s "$CACHE/.series-notes" ]; then
			git -C "$WORK" -c user.name="${GIT_AUTHOR_NAME:-series}" \
				-c user.email="${GIT_AUTHOR_EMAIL:-series@localhost}" \
				notes --ref=refs/notes/commits add -f \
				-F "$CACHE/.series-notes" HEAD >/dev/null 2>&1 ||
				die "cannot attach the notes of $p to its commit in $WORK"
		fi
		n=$((n + 1))
	done
	step "applied $n patch(es) onto base in $WORK"
}

cmd_cover() {
	ensure_work
	agrees || die "patches/ and $WORK disagree: make apply (or export) first"
	"$TOP/scripts/cover-letter.sh" "$PATCHES/$COVER" || exit 1
	step "wrote patches/$COVER"
}

cmd_hash() {
	need sha256sum
	d=${1:-$PATCHES}
	{ SERIES="$d/series" list_series
	  for p in $(SERIES="$d/series" list_series); do cat "$d/$p"; done; } |
		sha256sum | cut -c1-16
}

# The same over the code only: each patch from its first "---" line on
# (diffstat and diff) without its notes, so that a changelog or note
# edit keeps it. DIR: another copy of patches/ (default patches/).
cmd_code_hash() {
	need sha256sum
	d=${1:-$PATCHES}
	for p in $(SERIES="$d/series" list_series); do
		[ -f "$d/$p" ] || die "$d/series names $p, which does not exist"
		awk '!s { if ($0 == "---") { s = 1; print }; next }
		     s == 1 { s = 2; if ($0 == "") { n = 1; next } }
		     n == 1 { if ($0 == "Notes:") { n = 2; next }; print ""; n = 0 }
		     n == 2 { if ($0 == "") n = 0; next }
		     { print }' "$d/$p"
	done | sha256sum | cut -c1-16
}

case $1 in
apply) cmd_apply ;;
export) cmd_export ;;
check) cmd_check ;;
cover) cmd_cover ;;
hash) cmd_hash "$2" ;;
code-hash) cmd_code_hash "$2" ;;
notes) [ -f "$2" ] || die "usage: $0 notes PATCHFILE"; notes_of "$2" ;;
format) [ -d "$2" ] || die "usage: $0 format DIR PREFIX"; format_into "$2" "$3" ;;
*) die "usage: $0 apply|export|check|cover|hash|code-hash [DIR]|format|notes FILE" ;;
esac
