// SPDX-License-Identifier: GPL-2.0
/*
 * swap-hibernate: hibernation's image goes to swap, next to swapped-out
 * mTHP data. Map a region of 64 KiB folios (and one of 4 KiB pages), page
 * half of each out and assert that the large folios went out whole, then
 * hibernate with test_resume (the image is written to swap and read back
 * in the same boot, /sys/power/disk), then verify every byte, free the
 * regions and assert that swap usage returns to where it started: the
 * image's entries and the regions' are all given back.
 *
 * usage: swap-hibernate [-m MIB]   (MIB: each region, default 16)
 * Output: TAP. Needs root, CONFIG_HIBERNATION and a swap device that is
 * on; a kernel without hibernation fails (make test asks for it).
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

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif
#define PG 4096UL
#define FOLIO (64UL << 10)
#define THP64 "/sys/kernel/mm/transparent_hugepage/hugepages-64kB"

static int ncase, nfail;

static void tap(int ok, const char *what, const char *why)
{
	nfail += !ok;
	printf("%sok %d %s%s%s\n", ok ? "" : "not ", ++ncase, what,
	       ok ? "" : ": ", ok ? "" : why);
	fflush(stdout);
}

static long read_long(const char *path, const char *key)
{
	char line[256];
	long val = -1;
	size_t klen = key ? strlen(key) : 0;
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (!key) {
			val = strtol(line, NULL, 10);
			break;
		}
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			val = strtol(line + klen + 1, NULL, 10);
			break;
		}
	}
	if (f)
		fclose(f);
	return val;
}

static long swap_used_kb(void)
{
	return read_long("/proc/meminfo", "SwapTotal") -
	       read_long("/proc/meminfo", "SwapFree");
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t len = strlen(s), ret;

	if (fd < 0)
		return -errno;
	ret = write(fd, s, len);
	ret = ret == len ? 0 : -(ret < 0 ? errno : EIO);
	close(fd);
	return ret;
}

static uint64_t word(uint64_t seed, size_t i)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ULL + i;

	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ULL;
	return x ^ (x >> 29);
}

static void fill(uint64_t *w, size_t len, uint64_t seed)
{
	size_t i;

	for (i = 0; i < len / 8; i++)
		w[i] = word(seed, i);
}

static long verify(const uint64_t *w, size_t len, uint64_t seed)
{
	size_t i;

	for (i = 0; i < len / 8; i++)
		if (w[i] != word(seed, i))
			return i * 8;
	return -1;
}

/* Pages of [mem, mem + len) whose pagemap entry says swapped. */
static long nr_swapped(const char *mem, size_t len)
{
	int fd = open("/proc/self/pagemap", O_RDONLY);
	long n = 0;
	uint64_t e;
	size_t i;

	if (fd < 0)
		return -1;
	for (i = 0; i < len / PG; i++) {
		if (pread(fd, &e, 8, ((uintptr_t)mem / PG + i) * 8) != 8) {
			n = -1;
			break;
		}
		n += !!(e & (1ULL << 62));
	}
	close(fd);
	return n;
}

/* Map @len aligned to @align; MADV_HUGEPAGE for large folios. */
static char *map_region(size_t len, size_t align)
{
	char *raw = mmap(NULL, len + align, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *mem;

	if (raw == MAP_FAILED)
		return NULL;
	mem = (char *)(((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1));
	madvise(mem, len, align > PG ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	return mem;
}

int main(int argc, char **argv)
{
	size_t len = 16UL << 20;
	long before, after, out0, out1, bad;
	char *large, *small, why[160];
	int opt, ret, i;

	while ((opt = getopt(argc, argv, "m:")) != -1) {
		if (opt != 'm' || atol(optarg) < 1) {
			fprintf(stderr, "usage: %s [-m MIB]\n", argv[0]);
			return 1;
		}
		len = (size_t)atol(optarg) << 20;
	}
	printf("TAP version 13\n1..4\n");
	if (read_long("/proc/meminfo", "SwapTotal") <= 0 ||
	    access("/sys/power/disk", W_OK)) {
		for (i = 0; i < 4; i++)
			tap(0, "hibernation to swap", "no swap, or no /sys/power/disk (CONFIG_HIBERNATION?)");
		return 1;
	}
	before = swap_used_kb();
	out0 = read_long(THP64 "/stats/swpout", NULL);
	large = map_region(len, FOLIO);
	small = map_region(len, PG);
	if (!large || !small) {
		printf("Bail out! mmap failed\n");
		return 1;
	}
	fill((uint64_t *)large, len, 1);
	fill((uint64_t *)small, len, 2);
	madvise(large, len / 2, MADV_PAGEOUT);
	madvise(small, len / 2, MADV_PAGEOUT);
	out1 = read_long(THP64 "/stats/swpout", NULL);
	snprintf(why, sizeof(why), "%ld and %ld of %zu pages swapped, %ld 64K folios out whole",
		 nr_swapped(large, len / 2), nr_swapped(small, len / 2),
		 len / 2 / PG, out1 - out0);
	tap(nr_swapped(large, len / 2) == (long)(len / 2 / PG) &&
	    nr_swapped(small, len / 2) == (long)(len / 2 / PG) &&
	    (out0 < 0 || out1 > out0), "half of each region swapped out, 64K folios whole", why);

	/* the smallest image: reclaim swaps out what it can first */
	write_str("/sys/power/image_size", "0");
	ret = write_str("/sys/power/disk", "test_resume");
	if (!ret)
		ret = write_str("/sys/power/state", "disk");
	snprintf(why, sizeof(why), "%s", strerror(-ret));
	tap(!ret, "hibernation image written to swap and restored (test_resume)", why);

	bad = verify((uint64_t *)large, len, 1);
	if (bad < 0)
		bad = verify((uint64_t *)small, len, 2);
	snprintf(why, sizeof(why), "data differs at offset %ld", bad);
	tap(bad < 0, "every byte of both regions verifies after resume", why);

	munmap(large, len + FOLIO);
	munmap(small, len + PG);
	/*
	 * The image's entries are freed when the image is read back; the
	 * regions' at munmap. Freed entries can wait in the per-CPU swap slot
	 * caches (64 a CPU, allocated and freed): allowed, and nothing more.
	 */
	for (i = 0; i < 300; i++) {
		after = swap_used_kb();
		if (after <= before + 2 * 64 * sysconf(_SC_NPROCESSORS_ONLN) * 4)
			break;
		usleep(10000);
	}
	snprintf(why, sizeof(why), "swap used %ld kB before, %ld kB after", before, after);
	tap(after <= before + 2 * 64 * sysconf(_SC_NPROCESSORS_ONLN) * 4,
	    "swap usage returns after resume and munmap", why);
	printf("# swap used %ld kB before, %ld kB after\n", before, after);
	return nfail ? 1 : 0;
}
