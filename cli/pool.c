/* The worker-process pool behind batch. */
#include "cli/pool.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/strbuf.h"
#include "engine/xalloc.h"

#define TICK_MS 200 /* progress refresh while tasks run */

/* A task's process while it runs. */
struct worker {
	pid_t pid; /* 0: the slot is free */
	int fd; /* read end of its result pipe */
	size_t index;
	double start;
	bool timed_out, interrupted;
	struct strbuf out;
};

/* The running pool's workers, where a signal handler may read them. */
static struct worker *volatile live_ws;
static volatile size_t live_nws;

void pool_kill_all(void)
{
	struct worker *ws = live_ws;

	for (size_t i = 0; ws && i < live_nws; i++)
		if (ws[i].pid > 0)
			kill(ws[i].pid, SIGKILL);
}

/* A finished task waiting for its turn to be delivered. */
struct finished {
	bool ready;
	struct pool_result r;
	char *output;
};

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

unsigned pool_cpus(void)
{
	cpu_set_t set;
	long n;

	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

int pool_write(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/* In the child: default signal handling, the other workers' pipes closed,
 * then the task. */
static void __attribute__((noreturn))
child(const struct pool_opts *o, struct worker *ws, size_t nws, size_t index,
      int fd)
{
	int rc;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	for (size_t i = 0; i < nws; i++)
		if (ws[i].pid)
			close(ws[i].fd);
	rc = o->work(o->arg, index, fd);
	_exit(rc & 0xff);
}

/* Starts task index in slot w.  Returns 0, or -errno when no process
 * could be made. */
static int launch(const struct pool_opts *o, struct worker *ws, size_t nws,
		  struct worker *w, size_t index)
{
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		close(p[0]);
		close(p[1]);
		return err;
	}
	if (!pid) {
		close(p[0]);
		child(o, ws, nws, index, p[1]);
	}
	close(p[1]);
	memset(w, 0, sizeof(*w));
	w->pid = pid;
	w->fd = p[0];
	w->index = index;
	w->start = now();
	return 0;
}

/* The pool while it runs. */
struct pool {
	const struct pool_opts *o;
	struct worker *ws;
	size_t nws;
	struct pollfd *pfd;
	size_t *pfd_worker;
	struct finished *fin;
	size_t nfinished;
};

static void finish(struct pool *p, struct worker *w, int status)
{
	struct finished *f = &p->fin[w->index];
	struct pool_result *r = &f->r;

	r->index = w->index;
	r->started = true;
	r->status = status;
	r->seconds = now() - w->start;
	if (w->interrupted ||
	    (stop_signal && WIFSIGNALED(status) &&
	     (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM)))
		r->outcome = POOL_INTERRUPTED;
	else if (w->timed_out)
		r->outcome = POOL_TIMED_OUT;
	else if (WIFEXITED(status) && !WEXITSTATUS(status))
		r->outcome = POOL_DONE;
	else
		r->outcome = POOL_FAILED;
	r->len = w->out.len;
	f->output = sb_detach(&w->out);
	r->output = f->output;
	f->ready = true;
	p->nfinished++;
	w->pid = 0;
}

static void not_started(struct pool *p, size_t index, int err, bool interrupted)
{
	struct finished *f = &p->fin[index];

	f->r.index = index;
	f->r.outcome = interrupted ? POOL_INTERRUPTED : POOL_FAILED;
	f->r.status = err;
	f->r.output = "";
	f->ready = true;
	p->nfinished++;
}

/* Reads what worker w has written; at the end of its output, reaps it. */
static void drain(struct pool *p, struct worker *w)
{
	char buf[65536];
	ssize_t n = read(w->fd, buf, sizeof(buf));
	int status = 0;

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n > 0) {
		sb_add(&w->out, buf, (size_t)n);
		return;
	}
	close(w->fd);
	while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
		;
	finish(p, w, status);
}

/* Kills the workers past their deadline, or all of them on a stop. */
static void kill_late(struct pool *p)
{
	double t = now();

	for (size_t i = 0; i < p->nws; i++) {
		struct worker *w = &p->ws[i];

		if (!w->pid || w->timed_out || w->interrupted)
			continue;
		if (stop_signal) {
			w->interrupted = true;
			kill(w->pid, SIGKILL);
		} else if (p->o->timeout_ms &&
			   (t - w->start) * 1000 > p->o->timeout_ms) {
			w->timed_out = true;
			kill(w->pid, SIGKILL);
		}
	}
}

/* Waits up to a tick for output from the running workers.  Returns how
 * many are running. */
static size_t wait_workers(struct pool *p)
{
	size_t n = 0;

	for (size_t i = 0; i < p->nws; i++) {
		if (!p->ws[i].pid)
			continue;
		p->pfd[n].fd = p->ws[i].fd;
		p->pfd[n].events = POLLIN;
		p->pfd[n].revents = 0;
		p->pfd_worker[n++] = i;
	}
	if (!n)
		return 0;
	if (poll(p->pfd, n, TICK_MS) > 0)
		for (size_t k = 0; k < n; k++)
			if (p->pfd[k].revents)
				drain(p, &p->ws[p->pfd_worker[k]]);
	n = 0;
	for (size_t i = 0; i < p->nws; i++)
		n += p->ws[i].pid != 0;
	return n;
}

int pool_run(size_t ntasks, const struct pool_opts *o, int *signo)
{
	struct pool p = { .o = o };
	struct sigaction sa = { 0 }, old_int, old_term;
	size_t next = 0, delivered = 0, running = 0;

	p.nws = o->jobs ? o->jobs : 1;
	if (p.nws > ntasks && ntasks)
		p.nws = ntasks;
	p.ws = xcalloc(p.nws, sizeof(*p.ws));
	p.pfd = xcalloc(p.nws, sizeof(*p.pfd));
	p.pfd_worker = xcalloc(p.nws, sizeof(*p.pfd_worker));
	p.fin = xcalloc(ntasks ? ntasks : 1, sizeof(*p.fin));
	stop_signal = 0;
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	live_nws = p.nws;
	live_ws = p.ws;
	while (delivered < ntasks) {
		for (size_t i = 0; i < p.nws && next < ntasks && !stop_signal;
		     i++) {
			int err;

			if (p.ws[i].pid)
				continue;
			err = launch(o, p.ws, p.nws, &p.ws[i], next);
			if (err && running)
				break; /* again when one has finished */
			if (err)
				not_started(&p, next, -err, false);
			else
				running++;
			next++;
		}
		for (; stop_signal && next < ntasks; next++)
			not_started(&p, next, 0, true);
		kill_late(&p);
		running = wait_workers(&p);
		for (; delivered < ntasks && p.fin[delivered].ready;
		     delivered++) {
			o->done(o->arg, &p.fin[delivered].r);
			free(p.fin[delivered].output);
			p.fin[delivered].output = NULL;
		}
		if (o->tick)
			o->tick(o->arg, p.nfinished, ntasks);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	live_ws = NULL;
	free(p.fin);
	free(p.pfd_worker);
	free(p.pfd);
	free(p.ws);
	if (signo)
		*signo = stop_signal;
	return stop_signal ? -EINTR : 0;
}
