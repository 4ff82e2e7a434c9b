/* A pool of worker processes: each task runs in a process forked for it,
 * at most a given number at once, and sends its result back over a pipe.
 * Processes, not threads: the engine keeps process-wide state (the symbol
 * table, the log-scan cache), and a bundle that crashes its analysis takes
 * only its own process down. */
#ifndef RD_POOL_H
#define RD_POOL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

enum pool_outcome {
	POOL_DONE, /* the task's process exited with status 0 */
	POOL_FAILED, /* exited otherwise, was killed, or could not start */
	POOL_TIMED_OUT, /* killed at the time limit */
	POOL_INTERRUPTED, /* stopped, or never started, on an interrupt */
};

struct pool_result {
	size_t index;
	enum pool_outcome outcome;
	int status; /* waitpid() status; the errno when fork failed */
	bool started; /* false: fork failed, or the pool stopped first */
	const char *output; /* what the task wrote, NUL-terminated, borrowed */
	size_t len;
	double seconds; /* wall time of the task */
};

struct pool_opts {
	unsigned jobs; /* processes at once, at least 1 */
	unsigned timeout_ms; /* per task; 0 = none */
	/* In the task's process: writes the task's result to fd.  Returns
	 * the process's exit status. */
	int (*work)(void *arg, size_t index, int fd);
	/* In the calling process, once for every task, in index order. */
	void (*done)(void *arg, const struct pool_result *r);
	/* In the calling process, as tasks finish and a few times a second
	 * meanwhile; may be NULL. */
	void (*tick)(void *arg, size_t finished, size_t total);
	void *arg;
};

/* Runs ntasks tasks.  SIGINT and SIGTERM stop the pool: running tasks are
 * killed, and they and the tasks not started are delivered as
 * POOL_INTERRUPTED.  Returns 0, or -EINTR when interrupted (the signal is
 * in *signo when signo is not NULL). */
int pool_run(size_t ntasks, const struct pool_opts *o, int *signo);

/* Kills every worker of the running pool (SIGKILL).  Async-signal-safe:
 * for --deadline's handler. */
void pool_kill_all(void);

/* Writes all n bytes of s to fd (a task's result pipe).  Returns 0, or
 * -1 when the reader has gone. */
int pool_write(int fd, const char *s, size_t n);

/* The processors this process may run on, at least 1. */
unsigned pool_cpus(void);

#endif
