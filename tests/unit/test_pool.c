/* pool: every task delivered once, in index order, whatever the order
 * the processes finish in; a crash, a hang past the time limit and an
 * interrupt each reported as such; a worker serves many tasks, and is
 * replaced after a crash and after its share. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/pool.h"

#define NTASKS 12
#define BIG (200 * 1000) /* more than a pipe holds */

struct seen {
	size_t n;
	size_t index[NTASKS];
	enum pool_outcome outcome[NTASKS];
	int status[NTASKS];
	char out[NTASKS][32];
	size_t len[NTASKS];
	size_t ticks_max;
	int interrupt_after; /* raise SIGINT once this many are done */
};

/* Later tasks finish first: task i sleeps (NTASKS - i) ms. */
static int work_ordered(void *arg, size_t i, int fd)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "task %zu", i);

	(void)arg;
	usleep((useconds_t)(NTASKS - i) * 1000);
	return pool_write(fd, buf, (size_t)n) ? 1 : 0;
}

static void done(void *arg, const struct pool_result *r)
{
	struct seen *s = arg;

	assert_true(s->n < NTASKS);
	s->index[s->n] = r->index;
	s->outcome[s->n] = r->outcome;
	s->status[s->n] = r->status;
	s->len[s->n] = r->len;
	snprintf(s->out[s->n], sizeof(s->out[s->n]), "%s", r->output);
	s->n++;
	if (s->interrupt_after && (int)s->n == s->interrupt_after)
		raise(SIGINT);
}

static void tick(void *arg, size_t finished, size_t total)
{
	struct seen *s = arg;

	assert_int_equal(total, NTASKS);
	assert_true(finished <= total);
	if (finished > s->ticks_max)
		s->ticks_max = finished;
}

static void test_in_order(void **state)
{
	struct seen s = { 0 };
	struct pool_opts o = { .jobs = 4,
			       .work = work_ordered,
			       .done = done,
			       .tick = tick,
			       .arg = &s };

	(void)state;
	assert_int_equal(pool_run(NTASKS, &o, NULL), 0);
	assert_int_equal(s.n, NTASKS);
	for (size_t i = 0; i < NTASKS; i++) {
		char want[32];

		snprintf(want, sizeof(want), "task %zu", i);
		assert_int_equal(s.index[i], i);
		assert_int_equal(s.outcome[i], POOL_DONE);
		assert_string_equal(s.out[i], want);
	}
	assert_int_equal(s.ticks_max, NTASKS);
}

/* Task 1 crashes, task 2 hangs, task 3 exits 3, task 4 writes more than
 * a pipe holds; the rest answer. */
static int work_mixed(void *arg, size_t i, int fd)
{
	(void)arg;
	if (i == 1)
		abort();
	if (i == 2)
		pause();
	if (i == 3)
		return 3;
	if (i == 4) {
		char *big = malloc(BIG);
		int rc;

		memset(big, 'x', BIG);
		rc = pool_write(fd, big, BIG) ? 1 : 0;
		free(big);
		return rc;
	}
	return pool_write(fd, "ok", 2) ? 1 : 0;
}

static void test_failures(void **state)
{
	struct seen s = { 0 };
	struct pool_opts o = { .jobs = 3,
			       .timeout_ms = 300,
			       .work = work_mixed,
			       .done = done,
			       .arg = &s };

	(void)state;
	assert_int_equal(pool_run(NTASKS, &o, NULL), 0);
	assert_int_equal(s.n, NTASKS);
	assert_int_equal(s.outcome[0], POOL_DONE);
	assert_string_equal(s.out[0], "ok");
	assert_int_equal(s.outcome[1], POOL_FAILED);
	assert_true(WIFSIGNALED(s.status[1]));
	assert_int_equal(WTERMSIG(s.status[1]), SIGABRT);
	assert_int_equal(s.outcome[2], POOL_TIMED_OUT);
	assert_int_equal(s.outcome[3], POOL_FAILED);
	assert_true(WIFEXITED(s.status[3]));
	assert_int_equal(WEXITSTATUS(s.status[3]), 3);
	assert_int_equal(s.outcome[4], POOL_DONE);
	assert_int_equal(s.len[4], BIG);
	for (size_t i = 5; i < NTASKS; i++)
		assert_int_equal(s.outcome[i], POOL_DONE);
}

static int work_slow(void *arg, size_t i, int fd)
{
	(void)arg;
	(void)i;
	usleep(20 * 1000);
	return pool_write(fd, "ok", 2) ? 1 : 0;
}

static void test_interrupt(void **state)
{
	struct seen s = { .interrupt_after = 2 };
	struct pool_opts o = {
		.jobs = 1, .work = work_slow, .done = done, .arg = &s
	};
	int signo = 0;

	(void)state;
	assert_int_equal(pool_run(NTASKS, &o, &signo), -EINTR);
	assert_int_equal(signo, SIGINT);
	assert_int_equal(s.n, NTASKS);
	assert_int_equal(s.outcome[0], POOL_DONE);
	assert_int_equal(s.outcome[1], POOL_DONE);
	for (size_t i = 3; i < NTASKS; i++)
		assert_int_equal(s.outcome[i], POOL_INTERRUPTED);
}

/* Whether process pid has died and waits to be reaped. */
static bool is_zombie(pid_t pid)
{
	char path[64], buf[256];
	FILE *f;
	char *close_paren;
	bool z = false;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f) && (close_paren = strrchr(buf, ')')))
		z = close_paren[1] == ' ' && close_paren[2] == 'Z';
	fclose(f);
	return z;
}

#define MANY 600

struct pids {
	size_t n;
	pid_t pid[MANY];
	enum pool_outcome outcome[MANY];
};

/* Writes the worker's pid; task 10 crashes its worker. */
static int work_pid(void *arg, size_t i, int fd)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%ld", (long)getpid());

	(void)arg;
	if (i == 10)
		abort();
	return pool_write(fd, buf, (size_t)n) ? 1 : 0;
}

static void done_pid(void *arg, const struct pool_result *r)
{
	struct pids *s = arg;

	assert_int_equal(r->index, s->n);
	s->outcome[s->n] = r->outcome;
	s->pid[s->n++] = r->outcome == POOL_DONE ? atol(r->output) : 0;
}

static void test_workers_live_long(void **state)
{
	struct pids s = { 0 };
	struct pool_opts o = {
		.jobs = 1, .work = work_pid, .done = done_pid, .arg = &s
	};
	size_t workers = 1;

	(void)state;
	assert_int_equal(pool_run(MANY, &o, NULL), 0);
	assert_int_equal(s.n, MANY);
	assert_int_equal(s.outcome[10], POOL_FAILED);
	for (size_t i = 0; i < MANY; i++)
		if (i != 10)
			assert_int_equal(s.outcome[i], POOL_DONE);
	/* one worker for tasks 0-9, a new one after the crash */
	for (size_t i = 1; i < 10; i++)
		assert_int_equal(s.pid[i], s.pid[0]);
	assert_true(s.pid[11] != s.pid[0]);
	for (size_t i = 12; i < MANY; i++)
		if (s.pid[i] != s.pid[i - 1])
			workers++;
	/* the one after the crash serves its share, then another takes
	 * over: more than one, far fewer than a process per task */
	assert_true(workers >= 3 && workers <= 6);
}

/* Kills the worker that ran task 5 once its result is in: the worker
 * then dies idle, and task 6 must go to a new one, not fail with it. */
static void done_kill_idle(void *arg, const struct pool_result *r)
{
	struct pids *s = arg;
	pid_t pid;

	done_pid(arg, r);
	if (r->index != 5 || !(pid = s->pid[5]))
		return;
	kill(pid, SIGKILL);
	for (int i = 0; i < 500 && !is_zombie(pid); i++)
		usleep(10000);
	assert_true(is_zombie(pid));
}

static void test_worker_dies_idle(void **state)
{
	struct pids s = { 0 };
	struct pool_opts o = {
		.jobs = 1, .work = work_pid, .done = done_kill_idle, .arg = &s
	};

	(void)state;
	assert_int_equal(pool_run(8, &o, NULL), 0);
	assert_int_equal(s.n, 8);
	for (size_t i = 0; i < 8; i++)
		assert_int_equal(s.outcome[i], POOL_DONE);
	assert_true(s.pid[6] != s.pid[5]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_order),
		cmocka_unit_test(test_failures),
		cmocka_unit_test(test_interrupt),
		cmocka_unit_test(test_workers_live_long),
		cmocka_unit_test(test_worker_dies_idle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
