// SPDX-License-Identifier: GPL-2.0
/*
 * swap-onoff: swapoff and swapon of the guest's swap device, without
 * discard and with each discard policy (swapon(2) flags: none, both, once,
 * pages), each time with data swapped out and half of it freed just
 * before the swapoff (so that discards are queued or in flight), and the
 * other half read back after it. A swapoff that oopses, hangs or loses
 * data fails; the harness fails any kernel splat.
 *
 * usage: swap-onoff [-d DEVICE] [-m MIB]
 *   DEVICE: a swap device or file that is on (default: the first in
 *   /proc/swaps); MIB: the region swapped out each time (default 32).
 * Output: TAP, one case per policy.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/swap.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif
#ifndef SWAP_FLAG_DISCARD_ONCE
#define SWAP_FLAG_DISCARD_ONCE 0x20000
#define SWAP_FLAG_DISCARD_PAGES 0x40000
#endif
#define PG 4096UL

static const struct policy {
	const char *name;
	int flags;
} policies[] = {
	{ "none", 0 },
	{ "once+pages", SWAP_FLAG_DISCARD },
	{ "once", SWAP_FLAG_DISCARD | SWAP_FLAG_DISCARD_ONCE },
	{ "pages", SWAP_FLAG_DISCARD | SWAP_FLAG_DISCARD_PAGES },
};

static int ncase, nfail;

static void tap(long swapped, const char *dev, const char *policy,
		const char *why)
{
	nfail += swapped <= 0;
	printf("%sok %d swapoff and swapon of %s with discard=%s, data swapped out across it",
	       swapped > 0 ? "" : "not ", ++ncase, dev, policy);
	if (swapped > 0)
		printf(" (%ld pages)\n", swapped);
	else
		printf(": %s\n", why);
	fflush(stdout);
}

static uint64_t word(size_t i)
{
	uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ULL;

	return x ^ (x >> 29);
}

/* pages of [mem, mem + len) whose pagemap entry says swapped */
static long nr_swapped(const char *mem, size_t len)
{
	int fd = open("/proc/self/pagemap", O_RDONLY);
	long n = 0;
	size_t i;

	if (fd < 0)
		return -1;
	for (i = 0; i < len / PG; i++) {
		uint64_t e;
		off_t off = ((uintptr_t)mem / PG + i) * sizeof(e);

		if (pread(fd, &e, sizeof(e), off) != sizeof(e)) {
			n = -1;
			break;
		}
		n += !!(e & (1ULL << 62));
	}
	close(fd);
	return n;
}

static int first_swap(char *dev, size_t len)
{
	char line[512];
	FILE *f = fopen("/proc/swaps", "r");
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f))
		found = line[0] == '/' && sscanf(line, "%255s", dev) == 1;
	if (f)
		fclose(f);
	(void)len;
	return found ? 0 : -1;
}

/*
 * One round: swapon with @flags, swap out @len bytes, free the first
 * half, swapoff (the second half comes back), check it. Returns the pages
 * swapped out, or -1 with @why set.
 */
static long round_trip(const char *dev, int flags, size_t len, char *why,
		       size_t wlen)
{
	size_t i, n = len / sizeof(uint64_t), half = len / 2;
	uint64_t *mem;
	long swapped;

	if (swapon(dev, flags)) {
		snprintf(why, wlen, "swapon: %s", strerror(errno));
		return -1;
	}
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		snprintf(why, wlen, "mmap: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++)
		mem[i] = word(i);
	madvise(mem, len, MADV_PAGEOUT);
	swapped = nr_swapped((char *)mem, len);
	/* the freed half goes to the discard list (discard=pages) */
	munmap(mem, half);
	if (swapoff(dev)) {
		snprintf(why, wlen, "swapoff: %s", strerror(errno));
		munmap((char *)mem + half, len - half);
		return -1;
	}
	for (i = half / sizeof(uint64_t); i < n; i++)
		if (mem[i] != word(i)) {
			snprintf(why, wlen, "word %zu of %zu read back wrong after swapoff",
				 i, n);
			swapped = -1;
			break;
		}
	munmap((char *)mem + half, len - half);
	if (swapped == 0 && !why[0])
		snprintf(why, wlen, "MADV_PAGEOUT swapped nothing out");
	return swapped > 0 ? swapped : -1;
}

int main(int argc, char **argv)
{
	char dev[256] = "", why[256];
	size_t mib = 32;
	unsigned int i;
	int opt;

	while ((opt = getopt(argc, argv, "d:m:")) != -1) {
		switch (opt) {
		case 'd':
			snprintf(dev, sizeof(dev), "%s", optarg);
			break;
		case 'm':
			mib = strtoul(optarg, NULL, 0);
			if (mib)
				break;
			/* fall through */
		default:
			fprintf(stderr, "usage: swap-onoff [-d DEVICE] [-m MIB (> 0)]\n");
			return 2;
		}
	}
	printf("TAP version 13\n1..%zu\n", sizeof(policies) / sizeof(policies[0]));
	if (!dev[0] && first_swap(dev, sizeof(dev))) {
		printf("# no swap device is on\n");
		for (i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
			printf("ok %u # SKIP no swap device\n", i + 1);
		return 4;
	}
	printf("# swap-onoff: %s, %zu MiB a round\n", dev, mib);
	if (swapoff(dev)) {
		printf("Bail out! swapoff %s: %s\n", dev, strerror(errno));
		return 1;
	}
	for (i = 0; i < sizeof(policies) / sizeof(policies[0]); i++) {
		long n;

		why[0] = 0;
		n = round_trip(dev, policies[i].flags, mib << 20, why, sizeof(why));
		tap(n, dev, policies[i].name, why);
		if (n < 0 && !strncmp(why, "swapon", 6))
			break;
	}
	/* leave it on, as it was (without discard) */
	if (swapon(dev, 0))
		printf("# swapon %s at the end: %s\n", dev, strerror(errno));
	return nfail ? 1 : 0;
}
