/* Runs commands several times, in turn, and reports for each its wall
 * time, CPU time and peak resident memory (getrusage of the child), as
 * medians.  Taking the commands in turn spreads the machine's changing
 * load over all of them, so that their ratios hold on a shared machine.
 *
 *   benchrun RUNS COMMAND [:: COMMAND]...
 *   COMMAND := [-C DIR] [-e VAR=VALUE]... [-o FILE] [-x MAXRC] PROGRAM [ARG...]
 *
 * -C runs the command in DIR, -e sets an environment variable for it.
 * Each command first runs once to warm the caches; the standard output of
 * that run goes to FILE (-o, else /dev/null) and it is not measured.  Then
 * RUNS rounds run every command once more, with standard output going to
 * FILE.run, rewritten each time (not to /dev/null: GNU grep stops at the
 * first match when it sees its output thrown away), or to /dev/null
 * without -o.  An exit code above MAXRC (-x, default 0), or a signal,
 * fails the whole measurement.  Prints one line per command:
 *
 *   wall_s rss_kb cpu_s wall_min_s wall_max_s
 *
 * wall, rss and cpu are medians over the measured runs. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RUNS_MAX 100
#define COMMANDS_MAX 16
#define ENV_MAX 8

struct command {
	const char *dir, *out;
	char *run_out; /* out.run */
	char *env[ENV_MAX];
	int nenv, maxrc;
	char **argv;
	double wall[RUNS_MAX], cpu[RUNS_MAX], rss[RUNS_MAX];
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void child(const struct command *c, const char *out)
{
	int fd = open(out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC,
		      0644);

	if (fd < 0 || dup2(fd, 1) < 0 || (c->dir && chdir(c->dir))) {
		perror("benchrun");
		_exit(127);
	}
	for (int i = 0; i < c->nenv; i++)
		putenv(c->env[i]);
	execvp(c->argv[0], c->argv);
	perror(c->argv[0]);
	_exit(127);
}

/* Runs c once; records run i unless i < 0 (the warm-up). */
static int run_once(struct command *c, int i)
{
	struct rusage ru;
	double start = now();
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (!pid)
		child(c, i < 0 ? c->out : c->run_out);
	if (wait4(pid, &status, 0, &ru) < 0)
		return -errno;
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "benchrun: '%s' died of signal %d\n",
			c->argv[0], WTERMSIG(status));
		return -1;
	}
	if (WEXITSTATUS(status) > c->maxrc) {
		fprintf(stderr, "benchrun: '%s' exited with %d\n", c->argv[0],
			WEXITSTATUS(status));
		return -1;
	}
	if (i < 0)
		return 0;
	c->wall[i] = now() - start;
	c->cpu[i] = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		    (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	c->rss[i] = (double)ru.ru_maxrss;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Sorts v and returns its median. */
static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void usage(void)
{
	fputs("usage: benchrun RUNS COMMAND [:: COMMAND]...\n"
	      "  COMMAND := [-C DIR] [-e VAR=VALUE]... [-o FILE] [-x MAXRC] PROGRAM [ARG...]\n",
	      stderr);
	exit(2);
}

/* Parses one command's options and words from argv[*i], up to "::". */
static void parse_command(char **argv, int argc, int *i, struct command *c)
{
	while (*i < argc && argv[*i][0] == '-' && argv[*i][1] && !argv[*i][2] &&
	       *i + 1 < argc) {
		char *arg = argv[*i + 1];

		switch (argv[*i][1]) {
		case 'C':
			c->dir = arg;
			break;
		case 'o':
			c->out = arg;
			break;
		case 'x':
			c->maxrc = atoi(arg);
			break;
		case 'e':
			if (c->nenv == ENV_MAX || !strchr(arg, '='))
				usage();
			c->env[c->nenv++] = arg;
			break;
		default:
			usage();
		}
		*i += 2;
	}
	if (*i >= argc || !strcmp(argv[*i], "::"))
		usage();
	c->argv = argv + *i;
	while (*i < argc && strcmp(argv[*i], "::"))
		(*i)++;
	if (*i < argc)
		argv[(*i)++] = NULL; /* ends this command's words */
}

int main(int argc, char **argv)
{
	static struct command cmds[COMMANDS_MAX];
	int runs, ncmds = 0, i = 2;

	if (argc < 3)
		usage();
	runs = atoi(argv[1]);
	if (runs < 1 || runs > RUNS_MAX)
		usage();
	while (i < argc) {
		if (ncmds == COMMANDS_MAX)
			usage();
		parse_command(argv, argc, &i, &cmds[ncmds++]);
	}
	for (int c = 0; c < ncmds; c++) {
		if (cmds[c].out &&
		    asprintf(&cmds[c].run_out, "%s.run", cmds[c].out) < 0)
			return 1;
		if (run_once(&cmds[c], -1))
			return 1;
	}
	for (int r = 0; r < runs; r++)
		for (int c = 0; c < ncmds; c++)
			if (run_once(&cmds[c], r))
				return 1;
	for (int c = 0; c < ncmds; c++) {
		struct command *cm = &cmds[c];
		double wall = median(cm->wall, runs);

		printf("%.3f %.0f %.3f %.3f %.3f\n", wall,
		       median(cm->rss, runs), median(cm->cpu, runs),
		       cm->wall[0], cm->wall[runs - 1]);
	}
	return 0;
}
