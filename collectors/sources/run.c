/* fork/exec with a pipe, poll() against a deadline, SIGKILL to the process
 * group at the timeout, and on SIGINT, SIGTERM or SIGHUP to rdmadoctor. */
#include "collectors/sources/run.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/strbuf.h"
#include "engine/xalloc.h"

extern char **environ;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- the running tools, where a signal handler may read them ---- */

#define RUN_MAX_LIVE 64 /* @@ tools running at once */

static volatile sig_atomic_t live[RUN_MAX_LIVE]; /* process group ids */
static const int guarded[] = { SIGINT, SIGTERM, SIGHUP };
static struct sigaction before[sizeof(guarded) / sizeof(*guarded)];
static pthread_once_t guard_once = PTHREAD_ONCE_INIT;

void run_kill_all(void)
{
	for (size_t i = 0; i < RUN_MAX_LIVE; i++) {
		pid_t pg = live[i];

		if (pg > 0)
			kill(-pg, SIGKILL);
	}
}

/* Every tool goes with its group; then the signal does what it did
 * before (another handler's work, or the default). */
static void on_signal(int sig)
{
	int saved_errno = errno;

	run_kill_all();
	for (size_t i = 0; i < sizeof(guarded) / sizeof(*guarded); i++)
		if (guarded[i] == sig)
			sigaction(sig, &before[i], NULL);
	raise(sig);
	errno = saved_errno;
}

static void install_guard(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(guarded) / sizeof(*guarded); i++) {
		sigaction(guarded[i], NULL, &before[i]);
		if (before[i].sa_handler == SIG_IGN)
			continue; /* nohup: the tools may stay too */
		sigaction(guarded[i], &sa, NULL);
	}
}

void run_guard_signals(void)
{
	pthread_once(&guard_once, install_guard);
}

static void track(pid_t pid)
{
	for (size_t i = 0; i < RUN_MAX_LIVE; i++) {
		sig_atomic_t expected = 0;

		if (__atomic_compare_exchange_n(&live[i], &expected, pid, false,
						__ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			return;
	}
	/* More than RUN_MAX_LIVE at once: PR_SET_PDEATHSIG still holds. */
}

static void untrack(pid_t pid)
{
	for (size_t i = 0; i < RUN_MAX_LIVE; i++) {
		sig_atomic_t expected = pid;

		if (__atomic_compare_exchange_n(&live[i], &expected, 0, false,
						__ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			return;
	}
}

/* ---- starting a tool ---- */

/* Everything the child needs, made before fork: after it, in a threaded
 * process, only async-signal-safe calls are allowed (no malloc, no
 * setenv, no PATH search by execvp). */
struct spawn {
	char **paths; /* candidates for argv[0], in PATH order */
	size_t npaths;
	/* environ with LC_ALL=C, no LANGUAGE, and libibverbs' warnings on
	 * (IBV_SHOW_WARNINGS: without it, rdma-core's init.c keeps quiet
	 * about a device it drops for want of a provider or for an ABI it
	 * does not speak, and a tool only says "No IB devices found") */
	char **envp;
	int devnull, outfd, errfd;
	pid_t parent;
};

static void spawn_release(struct spawn *sp)
{
	for (size_t i = 0; i < sp->npaths; i++)
		free(sp->paths[i]);
	free(sp->paths);
	if (sp->envp) {
		for (char **e = sp->envp; *e; e++)
			free(*e);
		free(sp->envp);
	}
	if (sp->devnull >= 0)
		close(sp->devnull);
}

static void spawn_prepare(struct spawn *sp, const char *prog)
{
	size_t n = 0, cap = 0;
	const char *path = getenv("PATH");

	if (strchr(prog, '/')) {
		sp->paths = xmalloc(sizeof(*sp->paths));
		sp->paths[sp->npaths++] = xstrdup(prog);
	} else {
		const char *p = path && *path ? path : "/usr/bin:/bin";

		for (;;) {
			const char *end = strchrnul(p, ':');
			size_t len = (size_t)(end - p);

			xgrow(&sp->paths, &cap, sp->npaths + 1,
			      sizeof(*sp->paths));
			sp->paths[sp->npaths++] =
				len ? xasprintf("%.*s/%s", (int)len, p, prog) :
				      xasprintf("%s", prog);
			if (!*end)
				break;
			p = end + 1;
		}
	}
	for (char **e = environ; *e; e++)
		n++;
	sp->envp = xcalloc(n + 3, sizeof(*sp->envp));
	n = 0;
	for (char **e = environ; *e; e++)
		if (strncmp(*e, "LC_ALL=", 7) && strncmp(*e, "LANGUAGE=", 9) &&
		    strncmp(*e, "IBV_SHOW_WARNINGS=", 18))
			sp->envp[n++] = xstrdup(*e);
	sp->envp[n++] = xstrdup("LC_ALL=C");
	sp->envp[n++] = xstrdup("IBV_SHOW_WARNINGS=1");
	sp->devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	sp->parent = getpid();
}

/* Closes every descriptor from 3 up except keep. */
static void close_from_3(int keep)
{
	if (keep > 3 && close_range(3, (unsigned)keep - 1, 0))
		for (int fd = 3; fd < keep; fd++)
			close(fd);
	if (close_range((unsigned)keep + 1, ~0u, 0)) {
		for (int fd = keep + 1; fd < 65536; fd++)
			close(fd);
	}
}

/* In the child, async-signal-safe calls only: its own process group,
 * killed when rdmadoctor dies, default signals, fds 0-2 wired, everything
 * else closed; exec errors go back through errfd. */
static void __attribute__((noreturn)) child(const char *const argv[],
					    const struct spawn *sp)
{
	struct sigaction dfl;
	sigset_t none;
	int e = ENOENT;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != sp->parent)
		_exit(127); /* the parent is already gone */
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (int sig = 1; sig < NSIG; sig++)
		sigaction(sig, &dfl, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (sp->devnull >= 0)
		dup2(sp->devnull, 0);
	dup2(sp->outfd, 1);
	dup2(sp->outfd, 2);
	close_from_3(sp->errfd);
	for (size_t i = 0; i < sp->npaths; i++) {
		execve(sp->paths[i], (char *const *)argv, sp->envp);
		if (errno != ENOENT && errno != ENOTDIR)
			e = errno; /* e.g. EACCES: remembered, as execvp does */
	}
	if (write(sp->errfd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int run_start(const char *const argv[], struct run_proc *p)
{
	struct spawn sp = { .devnull = -1 };
	int pipefd[2], errpipe[2], err = 0;
	sigset_t all, old;

	memset(p, 0, sizeof(*p));
	run_guard_signals();
	p->start = now();
	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	if (pipe2(errpipe, O_CLOEXEC)) {
		err = -errno;
		close(pipefd[0]);
		close(pipefd[1]);
		return err;
	}
	spawn_prepare(&sp, argv[0]);
	sp.outfd = pipefd[1];
	sp.errfd = errpipe[1];
	/* No handler may run in the child before its signals are reset, and
	 * the pid is tracked before a signal could want it. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	p->pid = fork();
	if (p->pid == 0)
		child(argv, &sp);
	if (p->pid > 0) {
		setpgid(p->pid, p->pid);
		track(p->pid);
	} else {
		err = -errno;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	spawn_release(&sp);
	close(pipefd[1]);
	close(errpipe[1]);
	if (err) {
		close(pipefd[0]);
		close(errpipe[0]);
		return err;
	}
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
	untrack(p->pid);
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
