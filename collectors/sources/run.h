/* Running a read-only diagnostic command: argv only (never a shell), its
 * own process group, a timeout after which the group is killed, and a cap
 * on the output kept. */
#ifndef RD_RUN_H
#define RD_RUN_H

#include <stdbool.h>
#include <stddef.h>

enum run_status {
	RUN_OK, /* ran and exited (any exit code) */
	RUN_NOT_FOUND, /* no such program */
	RUN_TIMEOUT, /* killed at the timeout */
	RUN_FAILED, /* could not start, or killed by a signal */
};

struct run_result {
	enum run_status status;
	int exit_code; /* when RUN_OK */
	int signal; /* when killed by a signal */
	char *out; /* stdout and stderr interleaved; NUL-terminated */
	size_t len;
	bool truncated; /* more output than the cap */
	double seconds;
};

/* Runs argv[0] (searched in PATH) with LC_ALL=C, stdin from /dev/null.
 * Returns 0 when the result describes what happened (see status), or a
 * negative errno when the runner itself failed.  res->out is owned. */
int run_command(const char *const argv[], unsigned timeout_ms, size_t max_out,
		struct run_result *res);
void run_result_release(struct run_result *res);

/* run_command in two steps, for a command that runs beside others (a
 * perftest server): start it, then collect it by its deadline (counted
 * from the start). */
struct run_proc {
	int pid;
	int out, err; /* output pipe, exec-error pipe */
	double start;
};

int run_start(const char *const argv[], struct run_proc *p);
int run_finish(struct run_proc *p, unsigned timeout_ms, size_t max_out,
	       struct run_result *res);

/* Kills every running tool with its process group.  Async-signal-safe:
 * for a signal handler of the caller's own. */
void run_kill_all(void);
/* Installs, once, handlers for SIGINT, SIGTERM and SIGHUP that kill every
 * running tool and its group, then let the signal do what it did before
 * (a signal ignored stays ignored).  run_start calls it; each tool also
 * dies with rdmadoctor itself (PR_SET_PDEATHSIG). */
void run_guard_signals(void);

#endif
