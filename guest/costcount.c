// SPDX-License-Identifier: GPL-2.0-only
/*
 * costcount: count the work behind swap_batch's benchmarks, in a guest
 * booted on a kernel built for counting (configs/count.config: lock_stat
 * and the function profiler). Run by scripts/costs.sh.
 *
 *   costcount [-s MIB] [-m KIB]
 *
 * For each case it prepares the region (not counted), clears the counters,
 * runs the one system call that swap_batch times, reads the counters, and
 * prints one line:
 *
 *   costcount: case=fork page=64K size_mib=64 ci_lock=N unmap_one=N
 *              tlb_add=N tlb_flush=N tlb_now=N memcg_id=N
 *
 * ci_lock: acquisitions of the swap cluster locks (lock class
 * "&cluster_info[i].lock", /proc/lock_stat); unmap_one: calls of
 * try_to_unmap_one(); tlb_add: calls of set_tlb_ubc_flush_pending_nr()
 * where the kernel has it, else set_tlb_ubc_flush_pending(), each of which
 * makes one arch_tlbbatch_add_pending() call; tlb_flush: calls of
 * try_to_unmap_flush(), which flushes what was deferred, if anything
 * (try_to_unmap_flush_dirty() calls it too); tlb_now: calls of flush_tlb_mm_range(), the flushes made at
 * once (x86; "na" where the kernel has no such function, as on arm64,
 * whose flush_tlb_page() is inline and whose reclaim always defers);
 * memcg_id: calls that read swap entries' memcg ids from the swap_cgroup
 * map, lookup_swap_cgroup_id() (one entry) and swap_cgroup_id_run() (a
 * run, where the kernel has it).
 * The data is checked after each case; a mismatch prints
 * "costcount: FAIL" and exits 1.
 *
 *   costcount -p TREE [-s MIB] [-m KIB]
 *
 * times instead of counting, on a kernel built for profiling
 * (configs/prof.config: the function profiler with the function graph
 * tracer; make profile). TREE (guest/profile.tree) names, per case, the
 * functions to time as a call tree ("case depth function"). Each case runs
 * twice: first with its top function alone in the profiler's filter (the
 * call's time with the least tracing), then with the whole tree. Per
 * function it prints
 *
 *   costprof: case=pageout page=64K size_mib=64 pass=tree depth=3
 *             func=try_to_unmap hit=N us=T
 *
 * hit: calls, us: their time in microseconds, including the functions they
 * call; hit=na where the kernel has no such function (or inlined it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/wait.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

#define TRACING "/sys/kernel/tracing"

static size_t pagesize, len, folio;
static int failed;

struct counts {
	unsigned long ci_lock, unmap_one, tlb_add, tlb_add_nr, tlb_flush, tlb_now;
	unsigned long memcg_id;
};

static int have_now;

/* profile mode (-p TREE) */
#define MAX_PROF 128
struct prof_fn {
	char cas[32], name[64];
	int depth, traced;
	unsigned long hit;
	double us;
};
static struct prof_fn prof[MAX_PROF];
static int nprof, prof_mode, prof_top;

static void die(const char *what)
{
	printf("costcount: FAIL %s: %s\n", what, strerror(errno));
	exit(1);
}

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -1;
}

/*
 * One filter pattern a write, ended by a newline so that the kernel
 * parses it in write() and fails it there (EINVAL) when no function
 * matches: a pattern the kernel lacks fails alone. Returns whether it
 * matched.
 */
static int add_filter(const char *pattern)
{
	int fd = open(TRACING "/set_ftrace_filter", O_WRONLY | O_APPEND);
	char line[128];
	int ok;

	if (fd < 0)
		die("open set_ftrace_filter");
	snprintf(line, sizeof(line), "%s\n", pattern);
	ok = write(fd, line, strlen(line)) == (ssize_t)strlen(line);
	if (!ok && !prof_mode)
		printf("costcount: note: no function matches %s\n", pattern);
	close(fd);
	return ok;
}

static void setup_counters(void)
{
	if (access(TRACING "/function_profile_enabled", F_OK) &&
	    mount("nodev", TRACING, "tracefs", 0, NULL))
		die("mount tracefs (CONFIG_FUNCTION_PROFILER?)");
	if (prof_mode)
		return;
	if (write_file(TRACING "/set_ftrace_filter", "try_to_unmap_one*\n"))
		die("set_ftrace_filter");
	add_filter("set_tlb_ubc_flush_pending*");
	add_filter("try_to_unmap_flush");
	have_now = add_filter("flush_tlb_mm_range");
	add_filter("lookup_swap_cgroup_id");
	add_filter("swap_cgroup_id_run");
	if (access("/proc/lock_stat", W_OK))
		die("/proc/lock_stat (CONFIG_LOCK_STAT?)");
}

/*
 * Profile mode: the filter is the case's top function (the first of its
 * tree), then, unless this pass times the top alone, the rest of its
 * tree. The top must exist: an empty filter would trace every function.
 */
static void prof_filter(const char *name)
{
	char line[80];
	int i, top = 1;

	for (i = 0; i < nprof; i++) {
		struct prof_fn *f = &prof[i];

		f->traced = 0;
		f->hit = 0;
		f->us = 0;
		if (strcmp(f->cas, name) || (prof_top && !top))
			continue;
		if (top) {
			snprintf(line, sizeof(line), "%s\n", f->name);
			if (write_file(TRACING "/set_ftrace_filter", line)) {
				printf("costcount: FAIL case=%s: no function %s to profile\n",
				       name, f->name);
				exit(1);
			}
			f->traced = 1;
			top = 0;
			continue;
		}
		f->traced = add_filter(f->name);
	}
	if (top) {
		printf("costcount: FAIL case=%s is not in the profile tree\n", name);
		exit(1);
	}
}

static void reset_counters(const char *name)
{
	if (prof_mode)
		prof_filter(name);
	/* enabling the profiler again clears its counts */
	if (write_file(TRACING "/function_profile_enabled", "0") ||
	    write_file(TRACING "/function_profile_enabled", "1"))
		die("function_profile_enabled");
	if (!prof_mode && write_file("/proc/lock_stat", "0"))
		die("clear /proc/lock_stat");
}

/* "name" or a compiler clone of it ("name.constprop.0") */
static int is_func(const char *got, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(got, name, n) && (got[n] == '\0' || got[n] == '.');
}

/* one line of trace_stat: "name hit time us avg us s^2" */
static void prof_add(const char *line, const char *name, unsigned long hit)
{
	double us;
	int i;

	if (sscanf(line, " %*s %*u %lf", &us) != 1) {
		printf("costcount: FAIL no time in trace_stat (a kernel without the function graph tracer?): %s",
		       line);
		exit(1);
	}
	for (i = 0; i < nprof; i++) {
		if (!prof[i].traced || !is_func(name, prof[i].name))
			continue;
		prof[i].hit += hit;
		prof[i].us += us;
	}
}

static void read_counters(struct counts *c)
{
	char line[512], name[256];
	unsigned long hit;
	glob_t g;
	size_t i;
	FILE *f;

	memset(c, 0, sizeof(*c));
	if (write_file(TRACING "/function_profile_enabled", "0"))
		die("function_profile_enabled");
	if (glob(TRACING "/trace_stat/function*", 0, NULL, &g))
		die("no trace_stat/function* files");
	for (i = 0; i < g.gl_pathc; i++) {
		f = fopen(g.gl_pathv[i], "r");
		if (!f)
			die(g.gl_pathv[i]);
		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, " %255s %lu", name, &hit) != 2)
				continue;
			if (prof_mode) {
				prof_add(line, name, hit);
				continue;
			}
			if (is_func(name, "try_to_unmap_one"))
				c->unmap_one += hit;
			else if (is_func(name, "set_tlb_ubc_flush_pending_nr"))
				c->tlb_add_nr += hit;
			else if (is_func(name, "set_tlb_ubc_flush_pending"))
				c->tlb_add += hit;
			else if (is_func(name, "try_to_unmap_flush"))
				c->tlb_flush += hit;
			else if (is_func(name, "flush_tlb_mm_range"))
				c->tlb_now += hit;
			else if (is_func(name, "lookup_swap_cgroup_id") ||
				 is_func(name, "swap_cgroup_id_run"))
				c->memcg_id += hit;
		}
		fclose(f);
	}
	globfree(&g);
	if (prof_mode)
		return;
	/* the single-page wrapper calls the _nr helper: count each add once */
	if (c->tlb_add_nr)
		c->tlb_add = c->tlb_add_nr;

	f = fopen("/proc/lock_stat", "r");
	if (!f)
		die("/proc/lock_stat");
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "&cluster_info[i].lock:");

		/* lockdep turned itself off: it counts nothing any more */
		if (strstr(line, "lock debugging disabled")) {
			printf("costcount: FAIL lockdep is off (%s): no lock counts\n", line);
			exit(1);
		}
		unsigned long v[8];

		/* class: con-bounces contentions wait-min wait-max wait-total
		 * wait-avg acq-bounces acquisitions ... */
		if (!p || strstr(line, "-W") || strstr(line, "-R"))
			continue;
		p += strlen("&cluster_info[i].lock:");
		if (sscanf(p, "%lu %lu %*f %*f %*f %*f %lu %lu", &v[0], &v[1],
			   &v[2], &v[3]) == 4)
			c->ci_lock += v[3];
	}
	fclose(f);
}

static void report(const char *name, const struct counts *c)
{
	char now[32] = "na";
	int i;

	for (i = 0; prof_mode && i < nprof; i++) {
		const struct prof_fn *f = &prof[i];

		if (strcmp(f->cas, name) || (prof_top && f->depth))
			continue;
		if (!f->traced) {
			printf("costprof: case=%s page=%zuK size_mib=%zu pass=%s depth=%d func=%s hit=na us=na\n",
			       name, folio >> 10, len >> 20, prof_top ? "top" : "tree",
			       f->depth, f->name);
			continue;
		}
		printf("costprof: case=%s page=%zuK size_mib=%zu pass=%s depth=%d func=%s hit=%lu us=%.1f\n",
		       name, folio >> 10, len >> 20, prof_top ? "top" : "tree",
		       f->depth, f->name, f->hit, f->us);
	}
	if (prof_mode)
		return;

	if (have_now)
		snprintf(now, sizeof(now), "%lu", c->tlb_now);
	printf("costcount: case=%s page=%zuK size_mib=%zu ci_lock=%lu unmap_one=%lu tlb_add=%lu tlb_flush=%lu tlb_now=%s memcg_id=%lu\n",
	       name, folio >> 10, len >> 20, c->ci_lock, c->unmap_one,
	       c->tlb_add, c->tlb_flush, now, c->memcg_id);
}

static void set_mthp(size_t kib)
{
	char path[128];
	glob_t g;
	size_t i;

	if (glob("/sys/kernel/mm/transparent_hugepage/hugepages-*kB/enabled", 0, NULL, &g))
		return;
	for (i = 0; i < g.gl_pathc; i++)
		write_file(g.gl_pathv[i], "never");
	globfree(&g);
	if (kib == pagesize >> 10)
		return;
	snprintf(path, sizeof(path),
		 "/sys/kernel/mm/transparent_hugepage/hugepages-%zukB/enabled", kib);
	if (write_file(path, "always")) {
		printf("costcount: FAIL cannot enable %zu KiB mTHP (%s)\n", kib, path);
		exit(1);
	}
}

/* len bytes aligned to the folio size; the rest of the mapping unmapped */
static char *map(void)
{
	char *p = mmap(NULL, len + folio, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t a;

	if (p == MAP_FAILED)
		die("mmap");
	a = ((uintptr_t)p + folio - 1) & ~(uintptr_t)(folio - 1);
	if (a > (uintptr_t)p)
		munmap(p, a - (uintptr_t)p);
	if ((uintptr_t)p + folio > a)
		munmap((char *)a + len, (uintptr_t)p + folio - a);
	return (char *)a;
}

static uint64_t word(size_t i, unsigned int seed)
{
	return (uint64_t)i * 0x9e3779b97f4a7c15ull ^ seed;
}

static void fill(char *mem, unsigned int seed)
{
	uint64_t *w = (uint64_t *)mem;
	size_t i;

	for (i = 0; i < len / 8; i++)
		w[i] = word(i, seed);
}

static int check(const char *mem, unsigned int seed, int zero)
{
	const uint64_t *w = (const uint64_t *)mem;
	size_t i;

	for (i = 0; i < len / 8; i++)
		if (w[i] != (zero ? 0 : word(i, seed)))
			return -1;
	return 0;
}

/* Pages of the region that are swapped out (pagemap bit 62). */
static long swapped(const char *mem)
{
	int fd = open("/proc/self/pagemap", O_RDONLY);
	size_t i, nr = len / pagesize;
	uint64_t e;
	long n = 0;

	if (fd < 0)
		die("open pagemap");
	for (i = 0; i < nr; i++) {
		off_t off = ((uintptr_t)mem / pagesize + i) * sizeof(e);

		if (pread(fd, &e, sizeof(e), off) != sizeof(e))
			die("read pagemap");
		n += (e >> 62) & 1;
	}
	close(fd);
	return n;
}

static void verdict(const char *name, int bad)
{
	if (bad) {
		printf("costcount: FAIL case=%s page=%zuK: data differs\n", name, folio >> 10);
		failed = 1;
	}
}

static void pageout_all(const char *name, char *mem)
{
	long want = len / pagesize, got;

	if (madvise(mem, len, MADV_PAGEOUT))
		die("MADV_PAGEOUT");
	got = swapped(mem);
	if (got != want) {
		printf("costcount: FAIL case=%s page=%zuK: %ld of %ld pages swapped\n",
		       name, folio >> 10, got, want);
		failed = 1;
	}
}

static void case_pageout(const char *name, int zero)
{
	char *mem = map();
	struct counts c;

	if (zero)
		memset(mem, 0, len);
	else
		fill(mem, 1);
	reset_counters(name);
	pageout_all(name, mem);
	read_counters(&c);
	report(name, &c);
	verdict(name, check(mem, 1, zero));
	munmap(mem, len);
}

static void case_munmap_excl(void)
{
	char *mem = map();
	struct counts c;

	fill(mem, 2);
	pageout_all("munmap-excl", mem);
	reset_counters("munmap-excl");
	munmap(mem, len);
	read_counters(&c);
	report("munmap-excl", &c);
}

/* fork of swapped memory, then munmap in the parent while the child shares */
static void case_fork(void)
{
	int go[2], status;
	char *mem = map();
	struct counts c;
	pid_t pid;

	fill(mem, 3);
	pageout_all("fork", mem);
	if (pipe(go))
		die("pipe");
	reset_counters("fork");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		char b;

		close(go[1]);
		if (read(go[0], &b, 1) != 1)
			_exit(2);
		_exit(check(mem, 3, 0) ? 1 : 0);
	}
	read_counters(&c);
	report("fork", &c);
	close(go[0]);
	reset_counters("munmap-shared");
	munmap(mem, len);
	read_counters(&c);
	report("munmap-shared", &c);
	if (write(go[1], "g", 1) != 1)
		die("write pipe");
	close(go[1]);
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	verdict("fork", !WIFEXITED(status) || WEXITSTATUS(status));
}

static void case_lazyfree(void)
{
	char *mem = map();
	struct counts c;

	fill(mem, 4);
	if (madvise(mem, len, MADV_FREE))
		die("MADV_FREE");
	reset_counters("lazyfree-pageout");
	if (madvise(mem, len, MADV_PAGEOUT))
		die("MADV_PAGEOUT");
	read_counters(&c);
	report("lazyfree-pageout", &c);
	/* clean lazyfree folios are dropped: they read back as zeros */
	verdict("lazyfree-pageout", check(mem, 4, 1));
	munmap(mem, len);
}

static void load_tree(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];
	struct prof_fn *p;

	if (!f)
		die(path);
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (nprof == MAX_PROF) {
			printf("costcount: FAIL %s: more than %d functions\n", path, MAX_PROF);
			exit(1);
		}
		p = &prof[nprof++];
		if (sscanf(line, "%31s %d %63s", p->cas, &p->depth, p->name) != 3) {
			printf("costcount: FAIL %s: not \"case depth function\": %s", path, line);
			exit(1);
		}
	}
	fclose(f);
}

static void run_cases(void)
{
	case_pageout("pageout", 0);
	case_pageout("pageout-zero", 1);
	case_munmap_excl();
	case_fork();
	case_lazyfree();
}

int main(int argc, char **argv)
{
	size_t mib = 64, kib = 64;
	cpu_set_t cpus;
	int opt;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "s:m:p:")) != -1) {
		switch (opt) {
		case 'p':
			load_tree(optarg);
			prof_mode = 1;
			break;
		case 's':
			mib = strtoul(optarg, NULL, 0);
			break;
		case 'm':
			kib = strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: costcount [-p TREE] [-s MIB] [-m KIB]\n");
			return 2;
		}
	}
	pagesize = sysconf(_SC_PAGESIZE);
	len = mib << 20;
	folio = kib << 10;
	if (!mib || !kib || folio % pagesize || (folio & (folio - 1)) || len % folio) {
		fprintf(stderr, "costcount: -m must be a power of two KiB, at least the page size, dividing -s MiB\n");
		return 2;
	}
	/*
	 * MADV_PAGEOUT drains only this CPU's LRU add batch: fault every
	 * page in on one CPU, so that every page can go out.
	 */
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus))
		die("sched_setaffinity");
	setup_counters();
	set_mthp(kib);
	/* profile mode: each case with its top function alone, then its tree */
	prof_top = prof_mode;
	run_cases();
	if (prof_mode) {
		prof_top = 0;
		run_cases();
	}
	return failed;
}
