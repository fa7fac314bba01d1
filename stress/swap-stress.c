// SPDX-License-Identifier: GPL-2.0
/*
 * swap-stress: swap churn, fault and bad-input suite, run in the guest on
 * any kernel (base or patched: it tests the kernel, not the series).
 *
 *   swap-stress [-a 0|1] [-s SEED] [-r ROUNDS | -t SECONDS] [-w WORKERS]
 *               [-k KIB] [-M MEMCG_KIB] [PHASE...]
 *   PHASE: churn faults badinput (default: all three). -a 1 (default): every
 *   mTHP size set to "always" for the run, restored at the end. -k: KiB of
 *   regions per page size and process; -M: memory.max of the memcg.
 *
 * churn: WORKERS process trees over regions at 4 KiB and at every enabled
 *   mTHP size, in a seeded random order of writes, verifies, MADV_PAGEOUT,
 *   MADV_FREE, MADV_DONTNEED, partial munmap, mprotect, mremap, forks
 *   (children that COW, exit early or outlive their parent) and reads from
 *   a second thread while the pages go out. Every page holds a pattern
 *   derived from (seed, process, page, generation), checked on every touch.
 *   Half the workers run in a memcg with a tight memory.max; a second swap
 *   device is swapped off and on underneath. At the end swap usage must be
 *   back to exactly where it started.
 * faults: swap I/O errors from the block layer's fail_make_request on the
 *   second device: a failed swap-in kills its process with SIGBUS, a failed
 *   swap-out keeps the data, swapoff of a failing device finishes, a
 *   bystander on the other device keeps its data, usage is restored.
 * badinput: madvise, process_madvise, swapon and swapoff with bad or odd
 *   arguments get their documented result.
 *
 * Output is TAP (the plan last) and a summary line. With -r the run is
 * deterministic up to scheduling: the same seed makes the same choices.
 * SWAP_STRESS_OPS=wvPFDUHRXTK (environment) limits churn to those
 * operations: write, verify, pageout, free, dontneed, unmap, refill
 * holes, mprotect, mremap, reader thread, fork (for bisecting a failure).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <linux/userfaultfd.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PG		4096UL
#define GOLD		0x9e3779b97f4a7c15ULL
#define MAX_SIZES	16
#define MAX_SLOTS	128
#define MAX_DEPTH	3
#define SWAP_PRIO	10

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT	21
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open	434
#endif
#ifndef SYS_process_madvise
#define SYS_process_madvise 440
#endif

/* Counters shared by every process of a run (MAP_SHARED). */
struct stats {
	long procs, live, rounds, verified, written, forks, pageouts;
	long swapoffs, swapoff_busy, faults, errors, stop;
	char first_error[512];
};

enum { MAPPED, UNMAPPED, LAZY };

struct pg {
	uint32_t gen;		/* 0: the page must read as zeroes */
	uint32_t owner;		/* tag of the process that wrote it */
	uint8_t state;
};

struct slot {
	char *addr;
	size_t len;		/* bytes, a multiple of size */
	size_t size;		/* folio size asked for (PG: no THP) */
	char *guard;		/* PROT_NONE page after the slot */
	uint64_t uid;
	unsigned int holes;	/* pages now unmapped */
	struct pg *pg;
	char last_ops[64];	/* recent operations, for failure reports */
};

struct proc {
	uint64_t rng;
	uint32_t tag, gen;
	int depth;
	long rounds_left;	/* -1: until stats->stop */
	int nslots;
	struct slot slot[MAX_SLOTS];
};

static struct stats *st;
static uint64_t seed;
static size_t sizes[MAX_SIZES];
static int nsizes;
static long opt_rounds = 200, opt_seconds;
static int opt_workers = 4;
static size_t opt_kib = 512, opt_memcg_kib;
static int opt_all_sizes = 1;
static int opt_noswap;
static long churn_seconds;	/* this round's churn, with -t */		/* -n: no swap devices, no memcg (a dry run of the bookkeeping) */
static int cases, failed_cases;
static char dev2[64];		/* second swap device: cycled and faulted */

/* ---------------------------------------------------------------- utils */

static char *patterned(size_t len, int flags, int fd, uint64_t k);
static int intact(char *m, size_t len, uint64_t k);

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static uint64_t rnd(struct proc *p)
{
	p->rng += GOLD;
	return mix64(p->rng);
}

static size_t rnd_below(struct proc *p, size_t n)
{
	return n ? rnd(p) % n : 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long add(long *v, long n)
{
	return __atomic_add_fetch(v, n, __ATOMIC_SEQ_CST);
}

static void report(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(stderr, "swap-stress: FAIL seed=%llu: %s\n",
		(unsigned long long)seed, buf);
	if (add(&st->errors, 1) == 1)
		snprintf(st->first_error, sizeof(st->first_error), "%s", buf);
}

/* A process that found a wrong byte or a failed call stops here. */
static void __attribute__((noreturn)) die_proc(const char *fmt, ...)
{
	char buf[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	report("%s", buf);
	add(&st->live, -1);
	_exit(1);
}

static void tap(int ok, const char *fmt, ...)
{
	va_list ap;

	cases++;
	if (!ok)
		failed_cases++;
	printf("%s %d ", ok ? "ok" : "not ok", cases);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static void tap_skip(const char *fmt, ...)
{
	va_list ap;

	cases++;
	printf("ok %d # SKIP ", cases);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -1;
	if (write(fd, val, strlen(val)) < 0)
		ret = -1;
	close(fd);
	return ret;
}

static long read_long(const char *path)
{
	char buf[64] = "";
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? strtol(buf, NULL, 10) : -1;
}

/* KiB of swap in use on DEV, or on all devices when DEV is NULL. */
static long swap_used_kib(const char *dev)
{
	char line[256], name[128];
	long size, used, sum = 0;
	FILE *f = fopen("/proc/swaps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%127s %*s %ld %ld", name, &size, &used) == 3 &&
		    (!dev || !strcmp(dev, name)))
			sum += used;
	fclose(f);
	return sum;
}

static long meminfo_kib(const char *key)
{
	char line[256];
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			v = strtol(line + strlen(key), NULL, 10);
	if (f)
		fclose(f);
	return v;
}

static int swap_active(const char *dev)
{
	char line[256], name[128];
	int on = 0;
	FILE *f = fopen("/proc/swaps", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%127s", name) == 1 && !strcmp(name, dev))
			on = 1;
	if (f)
		fclose(f);
	return on;
}

static int do_swapon(const char *dev, int prio)
{
	return swapon(dev, SWAP_FLAG_PREFER |
		      ((prio << SWAP_FLAG_PRIO_SHIFT) & SWAP_FLAG_PRIO_MASK));
}

/*
 * swapoff in a child, bounded: a swap reference that is never dropped
 * makes swapoff loop for ever. Returns 0, an errno, or ETIMEDOUT.
 */
static int swapoff_bounded(const char *dev, int seconds)
{
	int status;
	double end = now() + seconds;
	pid_t pid = fork();

	if (pid == 0)
		_exit(swapoff(dev) ? errno : 0);
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (now() > end) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return ETIMEDOUT;
		}
		usleep(20000);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : EINTR;
}

/* ------------------------------------------------------------- patterns */

static uint64_t page_key(uint32_t owner, uint64_t uid, size_t i, uint32_t gen)
{
	return mix64(seed * GOLD ^ mix64(((uint64_t)owner << 32) | gen) ^
		     mix64(uid * 65536 + i));
}

static void fill(struct slot *s, size_t i)
{
	uint64_t *w = (uint64_t *)(s->addr + i * PG);
	uint64_t k = page_key(s->pg[i].owner, s->uid, i, s->pg[i].gen);
	size_t j;

	for (j = 0; j < PG / 8; j++)
		w[j] = k ^ (j * GOLD);
}

/*
 * Check page I of S. Returns 0 when good; with UPDATE, a lazily freed
 * page found zeroed becomes a zero page in the record.
 */
static int check(struct proc *p, struct slot *s, size_t i, int update)
{
	uint64_t *w = (uint64_t *)(s->addr + i * PG);
	struct pg *g = &s->pg[i];
	uint64_t k = page_key(g->owner, s->uid, i, g->gen);
	size_t j, zero = 1;

	if (g->state == UNMAPPED)
		return 0;
	add(&st->verified, 1);
	if (g->gen) {
		for (j = 0; j < PG / 8; j++)
			if (w[j] != (k ^ (j * GOLD)))
				break;
		if (j == PG / 8)
			return 0;
		if (g->state != LAZY)
			goto bad;
	}
	for (j = 0; j < PG / 8; j++)
		if (w[j]) {
			zero = 0;
			break;
		}
	if (zero) {
		if (update && g->state == LAZY) {
			g->gen = 0;
			g->state = MAPPED;
		}
		return 0;
	}
	for (j = 0; g->gen && j < PG / 8 && w[j] == (k ^ (j * GOLD)); j++)
		;
bad:
	if (!g->gen)
		for (j = 0; j < PG / 8 && !w[j]; j++)
			;
	die_proc("data mismatch: proc tag %u, slot %p size %zu KiB, page %zu, byte %zu: read %#llx, expected %#llx (gen %u owner %u state %d); recent ops on the slot: %s",
		 p->tag, s->addr, s->size / 1024, i, j * 8,
		 (unsigned long long)w[j],
		 g->gen ? (unsigned long long)(k ^ (j * GOLD)) : 0ULL,
		 g->gen, g->owner, g->state, s->last_ops);
}

static void verify_range(struct proc *p, struct slot *s, size_t a, size_t b)
{
	for (; a < b; a++)
		check(p, s, a, 1);
}

static void write_range(struct proc *p, struct slot *s, size_t a, size_t b)
{
	for (; a < b; a++) {
		if (s->pg[a].state == UNMAPPED)
			continue;
		s->pg[a].gen = ++p->gen;
		s->pg[a].owner = p->tag;
		s->pg[a].state = MAPPED;
		fill(s, a);
		add(&st->written, 1);
	}
}

static void note_op(struct slot *s, char op)
{
	size_t n = strlen(s->last_ops);

	if (n >= sizeof(s->last_ops) - 1) {
		memmove(s->last_ops, s->last_ops + 16, n - 16 + 1);
		n -= 16;
	}
	s->last_ops[n] = op;
	s->last_ops[n + 1] = 0;
}

/* --------------------------------------------------------------- slots */

/*
 * A slot is one VMA of LEN bytes aligned to SIZE, followed by a PROT_NONE
 * guard page so that it does not merge with its neighbours: with every
 * mTHP size enabled, a fault then gets folios of SIZE.
 */
static char *reserve(size_t len, size_t align, char **guard)
{
	size_t span = len + align + PG;
	char *raw = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *a;

	if (raw == MAP_FAILED)
		return NULL;
	a = (char *)(((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1));
	if (a > raw)
		munmap(raw, a - raw);
	if (raw + span > a + len + PG)
		munmap(a + len + PG, raw + span - (a + len + PG));
	*guard = a + len;
	return a;
}

static void slot_advise(struct slot *s, char *addr, size_t len)
{
	madvise(addr, len, s->size == PG ? MADV_NOHUGEPAGE : MADV_HUGEPAGE);
}

static void slot_new(struct proc *p, struct slot *s, size_t size, size_t len)
{
	static uint32_t n;

	s->size = size;
	s->len = len;
	s->addr = reserve(len, size, &s->guard);
	if (!s->addr || mprotect(s->addr, len, PROT_READ | PROT_WRITE))
		die_proc("cannot map a %zu KiB slot: %s", len / 1024, strerror(errno));
	slot_advise(s, s->addr, len);
	s->uid = ((uint64_t)p->tag << 24) | ++n;
	s->holes = 0;
	s->pg = calloc(len / PG, sizeof(*s->pg));
	if (!s->pg)
		die_proc("out of memory");
	s->last_ops[0] = 0;
}

static void setup_slots(struct proc *p)
{
	int i, k, n;

	p->nslots = 0;
	for (i = 0; i < nsizes; i++) {
		size_t sz = sizes[i];
		size_t len = sz == PG ? 16 * PG : sz;

		n = opt_kib * 1024 / len;
		if (n < 1)
			n = 1;
		if (n > 8)
			n = 8;
		for (k = 0; k < n && p->nslots < MAX_SLOTS; k++)
			slot_new(p, &p->slot[p->nslots++], sz, len);
	}
	for (i = 0; i < p->nslots; i++)
		write_range(p, &p->slot[i], 0, p->slot[i].len / PG);
}

/* madvise over a slot range (holes are PROT_NONE mappings: no ENOMEM) */
static void advise(struct slot *s, size_t a, size_t b, int advice, const char *name)
{
	if (!madvise(s->addr + a * PG, (b - a) * PG, advice))
		return;
	die_proc("madvise(%s) on a %zu KiB slot, pages %zu-%zu: %s", name,
		 s->size / 1024, a, b, strerror(errno));
}

struct reader {
	struct proc *p;
	struct slot *s;
	int passes;
};

static void *reader_fn(void *arg)
{
	struct reader *r = arg;
	size_t i, n = r->s->len / PG;
	int k;

	for (k = 0; k < r->passes; k++)
		for (i = 0; i < n; i++)
			check(r->p, r->s, i, 0);
	return NULL;
}

static void op_fork(struct proc *p)
{
	long cap = opt_workers * 4;
	pid_t pid;
	int status;

	if (p->depth >= MAX_DEPTH || add(&st->live, 0) >= cap)
		return;
	add(&st->live, 1);
	add(&st->forks, 1);
	pid = fork();
	if (pid < 0) {
		add(&st->live, -1);
		die_proc("fork: %s", strerror(errno));
	}
	if (pid == 0) {
		p->tag = add(&st->procs, 1);
		p->rng ^= mix64(p->tag);
		p->depth++;
		/* some children exit soon, some outlive their parent */
		p->rounds_left = 5 + rnd_below(p, 60);
		return;
	}
	/* a third of the children are waited for now: they exit early */
	if (rnd_below(p, 3) == 0 && waitpid(pid, &status, 0) == pid &&
	    WIFSIGNALED(status)) {
		report("child %d died: signal %d", pid, WTERMSIG(status));
		add(&st->live, -1);
	}
}

static void op_mremap(struct slot *s)
{
	char *guard, *to;

	if (s->holes)
		return;
	to = reserve(s->len, s->size, &guard);
	if (!to)
		return;
	if (mremap(s->addr, s->len, s->len, MREMAP_MAYMOVE | MREMAP_FIXED, to) == MAP_FAILED) {
		/* a slot split into several VMAs cannot move in one call */
		if (errno != EFAULT)
			die_proc("mremap of a %zu KiB slot: %s", s->len / 1024, strerror(errno));
		munmap(to, s->len + PG);
		return;
	}
	munmap(s->guard, PG);
	s->addr = to;
	s->guard = guard;
}

static void op_mprotect(struct proc *p, struct slot *s, size_t a, size_t b)
{
	if (s->holes)
		return;
	if (mprotect(s->addr + a * PG, (b - a) * PG, PROT_READ))
		die_proc("mprotect(PROT_READ): %s", strerror(errno));
	advise(s, 0, s->len / PG, MADV_PAGEOUT, "PAGEOUT");
	verify_range(p, s, 0, s->len / PG);
	if (mprotect(s->addr + a * PG, (b - a) * PG, PROT_READ | PROT_WRITE))
		die_proc("mprotect(PROT_READ|PROT_WRITE): %s", strerror(errno));
}

static void op_unmap(struct slot *s, size_t a, size_t b)
{
	size_t i;

	/*
	 * Unmap, and keep the range reserved: a PROT_NONE mapping over it
	 * takes the same unmap path (the folios under it are split or
	 * partially unmapped) but nothing else can be placed in the hole.
	 */
	if (mmap(s->addr + a * PG, (b - a) * PG, PROT_NONE, MAP_PRIVATE |
		 MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0) == MAP_FAILED)
		die_proc("munmap (mmap PROT_NONE over a range): %s", strerror(errno));
	for (i = a; i < b; i++) {
		if (s->pg[i].state != UNMAPPED)
			s->holes++;
		s->pg[i].state = UNMAPPED;
	}
}

static void op_refill_holes(struct slot *s)
{
	size_t i, j, n = s->len / PG;

	for (i = 0; i < n; i = j) {
		for (j = i; j < n && s->pg[j].state == UNMAPPED; j++)
			;
		if (j == i) {
			j++;
			continue;
		}
		if (mmap(s->addr + i * PG, (j - i) * PG, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
			die_proc("mmap over a hole: %s", strerror(errno));
		slot_advise(s, s->addr + i * PG, (j - i) * PG);
		for (; i < j; i++) {
			s->pg[i].state = MAPPED;
			s->pg[i].gen = 0;
		}
	}
	s->holes = 0;
}

static void one_op(struct proc *p)
{
	struct slot *s = &p->slot[rnd_below(p, p->nslots)];
	size_t n = s->len / PG, a = rnd_below(p, n);
	size_t b = a + 1 + rnd_below(p, n - a), i;
	static const char letters[] = "wwvvPPFDUHRXTK";
	static const unsigned char bound[] = { 22, 40, 58, 66, 70, 75, 80, 85, 89, 94, 100 };
	const char *only = getenv("SWAP_STRESS_OPS");
	unsigned int op = rnd_below(p, 100);
	struct reader r;
	pthread_t t;

	/* SWAP_STRESS_OPS=wvPFDUHRXTK: only these operations (for bisecting) */
	for (i = 0; only && i < 100; i++) {
		size_t k = 0;

		while (op >= bound[k])
			k++;
		if (strchr(only, "wvPFDUHRXTK"[k]))
			break;
		op = rnd_below(p, 100);
	}
	(void)letters;

	if (op < 22) {
		note_op(s, 'w');
		write_range(p, s, a, b);
	} else if (op < 40) {
		note_op(s, 'v');
		verify_range(p, s, 0, n);
	} else if (op < 58) {
		note_op(s, 'P');
		advise(s, 0, n, MADV_PAGEOUT, "PAGEOUT");
		add(&st->pageouts, 1);
		if (rnd_below(p, 2))
			verify_range(p, s, a, b);
	} else if (op < 66) {
		note_op(s, 'F');
		advise(s, a, b, MADV_FREE, "FREE");
		for (i = a; i < b; i++)
			if (s->pg[i].state == MAPPED && s->pg[i].gen)
				s->pg[i].state = LAZY;
		if (rnd_below(p, 2)) {
			note_op(s, 'w');
			write_range(p, s, a, b);
		} else if (rnd_below(p, 2)) {
			note_op(s, 'P');
			advise(s, 0, n, MADV_PAGEOUT, "PAGEOUT");
		}
	} else if (op < 70) {
		note_op(s, 'D');
		advise(s, a, b, MADV_DONTNEED, "DONTNEED");
		for (i = a; i < b; i++)
			if (s->pg[i].state != UNMAPPED) {
				s->pg[i].state = MAPPED;
				s->pg[i].gen = 0;
			}
	} else if (op < 75) {
		note_op(s, 'U');
		op_unmap(s, a, b);
	} else if (op < 80) {
		note_op(s, 'H');
		op_refill_holes(s);
	} else if (op < 85) {
		note_op(s, 'R');
		op_mprotect(p, s, a, b);
	} else if (op < 89) {
		note_op(s, 'X');
		op_mremap(s);
		verify_range(p, s, a, b);
	} else if (op < 94) {
		note_op(s, 'T');
		r.p = p;
		r.s = s;
		r.passes = 2;
		if (pthread_create(&t, NULL, reader_fn, &r))
			die_proc("pthread_create failed");
		for (i = 0; i < 3; i++)
			advise(s, 0, n, MADV_PAGEOUT, "PAGEOUT");
		pthread_join(t, NULL);
	} else {
		op_fork(p);
	}
}

static void reap_children(struct proc *p, int flags)
{
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, flags)) > 0)
		if (WIFSIGNALED(status)) {
			report("process %d (child of tag %u) killed by signal %d",
			       pid, p->tag, WTERMSIG(status));
			add(&st->live, -1);
		}
}

static void __attribute__((noreturn)) worker(int id, int memcg)
{
	struct proc *p = calloc(1, sizeof(*p));
	char buf[32];
	int i;

	if (memcg) {
		snprintf(buf, sizeof(buf), "%d", getpid());
		if (write_file("/sys/fs/cgroup/swap-stress/cgroup.procs", buf))
			die_proc("cannot join the memcg: %s", strerror(errno));
	}
	p->tag = add(&st->procs, 1);
	p->rng = mix64(seed + id * GOLD);
	p->rounds_left = opt_seconds ? -1 : opt_rounds;
	setup_slots(p);
	for (;;) {
		if (p->rounds_left == 0 ||
		    (p->rounds_left < 0 && __atomic_load_n(&st->stop, __ATOMIC_SEQ_CST)))
			break;
		if (p->rounds_left > 0)
			p->rounds_left--;
		one_op(p);
		add(&st->rounds, 1);
		reap_children(p, WNOHANG);
	}
	for (i = 0; i < p->nslots; i++)
		verify_range(p, &p->slot[i], 0, p->slot[i].len / PG);
	/* children still running are left to the reaper: they outlive us */
	reap_children(p, WNOHANG);
	add(&st->live, -1);
	_exit(0);
}

/* Swap DEV off and on until told to stop; leaves it on. */
static void __attribute__((noreturn)) cycler(void)
{
	uint64_t r = mix64(seed ^ 0x5a5a);
	int err;

	while (!__atomic_load_n(&st->stop, __ATOMIC_SEQ_CST)) {
		r = mix64(r + GOLD);
		usleep(100000 + r % 400000);
		err = swapoff_bounded(dev2, 120);
		if (!err)
			add(&st->swapoffs, 1);
		else if (err == ENOMEM || err == EINTR)
			add(&st->swapoff_busy, 1);
		else {
			report("swapoff %s while in use: %s", dev2, strerror(err));
			break;
		}
		usleep(50000 + r % 200000);
		if (!swap_active(dev2) && do_swapon(dev2, SWAP_PRIO)) {
			report("swapon %s: %s", dev2, strerror(errno));
			break;
		}
	}
	if (!swap_active(dev2))
		do_swapon(dev2, SWAP_PRIO);
	_exit(0);
}

/* ------------------------------------------------------------- devices */

#define THP "/sys/kernel/mm/transparent_hugepage/"

static char saved_mode[MAX_SIZES][16];
static char saved_path[MAX_SIZES][96];
static int nsaved;

/* Every mTHP size to "always" for this run (-a 0: leave them as they are). */
static void thp_all(int restore)
{
	glob_t g;
	size_t i;
	char buf[128], *a, *b;
	int fd;
	ssize_t n;

	if (restore) {
		for (i = 0; i < (size_t)nsaved; i++)
			write_file(saved_path[i], saved_mode[i]);
		return;
	}
	if (glob(THP "hugepages-*kB/enabled", 0, NULL, &g))
		return;
	for (i = 0; i < g.gl_pathc && nsaved < MAX_SIZES; i++) {
		fd = open(g.gl_pathv[i], O_RDONLY);
		n = fd < 0 ? 0 : read(fd, buf, sizeof(buf) - 1);
		if (fd >= 0)
			close(fd);
		buf[n > 0 ? n : 0] = 0;
		a = strchr(buf, '[');
		b = a ? strchr(a, ']') : NULL;
		if (!b || write_file(g.gl_pathv[i], "always"))
			continue;
		*b = 0;
		snprintf(saved_mode[nsaved], sizeof(saved_mode[0]), "%s", a + 1);
		snprintf(saved_path[nsaved++], sizeof(saved_path[0]), "%s", g.gl_pathv[i]);
	}
	globfree(&g);
}

static int find_sizes(void)
{
	glob_t g;
	size_t i;
	char buf[128];
	int fd;
	ssize_t n;

	sizes[nsizes++] = PG;
	if (glob(THP "hugepages-*kB/enabled", 0, NULL, &g))
		return nsizes;
	for (i = 0; i < g.gl_pathc && nsizes < MAX_SIZES; i++) {
		unsigned long kb;

		if (sscanf(g.gl_pathv[i], THP "hugepages-%lukB", &kb) != 1)
			continue;
		fd = open(g.gl_pathv[i], O_RDONLY);
		n = fd < 0 ? 0 : read(fd, buf, sizeof(buf) - 1);
		if (fd >= 0)
			close(fd);
		buf[n > 0 ? n : 0] = 0;
		if (strstr(buf, "[never]") || !n)
			continue;
		sizes[nsizes++] = kb * 1024;
	}
	globfree(&g);
	/* ascending */
	for (i = 1; i < (size_t)nsizes; i++)
		for (n = i; n > 0 && sizes[n - 1] > sizes[n]; n--) {
			size_t t = sizes[n];

			sizes[n] = sizes[n - 1];
			sizes[n - 1] = t;
		}
	return nsizes;
}

/*
 * The first swap device in /proc/swaps (set up by the guest) and a second
 * one made here from a hot-added zram device, both at one priority so that
 * allocations go round-robin over them.
 */
static int setup_swap(char *dev1, size_t len)
{
	char line[256], path[128], cmd[160];
	long id;
	FILE *f = fopen("/proc/swaps", "r");

	dev1[0] = 0;
	while (f && fgets(line, sizeof(line), f))
		if (line[0] == '/' && sscanf(line, "%127s", path) == 1 &&
		    strcmp(path, dev2)) {
			snprintf(dev1, len, "%s", path);
			break;
		}
	if (f)
		fclose(f);
	if (!dev1[0]) {
		fprintf(stderr, "swap-stress: no swap device is on\n");
		return -1;
	}
	if (!dev2[0]) {
		id = read_long("/sys/class/zram-control/hot_add");
		if (id < 0) {
			fprintf(stderr, "swap-stress: cannot add a zram device (CONFIG_ZRAM?)\n");
			return -1;
		}
		snprintf(dev2, sizeof(dev2), "/dev/zram%ld", id);
		snprintf(path, sizeof(path), "/sys/block/zram%ld/comp_algorithm", id);
		write_file(path, "lz4");
		snprintf(path, sizeof(path), "/sys/block/zram%ld/disksize", id);
		snprintf(cmd, sizeof(cmd), "mkswap %s >/dev/null", dev2);
		if (write_file(path, "512M") || system(cmd)) {
			fprintf(stderr, "swap-stress: cannot make %s a swap device\n", dev2);
			return -1;
		}
	}
	swapoff(dev1);
	swapoff(dev2);
	if (do_swapon(dev1, SWAP_PRIO) || do_swapon(dev2, SWAP_PRIO)) {
		fprintf(stderr, "swap-stress: swapon: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* Swap usage with no swap cache left: every device off and on again. */
static long settled_usage(const char *dev1, char *why, size_t len)
{
	const char *devs[2] = { dev1, dev2 };
	int i, err;

	if (opt_noswap)
		return 0;
	for (i = 0; i < 2; i++) {
		err = swap_active(devs[i]) ? swapoff_bounded(devs[i], 120) : 0;
		if (err) {
			snprintf(why, len, "swapoff %s: %s%s", devs[i], strerror(err),
				 err == ETIMEDOUT ? " (a swap reference that is never dropped?)" : "");
			return -1;
		}
		if (do_swapon(devs[i], SWAP_PRIO)) {
			snprintf(why, len, "swapon %s: %s", devs[i], strerror(errno));
			return -1;
		}
	}
	return swap_used_kib(NULL);
}

/* --------------------------------------------------------------- churn */

static int memcg_setup(size_t kib)
{
	char buf[32];

	mkdir("/sys/fs/cgroup/swap-stress", 0755);
	write_file("/sys/fs/cgroup/cgroup.subtree_control", "+memory");
	snprintf(buf, sizeof(buf), "%zu", kib * 1024);
	return write_file("/sys/fs/cgroup/swap-stress/memory.max", buf);
}

/*
 * The case that churn found in 6.12: a child's MADV_FREE of a large folio
 * it shares with its parent, swapped in by read faults (clean PTEs, no
 * swap cache), must not let the parent's own pageout discard its data.
 */
static void case_madv_free_shared(void)
{
	const size_t len = 1 << 20;
	uint64_t k = mix64(seed + 30);
	char *m = patterned(len, MAP_PRIVATE | MAP_ANONYMOUS, -1, k);
	volatile char sink;
	size_t i;
	int status;
	pid_t pid;

	if (!m) {
		tap_skip("churn: MADV_FREE in a child: no memory");
		return;
	}
	madvise(m, len, MADV_PAGEOUT);
	for (i = 0; i < len; i += PG)
		sink = m[i];
	(void)sink;
	pid = fork();
	if (pid == 0) {
		madvise(m, len, MADV_FREE);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	madvise(m, len, MADV_PAGEOUT);
	tap(intact(m, len, k), "churn: a child's MADV_FREE of memory it shares leaves the parent's data after the parent's pageout");
	munmap(m, len);
}

static void phase_churn(const char *dev1)
{
	long before, after, held, cached, rounds0 = st->rounds, ver0 = st->verified;
	long offs0 = st->swapoffs, err0 = st->errors;
	char why[256] = "";
	double t0 = now();
	size_t per_proc = 0;
	int i, status, memcg, nmemcg = 0;
	pid_t pid, cyc;

	for (i = 0; i < nsizes; i++)
		per_proc += (sizes[i] == PG ? 16 * PG : sizes[i]) *
			    ((opt_kib * 1024 / (sizes[i] == PG ? 16 * PG : sizes[i])) ?: 1);
	before = settled_usage(dev1, why, sizeof(why));
	if (before < 0) {
		tap(0, "churn: %s", why);
		return;
	}
	if (!getenv("SWAP_STRESS_OPS") || strchr(getenv("SWAP_STRESS_OPS"), 'F'))
		case_madv_free_shared();
	/* odd workers run in a memcg limited to 3/4 of their data */
	for (i = 1; i < opt_workers; i += 2)
		nmemcg++;
	memcg = nmemcg && !opt_noswap && !memcg_setup(opt_memcg_kib ? opt_memcg_kib :
				       per_proc / 1024 * nmemcg * 3 / 4);
	st->stop = 0;
	st->live = 0;
	cyc = opt_noswap ? 0 : fork();
	if (cyc == 0 && !opt_noswap)
		cycler();
	for (i = 0; i < opt_workers; i++) {
		add(&st->live, 1);
		pid = fork();
		if (pid == 0)
			worker(i, memcg && (i & 1));
		if (pid < 0) {
			add(&st->live, -1);
			report("fork of worker %d: %s", i, strerror(errno));
		}
	}
	if (opt_seconds) {
		while (now() - t0 < churn_seconds && !st->errors)
			usleep(100000);
		__atomic_store_n(&st->stop, 1, __ATOMIC_SEQ_CST);
	}
	/* workers, their children and orphans (we are their subreaper) */
	while (__atomic_load_n(&st->live, __ATOMIC_SEQ_CST) > 0) {
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
			if (pid == cyc) {
				cyc = 0;
				if (!WIFEXITED(status) || WEXITSTATUS(status))
					report("the swapoff/swapon cycler died (%s)",
					       WIFEXITED(status) ? "exit status" : "signal");
				continue;
			}
			if (WIFSIGNALED(status)) {
				report("process %d killed by signal %d%s", pid, WTERMSIG(status),
				       WTERMSIG(status) == SIGKILL ? " (memcg OOM?)" : "");
				add(&st->live, -1);
			}
		}
		usleep(50000);
	}
	__atomic_store_n(&st->stop, 1, __ATOMIC_SEQ_CST);
	while ((pid = waitpid(-1, &status, 0)) > 0)
		if (WIFSIGNALED(status))
			report("process %d killed by signal %d", pid, WTERMSIG(status));
	/*
	 * Every slot still used must be held by the swap cache, or sit in a
	 * per-CPU slot cache (6.12: 64 to allocate and 64 freed a CPU); a leaked
	 * reference beyond that shows here, and any leak makes the swapoff
	 * of settled_usage() fail to finish.
	 */
	cached = meminfo_kib("SwapCached:");
	held = swap_used_kib(NULL);
	tap(opt_noswap || held <= cached + 128 * 4 * sysconf(_SC_NPROCESSORS_ONLN),
	    "churn: no swap slot outlives its users (%ld KiB in use at exit, %ld KiB swap cache, %ld KiB allowed for per-CPU slot caches)",
	    held, cached, 128 * 4 * sysconf(_SC_NPROCESSORS_ONLN));
	after = settled_usage(dev1, why, sizeof(why));
	tap(st->errors == err0, "churn: %d workers (%d in a memcg), %ld rounds, %ld pages verified, %ld swapoffs of %s, %.0f s",
	    opt_workers, memcg ? nmemcg : 0, st->rounds - rounds0, st->verified - ver0,
	    st->swapoffs - offs0, dev2, now() - t0);
	if (after < 0)
		tap(0, "churn: swap usage back to the start: %s", why);
	else
		tap(after == before, "churn: swap usage back to the start (%ld KiB before, %ld KiB after, %ld KiB held by swap cache at exit)",
		    before, after, held);
	rmdir("/sys/fs/cgroup/swap-stress");
}

/* -------------------------------------------------------------- faults */

#define FI "/sys/kernel/debug/fail_make_request/"
#define FI_TIMES 1000000

static char fail_knob[128];

static void faults(int on)
{
	char buf[32];

	if (on) {
		write_file(FI "verbose", "0");
		write_file(FI "interval", "1");
		write_file(FI "space", "0");
		write_file(FI "probability", "100");
		snprintf(buf, sizeof(buf), "%d", FI_TIMES);
		write_file(FI "times", buf);
	} else {
		long left = read_long(FI "times");

		if (left >= 0 && left <= FI_TIMES)
			add(&st->faults, FI_TIMES - left);
		write_file(FI "times", "0");
	}
	write_file(fail_knob, on ? "1" : "0");
}

/* A process with LEN bytes of patterned anon memory, paged out. */
struct victim {
	pid_t pid;
	int go[2], ready[2];
};

/* 0: read back good; 1: wrong data (reported) */
static int touch_all(char *m, size_t len, uint64_t k, int write_first)
{
	size_t i, j;

	if (write_first)
		for (i = 0; i < len / 8; i++)
			((uint64_t *)m)[i] = k ^ (i * GOLD);
	for (i = 0; i < len / PG; i++)
		for (j = 0; j < PG / 8; j++)
			if (((uint64_t *)(m + i * PG))[j] != (k ^ ((i * PG / 8 + j) * GOLD))) {
				report("faults: wrong data at page %zu word %zu", i, j);
				return 1;
			}
	return 0;
}

/* The child writes, pages out, says ready, waits for go, then reads all. */
static void victim_start(struct victim *v, size_t len, uint64_t k, int pageout_after_go)
{
	char c = 0;

	if (pipe(v->go) || pipe(v->ready))
		exit(2);
	v->pid = fork();
	if (v->pid == 0) {
		char *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			_exit(2);
		touch_all(m, len, k, 1);
		if (!pageout_after_go)
			madvise(m, len, MADV_PAGEOUT);
		if (write(v->ready[1], &c, 1) != 1 || read(v->go[0], &c, 1) != 1)
			_exit(2);
		if (pageout_after_go)
			madvise(m, len, MADV_PAGEOUT);
		_exit(touch_all(m, len, k, 0));
	}
	if (read(v->ready[0], &c, 1) != 1)
		report("faults: victim did not start");
}

static int victim_finish(struct victim *v)
{
	char c = 0;
	int status;

	if (write(v->go[1], &c, 1) != 1)
		return -1;
	waitpid(v->pid, &status, 0);
	close(v->go[0]);
	close(v->go[1]);
	close(v->ready[0]);
	close(v->ready[1]);
	return status;
}

static const char *status_str(int status)
{
	static char buf[64];

	if (WIFEXITED(status))
		snprintf(buf, sizeof(buf), "exit %d", WEXITSTATUS(status));
	else
		snprintf(buf, sizeof(buf), "signal %d", WTERMSIG(status));
	return buf;
}

static void phase_faults(const char *dev1)
{
	const size_t len = 4 << 20;
	struct victim by, v;
	long before, used, after, injected;
	int status, err, err2;
	char why[256] = "";

	snprintf(fail_knob, sizeof(fail_knob), "/sys/block/%s/make-it-fail",
		 strrchr(dev2, '/') + 1);
	if (access(fail_knob, W_OK) || access(FI "times", W_OK)) {
		tap_skip("faults: no fail_make_request (CONFIG_FAIL_MAKE_REQUEST, CONFIG_FAULT_INJECTION_DEBUG_FS)");
		return;
	}
	before = settled_usage(dev1, why, sizeof(why));
	if (before < 0) {
		tap(0, "faults: %s", why);
		return;
	}
	/* a bystander's data goes to the first device only */
	swapoff(dev2);
	victim_start(&by, len, mix64(seed + 1), 0);
	/* everything from now on goes to the second device, which will fail */
	if (do_swapon(dev2, SWAP_PRIO + 1)) {
		tap(0, "faults: swapon %s: %s", dev2, strerror(errno));
		victim_finish(&by);
		return;
	}

	used = swap_used_kib(dev2);
	victim_start(&v, len, mix64(seed + 2), 0);
	used = swap_used_kib(dev2) - used;
	faults(1);
	status = victim_finish(&v);
	faults(0);
	tap(used >= (long)(len / 1024 / 2) && WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS,
	    "faults: swap-in error kills the process with SIGBUS (%ld KiB on %s; %s)",
	    used, dev2, status_str(status));

	victim_start(&v, len, mix64(seed + 3), 1);
	injected = st->faults;
	faults(1);
	status = victim_finish(&v);
	faults(0);
	injected = st->faults - injected;
	tap(injected > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "faults: swap-out error keeps the data (%ld write errors injected; %s)",
	    injected, status_str(status));

	victim_start(&v, len, mix64(seed + 4), 0);
	faults(1);
	err = swapoff_bounded(dev2, 300);
	faults(0);
	err2 = err ? swapoff_bounded(dev2, 300) : 0;
	status = victim_finish(&v);
	/* every page read back right, or the process got SIGBUS */
	tap(err != ETIMEDOUT && !err2 &&
	    ((WIFEXITED(status) && WEXITSTATUS(status) == 0) ||
	     (WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS)),
	    "faults: swapoff of a failing device finishes (swapoff: %s; then %s), its user reads good data or gets SIGBUS (%s)",
	    err ? strerror(err) : "ok", err2 ? strerror(err2) : "off", status_str(status));

	status = victim_finish(&by);
	tap(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "faults: a bystander on %s keeps its data (%s)", dev1, status_str(status));

	after = settled_usage(dev1, why, sizeof(why));
	if (after < 0)
		tap(0, "faults: swap usage restored: %s", why);
	else
		tap(after == before, "faults: swap usage restored (%ld KiB before, %ld KiB after)",
		    before, after);
}

/* ------------------------------------------------------------ badinput */

static void expect(const char *what, long ret, int want_errno)
{
	int e = errno;

	if (want_errno)
		tap(ret == -1 && e == want_errno, "badinput: %s: %s (want %s)",
		    what, ret == -1 ? strerror(e) : "success", strerror(want_errno));
	else
		tap(ret == 0, "badinput: %s: %s (want success)",
		    what, ret ? strerror(e) : "success");
}

static char *patterned(size_t len, int flags, int fd, uint64_t k)
{
	char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, fd, 0);
	size_t i;

	if (m == MAP_FAILED)
		return NULL;
	for (i = 0; i < len / 8; i++)
		((uint64_t *)m)[i] = k ^ (i * GOLD);
	return m;
}

static int intact(char *m, size_t len, uint64_t k)
{
	size_t i;

	for (i = 0; i < len / 8; i++)
		if (((uint64_t *)m)[i] != (k ^ (i * GOLD)))
			return 0;
	return 1;
}

static void pageout_keeps(const char *what, char *m, size_t len, uint64_t k,
			  int want_errno)
{
	char buf[128];
	long ret;

	if (!m) {
		tap_skip("badinput: %s: cannot map it: %s", what, strerror(errno));
		return;
	}
	ret = madvise(m, len, MADV_PAGEOUT);
	snprintf(buf, sizeof(buf), "MADV_PAGEOUT on %s", what);
	expect(buf, ret, want_errno);
	tap(intact(m, len, k), "badinput: %s reads back intact after MADV_PAGEOUT", what);
}

/* A swap header that claims LAST_PAGE pages, written to DEV. */
static int write_swap_header(const char *dev, unsigned int last_page)
{
	char page[PG] = { 0 };
	unsigned int *info = (unsigned int *)(page + 1024);
	int fd = open(dev, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	info[0] = 1;		/* version */
	info[1] = last_page;
	memcpy(page + PG - 10, "SWAPSPACE2", 10);
	ok = pwrite(fd, page, PG, 0) == (ssize_t)PG;
	close(fd);
	return ok ? 0 : -1;
}

static void badinput_uffd(void)
{
	const size_t len = 1 << 20;
	uint64_t k = mix64(seed + 20);
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { 0 };
	char *m = patterned(len, MAP_PRIVATE | MAP_ANONYMOUS, -1, k);
	int fd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);

	if (fd < 0 || ioctl(fd, UFFDIO_API, &api)) {
		tap_skip("badinput: userfaultfd: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		munmap(m, len);
		return;
	}
	reg.range.start = (uintptr_t)m;
	reg.range.len = len;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(fd, UFFDIO_REGISTER, &reg)) {
		tap_skip("badinput: UFFDIO_REGISTER: %s", strerror(errno));
	} else {
		pageout_keeps("userfaultfd-registered memory", m, len, k, 0);
	}
	close(fd);
	munmap(m, len);
}

static void badinput_process_madvise(void)
{
	const size_t len = 8 << 20;
	struct iovec iov;
	int pidfd, status, i, bad = 0, calls = 0;
	long ret;
	pid_t pid;
	char *m = patterned(len, MAP_PRIVATE | MAP_ANONYMOUS, -1, 1);

	/* a zombie: its pid is there, its mm is gone */
	pid = fork();
	if (pid == 0)
		_exit(0);
	pidfd = syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0) {
		tap_skip("badinput: pidfd_open: %s", strerror(errno));
		waitpid(pid, &status, 0);
		munmap(m, len);
		return;
	}
	usleep(100000);
	iov.iov_base = m;
	iov.iov_len = len;
	ret = syscall(SYS_process_madvise, pidfd, &iov, 1, MADV_PAGEOUT, 0);
	expect("process_madvise(MADV_PAGEOUT) on a zombie", ret, ESRCH);
	waitpid(pid, &status, 0);
	ret = syscall(SYS_process_madvise, pidfd, &iov, 1, MADV_PAGEOUT, 0);
	expect("process_madvise(MADV_PAGEOUT) on a reaped process", ret, ESRCH);
	close(pidfd);

	/* a process killed while we page it out */
	for (i = 0; i < 4; i++) {
		pid = fork();
		if (pid == 0) {
			char *c = patterned(len, MAP_PRIVATE | MAP_ANONYMOUS, -1, 2);

			(void)c;
			pause();
			_exit(0);
		}
		usleep(200000);
		pidfd = syscall(SYS_pidfd_open, pid, 0);
		kill(pid, SIGKILL);
		do {
			calls++;
			ret = syscall(SYS_process_madvise, pidfd, &iov, 1, MADV_PAGEOUT, 0);
			if (ret < 0 && errno != ESRCH && errno != ENOMEM && errno != EFAULT)
				bad++;
		} while (ret >= 0 || errno == ENOMEM || errno == EFAULT);
		waitpid(pid, &status, 0);
		close(pidfd);
	}
	tap(!bad, "badinput: process_madvise on a dying process: %d calls, each succeeded or failed with ESRCH/ENOMEM/EFAULT (%d others)",
	    calls, bad);

	/* another live process (on itself, newer kernels allow any advice) */
	pid = fork();
	if (pid == 0) {
		pause();
		_exit(0);
	}
	pidfd = syscall(SYS_pidfd_open, pid, 0);
	ret = syscall(SYS_process_madvise, pidfd, &iov, 1, MADV_DONTNEED, 0);
	expect("process_madvise(MADV_DONTNEED) on another process (not allowed)", ret, EINVAL);
	ret = syscall(SYS_process_madvise, pidfd, &iov, 1, MADV_PAGEOUT, 1);
	expect("process_madvise with unknown flags", ret, EINVAL);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	close(pidfd);
	munmap(m, len);
}

static void badinput_swapon(void)
{
	char path[64], cmd[128];
	long id = read_long("/sys/class/zram-control/hot_add");
	int fd;

	if (id < 0) {
		tap_skip("badinput: swapon cases: no zram device to add");
		return;
	}
	snprintf(path, sizeof(path), "/sys/block/zram%ld/disksize", id);
	write_file(path, "1M");
	snprintf(path, sizeof(path), "/dev/zram%ld", id);
	expect("swapon of a device with no swap signature", swapon(path, 0), EINVAL);
	write_swap_header(path, 4096);	/* 16 MiB claimed on a 1 MiB device */
	expect("swapon of a device shorter than its swap header", swapon(path, 0), EINVAL);
	write_swap_header(path, 0);
	expect("swapon of an empty swap area", swapon(path, 0), EINVAL);
	if (!swap_active(dev2))
		do_swapon(dev2, SWAP_PRIO);
	expect("swapon of a device already in use", swapon(dev2, 0), EBUSY);
	expect("swapon of a missing path", swapon("/dev/no-such-swap", 0), ENOENT);
	expect("swapoff of a device that is not swap", swapoff(path), EINVAL);

	/* tmpfs has no block map: a swap file on it is refused as having holes */
	fd = open("/tmp/swap-stress.swap", O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0 && !ftruncate(fd, 16 << 20)) {
		close(fd);
		snprintf(cmd, sizeof(cmd), "mkswap /tmp/swap-stress.swap >/dev/null 2>&1");
		if (system(cmd))
			tap_skip("badinput: mkswap on a sparse file failed");
		else
			expect("swapon of a sparse file on tmpfs (holes)",
			       swapon("/tmp/swap-stress.swap", 0), EINVAL);
	} else {
		tap_skip("badinput: cannot make a sparse file");
	}
	unlink("/tmp/swap-stress.swap");
	snprintf(path, sizeof(path), "%ld", id);
	write_file("/sys/class/zram-control/hot_remove", path);
}

static void phase_badinput(void)
{
	const size_t len = 1 << 20;
	long pgsz = PG;
	char *m = patterned(len, MAP_PRIVATE | MAP_ANONYMOUS, -1, 3);
	char *hole;
	int fd;

	expect("MADV_PAGEOUT at an unaligned address", madvise(m + 1, PG, MADV_PAGEOUT), EINVAL);
	expect("MADV_PAGEOUT with a length that wraps around",
	       madvise(m, (size_t)-pgsz, MADV_PAGEOUT), EINVAL);
	expect("MADV_PAGEOUT with length -1", madvise(m, (size_t)-1, MADV_PAGEOUT), EINVAL);
	expect("an unknown advice", madvise(m, len, 12345), EINVAL);
	hole = mmap(NULL, 3 * PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(hole, 3 * PG);
	expect("MADV_PAGEOUT on an unmapped range", madvise(hole, 3 * PG, MADV_PAGEOUT), ENOMEM);
	expect("MADV_PAGEOUT of zero bytes", madvise(m, 0, MADV_PAGEOUT), 0);
	tap(intact(m, len, 3), "badinput: private memory intact after the bad calls");
	munmap(m, len);

	m = patterned(len, MAP_SHARED | MAP_ANONYMOUS, -1, 4);
	pageout_keeps("shared anonymous memory", m, len, 4, 0);
	expect("MADV_FREE on shared memory", madvise(m, len, MADV_FREE), EINVAL);
	munmap(m, len);

	fd = open("/tmp/swap-stress.file", O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0 && !ftruncate(fd, len)) {
		m = patterned(len, MAP_SHARED, fd, 5);
		pageout_keeps("a shared tmpfs file mapping", m, len, 5, 0);
		munmap(m, len);
		m = patterned(len, MAP_PRIVATE, fd, 6);
		pageout_keeps("a private file mapping with COW pages", m, len, 6, 0);
		munmap(m, len);
	} else {
		tap_skip("badinput: no tmpfs file");
	}
	if (fd >= 0)
		close(fd);
	unlink("/tmp/swap-stress.file");

	write_file("/proc/sys/vm/nr_hugepages", "2");
	m = patterned(2 << 20, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 7);
	pageout_keeps("hugetlb memory", m, 2 << 20, 7, EINVAL);
	if (m)
		munmap(m, 2 << 20);
	write_file("/proc/sys/vm/nr_hugepages", "0");

	m = patterned(len, MAP_PRIVATE | MAP_ANONYMOUS, -1, 8);
	if (m && !mlock(m, len))
		pageout_keeps("mlocked memory", m, len, 8, EINVAL);
	else
		tap_skip("badinput: mlock: %s", strerror(errno));
	munmap(m, len);

	m = patterned(len, MAP_PRIVATE | MAP_ANONYMOUS, -1, 9);
	if (mprotect(m, len, PROT_NONE) == 0) {
		expect("MADV_PAGEOUT on PROT_NONE memory", madvise(m, len, MADV_PAGEOUT), 0);
		mprotect(m, len, PROT_READ);
		tap(intact(m, len, 9), "badinput: PROT_NONE memory intact after MADV_PAGEOUT");
	}
	munmap(m, len);

	badinput_uffd();
	badinput_process_madvise();
	badinput_swapon();
}

/* ---------------------------------------------------------------- main */

static void usage(void)
{
	fprintf(stderr, "usage: swap-stress [-a 0|1] [-s SEED] [-r ROUNDS | -t SECONDS] [-w WORKERS] [-k KIB] [-M MEMCG_KIB] [churn|faults|badinput]...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	char dev1[128];
	int c, i, do_churn = 0, do_faults = 0, do_bad = 0, iter = 0;
	double t0 = now(), end;
	uint64_t seed0;

	seed = time(NULL);
	while ((c = getopt(argc, argv, "a:ns:r:t:w:k:M:")) != -1) {
		switch (c) {
		case 'n': opt_noswap = 1; break;
		case 'a': opt_all_sizes = atoi(optarg); break;
		case 's': seed = strtoull(optarg, NULL, 10); break;
		case 'r': opt_rounds = atol(optarg); break;
		case 't': opt_seconds = atol(optarg); break;
		case 'w': opt_workers = atoi(optarg); break;
		case 'k': opt_kib = atol(optarg); break;
		case 'M': opt_memcg_kib = atol(optarg); break;
		default: usage();
		}
	}
	for (i = optind; i < argc; i++) {
		if (!strcmp(argv[i], "churn"))
			do_churn = 1;
		else if (!strcmp(argv[i], "faults"))
			do_faults = 1;
		else if (!strcmp(argv[i], "badinput"))
			do_bad = 1;
		else
			usage();
	}
	if (optind == argc)
		do_churn = do_faults = do_bad = 1;
	if (opt_workers < 1 || opt_workers > 32 || opt_rounds < 1)
		usage();
	seed0 = seed;
	setvbuf(stdout, NULL, _IOLBF, 0);
	st = mmap(NULL, sizeof(*st), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (st == MAP_FAILED)
		return 2;
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (opt_all_sizes)
		thp_all(0);
	find_sizes();
	printf("# swap-stress: seed %llu (repeat with -s %llu); %s %ld; sizes:",
	       (unsigned long long)seed, (unsigned long long)seed,
	       opt_seconds ? "seconds" : "rounds", opt_seconds ?: opt_rounds);
	for (i = 0; i < nsizes; i++)
		printf(" %zuK", sizes[i] / 1024);
	printf("\n");
	if (opt_noswap)
		snprintf(dev1, sizeof(dev1), "none");
	else if (setup_swap(dev1, sizeof(dev1)))
		return 1;
	printf("# swap devices: %s and %s (priority %d both)\n", dev1, dev2, SWAP_PRIO);

	/* timed runs repeat churn and faults until the time is up */
	end = t0 + opt_seconds;
	do {
		seed = seed0 + iter++;
		/* rounds of at most 5 minutes of churn, each followed by faults */
		churn_seconds = end - now() > 300 ? 300 : end - now();
		if (churn_seconds < 1)
			churn_seconds = 1;
		if (do_churn)
			phase_churn(dev1);
		if (do_faults)
			phase_faults(dev1);
	} while ((do_churn || do_faults) && opt_seconds && now() < end && !st->errors);
	seed = seed0;
	if (do_bad)
		phase_badinput();

	if (opt_all_sizes)
		thp_all(1);
	printf("1..%d\n", cases);
	printf("# swap-stress summary: seed=%llu iterations=%d processes=%ld rounds=%ld pages-verified=%ld pages-written=%ld forks=%ld pageouts=%ld faults-injected=%ld swapoffs=%ld swapoffs-refused=%ld errors=%ld cases=%d failed=%d seconds=%.0f\n",
	       (unsigned long long)seed0, iter, st->procs, st->rounds, st->verified,
	       st->written, st->forks, st->pageouts, st->faults, st->swapoffs,
	       st->swapoff_busy, st->errors, cases, failed_cases, now() - t0);
	if (st->errors)
		printf("# first error: %s\n", st->first_error);
	return failed_cases || st->errors ? 1 : 0;
}
