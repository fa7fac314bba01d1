#!/bin/sh
# Scan a guest console log for kernel splats; print them, exit 1 if any.
# usage: splat-scan.sh CONSOLE_LOG
log=$1
[ -f "$log" ] || { echo "splat-scan: no console log $log" >&2; exit 2; }
# Real reports only: KASAN's boot banner ("KernelAddressSanitizer
# initialized") and lockdep's self-test summary are not splats.
pat='BUG:|WARNING:|Oops|kernel BUG at|general protection fault|Kernel panic'
pat="$pat|KASAN:|UBSAN:|possible circular locking|possible recursive locking"
pat="$pat|inconsistent lock state|suspicious RCU usage|INFO: lockdep"
pat="$pat|Bad page|[Bb]ad swap|Unused swap (file|offset) entry|swap_info_get|swap_dup"
pat="$pat|rcu.*detected stalls|self-detected stall|soft lockup|hung_task|blocked for more than"
pat="$pat|list_add corruption|list_del corruption|refcount_t:|page dumped because"
pat="$pat|VM_FAULT_OOM leaked out"
hits=$(grep -n -E "$pat" "$log" | grep -v -E 'guest: running:')
[ -z "$hits" ] && exit 0
echo "kernel splat(s) in $log:" >&2
printf '%s\n' "$hits" | head -n 20 | sed 's/^/  /' >&2
first=$(printf '%s\n' "$hits" | head -n 1 | cut -d: -f1)
echo "--- console from line $first ---" >&2
sed -n "${first},$((first + 40))p" "$log" >&2
exit 1
