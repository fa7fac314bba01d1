# Shared shell helpers; sourced, never run.
# shellcheck shell=sh

TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
CACHE=${CACHE:-$TOP/cache}
BUILD=${BUILD:-$TOP/build}
SRC=$CACHE/linux		# git tree, tag "base"
WORK=$CACHE/work		# git worktree of $SRC, branch "work": base + series

msg() { printf '%s\n' "$*" >&2; }
step() { printf '==> %s\n' "$*" >&2; }
warn() { printf 'WARNING: %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

need() {
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 ||
			die "missing tool '$t' (run 'make deps' as root, or install it)"
	done
}

# Value of key=value in a file (first match).
kv() { sed -n "s/^$2=//p" "$1" | head -n 1; }

# Identity of the base the cache was made from (base/pin or BASE_TREE).
base_ident() { cat "$SRC/.git/base-ident" 2>/dev/null; }

# SWAP, the guest's swap device (guest/init): zram (default), ssd, hdd or
# file. Prints it; dies naming the valid values.
swap_kind() {
	case ${SWAP:-zram} in
	zram | ssd | hdd | file) echo "${SWAP:-zram}" ;;
	*) die "SWAP must be one of zram, ssd, hdd, file (not '$SWAP')" ;;
	esac
}
