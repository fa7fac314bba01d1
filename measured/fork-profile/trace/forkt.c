/* fork of 64 MiB of swapped memory, N times: prints each fork's ms */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	size_t len = 64 << 20;
	int n = argc > 1 ? atoi(argv[1]) : 20, i;
	int mk = open("/sys/kernel/tracing/trace_marker", O_WRONLY);

	for (i = 0; i < n; i++) {
		char *m = mmap(0, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		int go[2];
		double t0, t1;
		pid_t pid;
		char b, msg[64];

		for (size_t o = 0; o < len; o += 8)
			*(unsigned long *)(m + o) = o * 2654435761u + i;
		madvise(m, len, MADV_PAGEOUT);
		pipe(go);
		t0 = now();
		pid = fork();
		if (!pid) {
			read(go[0], &b, 1);
			_exit(0);
		}
		t1 = now();
		snprintf(msg, sizeof(msg), "forkt %d %.3f\n", i, t1 - t0);
		if (mk >= 0)
			write(mk, msg, strlen(msg));
		printf("%s", msg);
		write(go[1], "g", 1);
		waitpid(pid, NULL, 0);
		close(go[0]);
		close(go[1]);
		munmap(m, len);
	}
	return 0;
}
