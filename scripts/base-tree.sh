#!/bin/sh
# Make $CACHE/linux a git tree of the base kernel, tagged "base".
#   default:           Debian's linux-source-6.12 at the version in base/pin,
#                      checksum-verified (BASE_STRICT=1: no fallback version)
#   BASE_TREE=/path:   a user's kernel git tree (BASE_REF, default HEAD),
#                      cloned with --shared; their checkout is never touched
# Reuses the cache when it was made from the same base.
. "$(dirname "$0")/lib.sh"
need git tar xz sha256sum

PIN=$TOP/base/pin
pkg=$(kv "$PIN" package)
pin_ver=$(kv "$PIN" version)
pin_sum=$(kv "$PIN" sha256)
DEB=$CACHE/deb

commit_tree() {	# $1: ident, $2: message
	git -C "$SRC" init -q -b base-src
	git -C "$SRC" config core.autocrlf false
	git -C "$SRC" config gc.auto 0
	git -C "$SRC" add -A -f .
	GIT_AUTHOR_NAME=base GIT_AUTHOR_EMAIL=base@localhost \
	GIT_COMMITTER_NAME=base GIT_COMMITTER_EMAIL=base@localhost \
	GIT_AUTHOR_DATE='2000-01-01T00:00:00Z' GIT_COMMITTER_DATE='2000-01-01T00:00:00Z' \
		git -C "$SRC" commit -q --no-verify -m "$2" || die "git commit of base failed"
	git -C "$SRC" tag -f base >/dev/null
}

# Find the tarball of version $1: installed package or apt-get download.
# Prints its path, or nothing.
find_tarball() {
	inst=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null)
	if [ "$inst" = "$1" ] && [ -f /usr/src/$pkg.tar.xz ]; then
		echo /usr/src/$pkg.tar.xz
		return
	fi
	t=$DEB/$1/usr/src/$pkg.tar.xz
	if [ ! -f "$t" ]; then
		mkdir -p "$DEB/$1"
		(cd "$DEB" && apt-get download -q "$pkg=$1" >/dev/null 2>&1) || return 0
		deb=$(ls "$DEB"/"${pkg}"_*.deb 2>/dev/null | head -n 1)
		[ -n "$deb" ] || return 0
		dpkg-deb -x "$deb" "$DEB/$1" || die "cannot unpack $deb"
		rm -f "$deb"
	fi
	[ -f "$t" ] && echo "$t"
}

# The base is about to be replaced: keep any commits of the work tree.
save_work() {
	[ -d "$WORK" ] || return 0
	n=$(git -C "$WORK" rev-list --count base..HEAD 2>/dev/null) || return 0
	[ "$n" -gt 0 ] || return 0
	keep=$CACHE/saved-work-$(date -u +%Y%m%dT%H%M%SZ)
	git -C "$WORK" format-patch -q -o "$keep" base..HEAD >/dev/null ||
		die "cannot save the work tree's commits; not replacing the base"
	warn "base changes: the work tree's $n commit(s) are saved in $keep"
}

newest_version() {
	apt-cache madison "$pkg" 2>/dev/null | awk -F'|' 'NR==1 { gsub(/ /, "", $2); print $2 }'
}

# --check-newer: only warn when the archive has a newer 6.12 than the pin
if [ "$1" = --check-newer ]; then
	[ -n "$BASE_TREE" ] && exit 0
	new=$(newest_version)
	if [ -n "$new" ] && [ "$new" != "$pin_ver" ] &&
	   dpkg --compare-versions "$new" gt "$pin_ver"; then
		warn "the archive has $pkg $new, newer than the pinned $pin_ver (base/pin);"
		warn "results stay on the pinned base until base/pin is updated"
	fi
	exit 0
fi

if [ -n "$BASE_TREE" ]; then
	[ -d "$BASE_TREE" ] || die "BASE_TREE=$BASE_TREE: no such directory"
	git -C "$BASE_TREE" rev-parse --git-dir >/dev/null 2>&1 ||
		die "BASE_TREE=$BASE_TREE is not a git tree"
	rev=$(git -C "$BASE_TREE" rev-parse --verify -q "${BASE_REF:-HEAD}^{commit}") ||
		die "BASE_TREE=$BASE_TREE has no commit ${BASE_REF:-HEAD}"
	[ -f "$BASE_TREE/mm/swapfile.c" ] ||
		die "BASE_TREE=$BASE_TREE does not look like a Linux tree"
	ident="tree $(cd "$BASE_TREE" && pwd) $rev"
	[ "$(base_ident)" = "$ident" ] && exit 0
	step "cloning base from $BASE_TREE ($rev)"
	save_work
	rm -rf "$SRC" "$WORK"
	git clone -q --shared --no-checkout "$BASE_TREE" "$SRC" || die "clone of $BASE_TREE failed"
	git -C "$SRC" checkout -q --detach "$rev" || die "checkout of $rev failed"
	git -C "$SRC" tag -f base "$rev" >/dev/null
	ver=$(make -s -C "$SRC" kernelversion 2>/dev/null)
	printf '%s\n' "$ident" >"$SRC/.git/base-ident"
	printf 'Linux %s (tree %s, commit %s)\n' "$ver" "$BASE_TREE" "$rev" >"$SRC/.git/base-version"
	exit 0
fi

ident="deb $pkg $pin_ver"
[ "$(base_ident)" = "$ident" ] && exit 0

ver=$pin_ver
tarball=$(find_tarball "$pin_ver")
if [ -z "$tarball" ]; then
	[ "$(id -u)" = 0 ] && apt-get update -qq >/dev/null 2>&1
	tarball=$(find_tarball "$pin_ver")
fi
if [ -n "$tarball" ]; then
	step "verifying $tarball ($pkg $pin_ver)"
	sum=$(sha256sum "$tarball" | cut -d' ' -f1)
	[ "$sum" = "$pin_sum" ] ||
		die "checksum mismatch for $pkg $pin_ver: got $sum, base/pin says $pin_sum"
else
	new=$(newest_version)
	[ -n "$new" ] || die "package $pkg not found in the archive (apt-get update? sources.list?)"
	[ "$BASE_STRICT" = 1 ] &&
		die "pinned $pkg $pin_ver is not available (newest: $new) and BASE_STRICT=1"
	tarball=$(find_tarball "$new")
	[ -n "$tarball" ] || die "cannot download $pkg $new"
	ver=$new
	ident="deb $pkg $new"
	warn "***************************************************************"
	warn "pinned base $pkg $pin_ver is gone from the archive;"
	warn "using $pkg $new instead (unverified: no pinned checksum)."
	warn "Results name this version. BASE_STRICT=1 makes this an error."
	warn "***************************************************************"
	[ "$(base_ident)" = "$ident" ] && exit 0
fi

step "unpacking $tarball into $SRC (a few minutes, once)"
save_work
rm -rf "$SRC" "$WORK" "$SRC.tmp"
mkdir -p "$SRC.tmp"
tar -xJf "$tarball" -C "$SRC.tmp" || die "cannot unpack $tarball"
top=$(ls "$SRC.tmp")
[ "$(printf '%s\n' "$top" | wc -l)" = 1 ] || die "unexpected layout in $tarball"
mv "$SRC.tmp/$top" "$SRC" && rmdir "$SRC.tmp"
step "making a git tree of it (tag base)"
commit_tree "$ident" "base: $pkg $ver"
kver=$(make -s -C "$SRC" kernelversion 2>/dev/null)
printf '%s\n' "$ident" >"$SRC/.git/base-ident"
printf 'Linux %s (Debian %s %s)\n' "$kver" "$pkg" "$ver" >"$SRC/.git/base-version"
