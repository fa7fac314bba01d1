// SPDX-License-Identifier: GPL-2.0
/*
 * swapon-prio: swap on each DEVICE at priority PRIO, turning it off first
 * when it is on. busybox's swapon has no -p; guest/init uses this for
 * SWAP_PAIR (two devices at one priority: allocations alternate).
 *
 * usage: swapon-prio PRIO DEVICE...
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/swap.h>

int main(int argc, char **argv)
{
	char *end;
	long prio = argc > 2 ? strtol(argv[1], &end, 0) : -1;
	int i;

	if (argc < 3 || *end || prio < 0 || prio > SWAP_FLAG_PRIO_MASK) {
		fprintf(stderr, "usage: %s PRIO DEVICE... (PRIO 0 to %d)\n",
			argv[0], SWAP_FLAG_PRIO_MASK);
		return 2;
	}
	for (i = 2; i < argc; i++) {
		if (swapoff(argv[i]) && errno != EINVAL) {
			fprintf(stderr, "swapoff %s: %s\n", argv[i], strerror(errno));
			return 1;
		}
		if (swapon(argv[i], SWAP_FLAG_PREFER | (int)prio)) {
			fprintf(stderr, "swapon %s at priority %ld: %s\n",
				argv[i], prio, strerror(errno));
			return 1;
		}
	}
	return 0;
}
