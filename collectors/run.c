/* fork/exec with a pipe, poll() against a deadline, SIGKILL to the process
 * group at the timeout. */
#include "collectors/run.h"

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
 * a C locale; exec errors go back through errfd. */
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
	execvp(argv[0], (char *const *)argv);
	e = errno;
	if (write(errfd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int run_command(const char *const argv[], unsigned timeout_ms, size_t max_out,
		struct run_result *res)
{
	struct strbuf out = STRBUF_INIT;
	int pipefd[2], errpipe[2], status = 0, exec_errno = 0;
	double start = now(), deadline = start + timeout_ms / 1000.0;
	bool timed_out = false;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	if (pipe2(errpipe, O_CLOEXEC)) {
		close(pipefd[0]);
		close(pipefd[1]);
		return -errno;
	}
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(pipefd[0]);
		close(pipefd[1]);
		close(errpipe[0]);
		close(errpipe[1]);
		return -e;
	}
	if (pid == 0)
		child(argv, pipefd[1], errpipe[1]);
	setpgid(pid, pid);
	close(pipefd[1]);
	close(errpipe[1]);
	for (;;) {
		struct pollfd pfd = { pipefd[0], POLLIN, 0 };
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
		n = read(pipefd[0], buf, sizeof(buf));
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
	kill(-pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	close(pipefd[0]);
	if (read(errpipe[0], &exec_errno, sizeof(exec_errno)) !=
	    sizeof(exec_errno))
		exec_errno = 0;
	close(errpipe[0]);
	res->seconds = now() - start;
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

void run_result_release(struct run_result *res)
{
	free(res->out);
	res->out = NULL;
	res->len = 0;
}
