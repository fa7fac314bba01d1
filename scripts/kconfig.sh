#!/bin/sh
# Make the .config of a guest kernel: tinyconfig, then the fragments
#   configs/common.config, configs/$VARIANT.config, configs/arch-$KARCH.config
#   (x86 or arm64: the guest architecture, ARCH; after the variant, so that
#   it can turn off what the architecture lacks), configs/series.config
#   (debug only), $KCONFIG_EXTRA (user), configs/required.config (last, so
#   it wins), then olddefconfig. Every option the merged fragments ask for
#   must survive, but for series.config's options on a tree whose Kconfig
#   does not define them (the base: the series adds them).
# usage: kconfig.sh SRCDIR BUILDDIR VARIANT [--dry-run]
. "$(dirname "$0")/lib.sh"
src=$(realpath -m "$1") out=$(realpath -m "$2") variant=$3
[ -f "$TOP/configs/$variant.config" ] || die "no config variant '$variant' (configs/*.config)"
frags="$TOP/configs/common.config $TOP/configs/$variant.config $TOP/configs/arch-$KARCH.config"
series_frag=$TOP/configs/series.config
[ "$variant" = debug ] && frags="$frags $series_frag"
if [ -n "$KCONFIG_EXTRA" ]; then
	[ -f "$KCONFIG_EXTRA" ] || die "KCONFIG_EXTRA=$KCONFIG_EXTRA: no such file"
	frags="$frags $KCONFIG_EXTRA"
fi
frags="$frags $TOP/configs/required.config"

# Merge: the last fragment that names an option wins.
merged() {
	# shellcheck disable=SC2086
	cat $frags | sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)/\1 \2/p' \
		-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set/\1 n/p' |
	awk '{ if (!($1 in v)) o[n++] = $1; v[$1] = $2 }
	     END { for (i = 0; i < n; i++) print o[i], v[o[i]] }'
}

if [ "$4" = --dry-run ]; then
	echo "# tinyconfig + $(echo "$frags" | sed "s|$TOP/||g")"
	merged | awk '{ if ($2 == "n") print "# " $1 " is not set"; else print $1 "=" $2 }'
	exit 0
fi

mkdir -p "$out"
make -s -C "$src" O="$out" ARCH=$KARCH CROSS_COMPILE=$CROSS tinyconfig \
	>"$out/kconfig.log" 2>&1 ||
	{ tail -n 20 "$out/kconfig.log" >&2; die "make tinyconfig failed"; }
merged | awk '{ if ($2 == "n") print "# " $1 " is not set"; else print $1 "=" $2 }' \
	>"$out/fragment.config"
cat "$out/fragment.config" >>"$out/.config"
make -s -C "$src" O="$out" ARCH=$KARCH CROSS_COMPILE=$CROSS olddefconfig \
	>>"$out/kconfig.log" 2>&1 ||
	{ tail -n 20 "$out/kconfig.log" >&2; die "make olddefconfig failed"; }

bad=0
while read -r opt val; do
	got=$(sed -n "s/^$opt=//p" "$out/.config")
	if [ "$val" = n ]; then
		[ -z "$got" ] || [ "$got" = n ] && continue
		msg "config: $opt should be off but is $got"
	else
		[ "$got" = "$val" ] && continue
		sym=${opt#CONFIG_}
		if [ -z "$got" ] && grep -q "^$opt=" "$series_frag" &&
		   ! grep -rqs --include='Kconfig*' "^\(menu\)\?config $sym\$" "$src"; then
			msg "config: $opt is not in this tree (the series adds it): skipped"
			continue
		fi
		msg "config: $opt=$val was dropped by olddefconfig (got '${got:-not set}')"
	fi
	bad=1
done <<EOT
$(merged)
EOT
[ $bad = 0 ] || die "kernel config for '$variant' lost options (see above): fix the fragment"
