/* The worker-process pool behind batch. */
#include "cli/pool.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/strbuf.h"
#include "engine/xalloc.h"

#define TICK_MS 200 /* progress refresh while tasks run */

/* A worker serves this many tasks, or fewer when its peak resident size
 * has grown by WORKER_GROWTH_KIB since it started, and then exits, for a
 * fresh one to take its place: what a task leaves behind in the process
 * (interned strings, the allocator's high-water mark) stays bounded. */
#define WORKER_TASKS 256
#define WORKER_GROWTH_KIB (256 * 1024)
/* A task is given to this many workers that die before they read it, and
 * then delivered as not started. */
#define ASSIGN_TRIES 3

/* What a worker sends before each task's output. */
struct frame {
	uint64_t len; /* bytes of output that follow */
	int32_t rc; /* what work returned */
	uint32_t last; /* the worker exits after this task */
};

/* A worker process: it reads task indexes from its task pipe and answers
 * each with a frame and the task's output on its result pipe. */
struct worker {
	pid_t pid; /* 0: the slot is free */
	int fd; /* read end of its result pipe */
	int cmd; /* write end of its task pipe */
	bool busy; /* a task is running: index, start, out */
	bool retiring; /* said its last task was its last */
	size_t index;
	double start;
	bool timed_out, interrupted;
	bool killed; /* SIGKILL sent: it is reaped when its pipe ends */
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

static int read_full(int fd, void *buf, size_t n)
{
	char *p = buf;

	while (n) {
		ssize_t r = read(fd, p, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

/* Copies the n bytes of the task's output in mem to fd. */
static int send_output(int mem, int fd, size_t n)
{
	char buf[65536];

	for (off_t at = 0; n;) {
		ssize_t r = pread(mem, buf, n < sizeof(buf) ? n : sizeof(buf),
				  at);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 || pool_write(fd, buf, (size_t)r))
			return -1;
		at += r;
		n -= (size_t)r;
	}
	return 0;
}

static long peak_kib(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? 0 : ru.ru_maxrss;
}

/* In the worker: default signal handling, the other workers' pipes
 * closed, then tasks until the pool closes the task pipe or the worker
 * has served its share.  Each task writes into a memory file, so that
 * its output goes back in one frame whose length is known. */
static void __attribute__((noreturn))
serve(const struct pool_opts *o, struct worker *ws, size_t nws, int cmd,
      int fd)
{
	int mem = memfd_create("pool-task", MFD_CLOEXEC);
	long start_kib = peak_kib();
	uint64_t index;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	for (size_t i = 0; i < nws; i++)
		if (ws[i].pid) {
			close(ws[i].fd);
			close(ws[i].cmd);
		}
	if (mem < 0)
		_exit(125);
	for (unsigned served = 1; !read_full(cmd, &index, sizeof(index));
	     served++) {
		struct frame fr = { 0 };
		off_t len;

		if (ftruncate(mem, 0) || lseek(mem, 0, SEEK_SET))
			_exit(125);
		fr.rc = o->work(o->arg, (size_t)index, mem) & 0xff;
		len = lseek(mem, 0, SEEK_CUR);
		if (len < 0)
			_exit(125);
		fr.len = (uint64_t)len;
		fr.last = served >= WORKER_TASKS ||
			  peak_kib() - start_kib > WORKER_GROWTH_KIB;
		if (pool_write(fd, (const char *)&fr, sizeof(fr)) ||
		    send_output(mem, fd, (size_t)len))
			_exit(125);
		if (fr.last)
			break;
	}
	_exit(0);
}

/* Starts a worker in slot w.  Returns 0, or -errno when no process
 * could be made. */
static int launch(const struct pool_opts *o, struct worker *ws, size_t nws,
		  struct worker *w)
{
	int res[2], cmd[2];
	pid_t pid;

	if (pipe2(res, O_CLOEXEC))
		return -errno;
	if (pipe2(cmd, O_CLOEXEC)) {
		int err = -errno;

		close(res[0]);
		close(res[1]);
		return err;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		close(res[0]);
		close(res[1]);
		close(cmd[0]);
		close(cmd[1]);
		return err;
	}
	if (!pid) {
		close(res[0]);
		close(cmd[1]);
		serve(o, ws, nws, cmd[0], res[1]);
	}
	close(res[1]);
	close(cmd[0]);
	memset(w, 0, sizeof(*w));
	w->pid = pid;
	w->fd = res[0];
	w->cmd = cmd[1];
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

/* Delivers the task w was running, with its waitpid()-style status and
 * the output it sent (out is taken over). */
static void finish(struct pool *p, struct worker *w, int status,
		   struct strbuf *out)
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
	r->len = out->len;
	f->output = sb_detach(out);
	r->output = f->output;
	f->ready = true;
	p->nfinished++;
	w->busy = false;
	w->timed_out = false;
	w->interrupted = false;
}

/* The worker has gone (its result pipe ended): reaps it, and delivers
 * the task it was on, if any, as its exit or its signal left it. */
static void reap(struct pool *p, struct worker *w)
{
	struct strbuf none = STRBUF_INIT;
	int status = 0;

	close(w->fd);
	if (w->cmd >= 0)
		close(w->cmd);
	while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (w->busy) {
		/* exited 0 without answering: not a finished task */
		if (WIFEXITED(status) && !WEXITSTATUS(status))
			status = 125 << 8;
		finish(p, w, status, &none);
	}
	sb_release(&w->out);
	w->pid = 0;
}

/* Delivers the task whose whole frame w->out holds. */
static void take_frame(struct pool *p, struct worker *w)
{
	struct frame fr;
	struct strbuf out = STRBUF_INIT;

	if (!w->busy || w->out.len < sizeof(fr))
		return;
	memcpy(&fr, w->out.buf, sizeof(fr));
	if (w->out.len - sizeof(fr) < fr.len)
		return;
	sb_add(&out, w->out.buf + sizeof(fr), (size_t)fr.len);
	sb_reset(&w->out);
	w->retiring = fr.last != 0;
	finish(p, w, (fr.rc & 0xff) << 8, &out);
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

/* Reads what worker w has written: a task's frame, or the end, when it
 * is reaped. */
static void drain(struct pool *p, struct worker *w)
{
	char buf[65536];
	ssize_t n = read(w->fd, buf, sizeof(buf));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n > 0) {
		sb_add(&w->out, buf, (size_t)n);
		take_frame(p, w);
		return;
	}
	reap(p, w);
}

/* Gives task index to the idle worker w.  Returns false when w cannot
 * take it: it died while idle (its task pipe is broken), so it is reaped
 * without charging the task to it, and the slot is free for a new one. */
static bool assign(struct pool *p, struct worker *w, size_t index)
{
	uint64_t i = index;

	if (pool_write(w->cmd, (const char *)&i, sizeof(i))) {
		kill(w->pid, SIGKILL);
		reap(p, w);
		return false;
	}
	w->busy = true;
	w->index = index;
	w->start = now();
	return true;
}

/* Kills the workers past their deadline, or all of them on a stop. */
static void kill_late(struct pool *p)
{
	double t = now();

	for (size_t i = 0; i < p->nws; i++) {
		struct worker *w = &p->ws[i];

		if (!w->pid || w->killed)
			continue;
		if (stop_signal) {
			w->interrupted = w->busy;
			w->killed = true;
			kill(w->pid, SIGKILL);
		} else if (w->busy && p->o->timeout_ms &&
			   (t - w->start) * 1000 > p->o->timeout_ms) {
			w->timed_out = true;
			w->killed = true;
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
	struct sigaction sa = { 0 }, ign = { 0 }, old_int, old_term, old_pipe;
	size_t next = 0, delivered = 0, running = 0;
	unsigned tries = 0; /* workers that died idle before taking next */

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
	/* a worker that died leaves its task pipe broken: an error, not a
	 * signal, for the batch process */
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &old_pipe);
	live_nws = p.nws;
	live_ws = p.ws;
	while (delivered < ntasks) {
		for (size_t i = 0; i < p.nws && next < ntasks && !stop_signal;
		     i++) {
			struct worker *w = &p.ws[i];

			if (w->pid && (w->busy || w->retiring || w->killed))
				continue;
			if (!w->pid) {
				int err = launch(o, p.ws, p.nws, w);

				if (err && running)
					continue; /* again when one has
						   * finished; an idle one
						   * may take the task */
				if (err) {
					not_started(&p, next++, -err, false);
					continue;
				}
				running++;
			}
			if (assign(&p, w, next)) {
				next++;
				tries = 0;
			} else if (++tries >= ASSIGN_TRIES) {
				/* every new worker dies before its first task */
				not_started(&p, next++, EPIPE, false);
				tries = 0;
			}
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
	/* the idle workers see their task pipe end, and exit */
	for (size_t i = 0; i < p.nws; i++)
		if (p.ws[i].pid) {
			close(p.ws[i].cmd);
			p.ws[i].cmd = -1;
		}
	for (size_t i = 0; i < p.nws; i++)
		while (p.ws[i].pid) {
			char buf[4096];
			ssize_t n = read(p.ws[i].fd, buf, sizeof(buf));

			if (!n || (n < 0 && errno != EINTR))
				reap(&p, &p.ws[i]);
		}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGPIPE, &old_pipe, NULL);
	live_ws = NULL;
	free(p.fin);
	free(p.pfd_worker);
	free(p.pfd);
	free(p.ws);
	if (signo)
		*signo = stop_signal;
	return stop_signal ? -EINTR : 0;
}
