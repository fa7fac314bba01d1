// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where swap-out and fork spend their time in a guest: a diagnostic for
 * reading swap_batch's numbers, not a test (it asserts only its data).
 *
 *   cost-split [ROUNDS] [MIB]     (default 3 rounds of 256 MiB)
 *
 * Per round, with the guest's mTHP setting (make vm-run: MTHP=64K always):
 *   pageout-pattern  MADV_PAGEOUT of pages that zram must compress (the
 *                    same kind of pattern as swap_batch: a word per page
 *                    and the word's index)
 *   pageout-same     MADV_PAGEOUT of pages filled with one word each, which
 *                    zram stores without compressing: the swap-out path
 *                    without the compressor
 *   fork-swapped     fork() with the same-filled region swapped out
 *   fork-empty       fork() of the same process without the region
 *   munmap-shared    munmap() of the same-filled region swapped out, in the
 *                    parent, while a forked child shares it (swap_batch's
 *                    munmap-shared: every swap count drops from 2 to 1)
 *   munmap-none      munmap() of a region as large whose page tables are
 *                    in place but hold no entries (faulted in, then
 *                    MADV_DONTNEED): the walk and the teardown without the
 *                    swap entries
 * Every page is read back and checked (the child checks the shared region
 * after the parent's munmap); swap use must grow by the region.
 *
 *   cost-split ROUNDS MIB munmap  runs the munmap rows only.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

static size_t len;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static long swap_used_kb(void)
{
	char line[128];
	long total = -1, free_kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "SwapTotal: %ld", &total);
		sscanf(line, "SwapFree: %ld", &free_kb);
	}
	fclose(f);
	return total < 0 || free_kb < 0 ? -1 : total - free_kb;
}

static char *map(void)
{
	size_t a = 2UL << 20;
	char *raw = mmap(NULL, len + a, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), *m;

	if (raw == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	m = (char *)(((uintptr_t)raw + a - 1) & ~(uintptr_t)(a - 1));
	madvise(m, len, MADV_HUGEPAGE);
	return m;
}

static uint64_t word(int same, uint64_t seed, size_t i)
{
	uint64_t tag = (seed << 48) ^ ((uint64_t)(i / 512) << 20) ^
		       0x5a5a000000000000ULL;

	return same ? tag : tag | (uint32_t)i;
}

static void fill(char *m, int same, uint64_t seed)
{
	uint64_t *w = (uint64_t *)m;
	size_t i;

	for (i = 0; i < len / 8; i++)
		w[i] = word(same, seed, i);
}

static int check(const char *m, int same, uint64_t seed)
{
	const uint64_t *w = (const uint64_t *)m;
	size_t i;

	for (i = 0; i < len / 8; i++)
		if (w[i] != word(same, seed, i))
			return -1;
	return 0;
}

static double time_fork(void)
{
	double t0, t1;
	int status;
	pid_t pid;

	t0 = now_ms();
	pid = fork();
	if (!pid)
		_exit(0);
	t1 = now_ms();
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		perror("fork");
		exit(2);
	}
	return t1 - t0;
}

static void swap_out(char *m, const char *name)
{
	long before = swap_used_kb(), after;

	madvise(m, len, MADV_PAGEOUT);
	after = swap_used_kb();
	if (after - before < (long)(len >> 10)) {
		printf("cost-split: FAIL %s: swap grew by %ld of %zu kB\n",
		       name, after - before, len >> 10);
		exit(1);
	}
}

/*
 * munmap() in the parent while a child shares the swapped-out region; the
 * child checks the region once the parent has unmapped it.
 */
static double time_munmap_shared(char *m, uint64_t seed)
{
	int go[2], status;
	double t0, t1;
	char c = 0;
	pid_t pid;

	if (pipe(go)) {
		perror("pipe");
		exit(2);
	}
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (!pid) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		_exit(check(m, 1, seed) ? 1 : 0);
	}
	close(go[0]);
	t0 = now_ms();
	munmap(m, len);
	t1 = now_ms();
	if (write(go[1], &c, 1) != 1 || waitpid(pid, &status, 0) != pid) {
		perror("munmap-shared child");
		exit(2);
	}
	close(go[1]);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		printf("cost-split: FAIL munmap-shared: the child read back wrong data\n");
		exit(1);
	}
	return t1 - t0;
}

static void munmap_rows(int r)
{
	char *m = map();
	double t0, t1;

	fill(m, 1, r);
	swap_out(m, "munmap-shared");
	printf("cost-split: metric=munmap-shared round=%d ms=%.3f\n", r,
	       time_munmap_shared(m, r));

	m = map();
	fill(m, 1, r);
	if (check(m, 1, r)) {
		printf("cost-split: FAIL munmap-none: data differs\n");
		exit(1);
	}
	madvise(m, len, MADV_DONTNEED);
	t0 = now_ms();
	munmap(m, len);
	t1 = now_ms();
	printf("cost-split: metric=munmap-none round=%d ms=%.3f\n", r, t1 - t0);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 3;
	int only_munmap = argc > 3 && !strcmp(argv[3], "munmap");
	int r, same;

	if (argc > 3 && !only_munmap) {
		fprintf(stderr, "usage: cost-split [ROUNDS [MIB [munmap]]]\n");
		return 2;
	}
	len = (size_t)(argc > 2 ? atoi(argv[2]) : 256) << 20;
	for (r = 1; r <= rounds; r++) {
		if (only_munmap) {
			munmap_rows(r);
			continue;
		}
		for (same = 0; same < 2; same++) {
			const char *name = same ? "same" : "pattern";
			char *m = map();
			long before = swap_used_kb(), after;
			double t0, t1;

			fill(m, same, r);
			t0 = now_ms();
			madvise(m, len, MADV_PAGEOUT);
			t1 = now_ms();
			after = swap_used_kb();
			if (after - before < (long)(len >> 10)) {
				printf("cost-split: FAIL pageout-%s: swap grew by %ld of %zu kB\n",
				       name, after - before, len >> 10);
				return 1;
			}
			printf("cost-split: metric=pageout-%s round=%d ms=%.3f\n",
			       name, r, t1 - t0);
			if (same)
				printf("cost-split: metric=fork-swapped round=%d ms=%.3f\n",
				       r, time_fork());
			if (check(m, same, r)) {
				printf("cost-split: FAIL pageout-%s: data read back differs\n",
				       name);
				return 1;
			}
			munmap(m, len);
		}
		printf("cost-split: metric=fork-empty round=%d ms=%.3f\n", r,
		       time_fork());
		/* after the older rows, which keep their conditions */
		munmap_rows(r);
	}
	printf("cost-split: ok\n");
	return 0;
}
