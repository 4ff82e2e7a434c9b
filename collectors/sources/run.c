/* fork/exec with a pipe, poll() against a deadline, SIGKILL to the process
 * group at the timeout. */
#include "collectors/sources/run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/strbuf.h"
#include "engine/xalloc.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* In the child: own process group, fds 0-2 wired, everything else closed,
 * a C locale, and libibverbs' warnings on (IBV_SHOW_WARNINGS: without it,
 * rdma-core's init.c keeps quiet about a device it drops for want of a
 * provider or for an ABI it does not speak, and a tool only says "No IB
 * devices found"); exec errors go back through errfd. */
static void child(const char *const argv[], int outfd, int errfd)
{
	int devnull = open("/dev/null", O_RDONLY);
	int e;

	setpgid(0, 0);
	signal(SIGPIPE, SIG_DFL);
	if (devnull >= 0)
		dup2(devnull, 0);
	dup2(outfd, 1);
	dup2(outfd, 2);
	for (int fd = 3; fd < 1024; fd++)
		if (fd != errfd)
			close(fd);
	setenv("LC_ALL", "C", 1);
	unsetenv("LANGUAGE");
	setenv("IBV_SHOW_WARNINGS", "1", 1);
	execvp(argv[0], (char *const *)argv);
	e = errno;
	if (write(errfd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int run_start(const char *const argv[], struct run_proc *p)
{
	int pipefd[2], errpipe[2];

	memset(p, 0, sizeof(*p));
	p->start = now();
	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	if (pipe2(errpipe, O_CLOEXEC)) {
		int e = errno;

		close(pipefd[0]);
		close(pipefd[1]);
		return -e;
	}
	p->pid = fork();
	if (p->pid < 0) {
		int e = errno;

		close(pipefd[0]);
		close(pipefd[1]);
		close(errpipe[0]);
		close(errpipe[1]);
		return -e;
	}
	if (p->pid == 0)
		child(argv, pipefd[1], errpipe[1]);
	setpgid(p->pid, p->pid);
	close(pipefd[1]);
	close(errpipe[1]);
	p->out = pipefd[0];
	p->err = errpipe[0];
	return 0;
}

int run_finish(struct run_proc *p, unsigned timeout_ms, size_t max_out,
	       struct run_result *res)
{
	struct strbuf out = STRBUF_INIT;
	double deadline = p->start + timeout_ms / 1000.0;
	int status = 0, exec_errno = 0;
	bool timed_out = false;

	memset(res, 0, sizeof(*res));
	for (;;) {
		struct pollfd pfd = { p->out, POLLIN, 0 };
		double left = deadline - now();
		char buf[8192];
		ssize_t n;

		if (left <= 0) {
			timed_out = true;
			break;
		}
		if (poll(&pfd, 1, (int)(left * 1000) + 1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (!pfd.revents)
			continue;
		n = read(p->out, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (out.len < max_out)
			sb_add(&out, buf,
			       out.len + (size_t)n > max_out ?
				       max_out - out.len :
				       (size_t)n);
		if (out.len >= max_out)
			res->truncated = true;
	}
	/* The group goes in every case: a tool that exited may leave
	 * children behind holding the pipe. */
	kill(-p->pid, SIGKILL);
	while (waitpid(p->pid, &status, 0) < 0 && errno == EINTR)
		;
	close(p->out);
	if (read(p->err, &exec_errno, sizeof(exec_errno)) != sizeof(exec_errno))
		exec_errno = 0;
	close(p->err);
	res->seconds = now() - p->start;
	res->len = out.len;
	res->out = sb_detach(&out);
	if (exec_errno) {
		res->status = exec_errno == ENOENT ? RUN_NOT_FOUND : RUN_FAILED;
		res->exit_code = -exec_errno;
	} else if (timed_out) {
		res->status = RUN_TIMEOUT;
	} else if (WIFEXITED(status)) {
		res->status = RUN_OK;
		res->exit_code = WEXITSTATUS(status);
	} else {
		res->status = RUN_FAILED;
		res->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	}
	return 0;
}

int run_command(const char *const argv[], unsigned timeout_ms, size_t max_out,
		struct run_result *res)
{
	struct run_proc p;
	int err = run_start(argv, &p);

	if (err) {
		memset(res, 0, sizeof(*res));
		return err;
	}
	return run_finish(&p, timeout_ms, max_out, res);
}

void run_result_release(struct run_result *res)
{
	free(res->out);
	res->out = NULL;
	res->len = 0;
}
