/* A pool of worker processes, at most a given number at once: each runs
 * task after task (up to a few hundred, fewer when its memory grows) and
 * sends each result back over a pipe.  Processes, not threads: the engine
 * keeps process-wide state (the symbol table, the log-scan cache), and a
 * task that crashes or hangs takes only its worker down: that task is
 * reported as such, and a new worker takes the rest. */
#ifndef RD_POOL_H
#define RD_POOL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

enum pool_outcome {
	POOL_DONE, /* work returned 0 */
	POOL_FAILED, /* returned otherwise, its worker died on it, or none could start */
	POOL_TIMED_OUT, /* killed at the time limit */
	POOL_INTERRUPTED, /* stopped, or never started, on an interrupt */
};

struct pool_result {
	size_t index;
	enum pool_outcome outcome;
	/* waitpid()-style: the exit status work returned, or how the worker
	 * died on the task; the errno when fork failed */
	int status;
	bool started; /* false: fork failed, or the pool stopped first */
	const char *output; /* what the task wrote, NUL-terminated, borrowed */
	size_t len;
	double seconds; /* wall time of the task */
};

struct pool_opts {
	unsigned jobs; /* processes at once, at least 1 */
	unsigned timeout_ms; /* per task; 0 = none */
	/* In a worker process: writes the task's result to fd.  Returns
	 * the task's status (0: done, else failed, as an exit status); the
	 * worker then waits for its next task, so work must leave the
	 * process as it found it (free what it made). */
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
