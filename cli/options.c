/* getopt_long over the one option table of options.h. */
#include "cli/options.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/answers.h"
#include "engine/xalloc.h"

#define TIMEOUT_MAX_S 3600 /* @@ */
#define DEADLINE_MAX_S 86400 /* @@ */
#define SAMPLE_INTERVAL_MAX_S 60 /* @@ */
#define JOBS_MAX 1024 /* processes batch runs at once */
#define DEFAULT_TIMEOUT_MS 10000 /* a tool's time on a live host */
#define WHY_NOT_ID_MAX 200 /* a rule id's length */
#define WHY_NOT_ID_MAX_STR "200"


/* getopt_long's value of an option: its letter, else 256 + its id. */
static int code_of(enum option_id id)
{
	static const char letters[] = {
#define X(id, name, letter, arg) letter,
		OPTIONS(X)
#undef X
	};

	return letters[id] ? letters[id] : 256 + (int)id;
}

/* clang-format off */
static const struct option long_opts[] = {
#define X(id, name, letter, arg) \
	{ name, arg, NULL, letter ? letter : 256 + OPTION_##id },
	OPTIONS(X)
#undef X
	{ NULL, 0, NULL, 0 },
};
/* clang-format on */

static const char *const names[] = {
#define X(id, name, letter, arg) "--" name,
	OPTIONS(X)
#undef X
};

const char *options_name(enum option_id id)
{
	return names[id];
}

/* The option whose getopt_long value is c, or -1. */
static int id_of(int c)
{
	for (int i = 0; i < OPTION_COUNT; i++)
		if (code_of((enum option_id)i) == c)
			return i;
	return -1;
}

/* ":" (report a missing value as such), then each letter, with ':' after those that take a value. */
static void short_opts(char *buf, size_t size)
{
	size_t n = 0;

	buf[n++] = ':';
	for (size_t i = 0; i < ARRAY_SIZE(long_opts) - 1 && n + 3 < size; i++) {
		if (long_opts[i].val >= 256)
			continue;
		buf[n++] = (char)long_opts[i].val;
		if (long_opts[i].has_arg == required_argument)
			buf[n++] = ':';
	}
	buf[n] = '\0';
}

static void push(const char ***v, size_t *n, const char *s)
{
	size_t cap = *n;

	xgrow(v, &cap, *n + 1, sizeof(**v));
	(*v)[(*n)++] = s;
}

static int usage_error(const char *fmt, const char *a, const char *b)
{
	fputs("rdmadoctor: error: ", stderr);
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	return -EINVAL;
}

static int set_color(struct options *o, const char *arg)
{
	static const char *const modes[] = {
		[TERM_AUTO] = "auto", [TERM_ALWAYS] = "always", [TERM_NEVER] = "never"
	};

	if (!arg) {
		o->color = TERM_ALWAYS;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(modes); i++)
		if (!strcmp(arg, modes[i])) {
			o->color = (enum term_mode)i;
			return 0;
		}
	return usage_error("--color takes auto, always or never, not '%s'%s",
			   arg, "");
}

/* --why-not[=ID[,ID...]]: each id kept (bounded), the option noted. */
static int set_why_not(struct options *o, const char *arg)
{
	const char *p = arg;

	o->why_not = true;
	while (p && *p) {
		size_t len = strcspn(p, ",");
		size_t cap = o->nwhy_not_ids;

		if (len > WHY_NOT_ID_MAX)
			return usage_error("--why-not: the id '%.40s...' is longer than %s characters",
					   p, WHY_NOT_ID_MAX_STR);
		if (len) {
			xgrow(&o->why_not_ids, &cap, o->nwhy_not_ids + 1,
			      sizeof(*o->why_not_ids));
			o->why_not_ids[o->nwhy_not_ids++] = xstrndup(p, len);
		}
		p += len + (p[len] == ',');
	}
	return 0;
}

/* Stores the value of option id; nonzero after a usage error. */
static int set(struct options *o, enum option_id id, const char *arg)
{
	char *end;
	double t;
	long n;

	switch (id) {
	case OPTION_JSON:
		o->json = true;
		break;
	case OPTION_PRETTY:
		o->pretty = o->json = true;
		break;
	case OPTION_EXPLAIN:
		o->explain = true;
		break;
	case OPTION_WHY_NOT:
		return set_why_not(o, arg);
	case OPTION_COLOR:
		return set_color(o, arg);
	case OPTION_NO_COLOR:
		o->color = TERM_NEVER;
		break;
	case OPTION_HELP:
		o->help = true;
		break;
	case OPTION_VERSION:
		o->version = true;
		break;
	case OPTION_QUIET:
		o->quiet = true;
		break;
	case OPTION_ROOT:
		o->root = arg;
		break;
	case OPTION_OUTPUT:
		o->output = arg;
		break;
	case OPTION_RULES:
		push(&o->rules, &o->nrules, arg);
		break;
	case OPTION_ANSWER:
		push(&o->answers, &o->nanswers, arg);
		break;
	case OPTION_ANSWERS:
		push(&o->answer_files, &o->nanswer_files, arg);
		break;
	case OPTION_SAVE:
		o->save = arg;
		break;
	case OPTION_ORIGIN:
		o->origin = true;
		break;
	case OPTION_PERFTEST:
		o->perftest = true;
		break;
	case OPTION_HTML:
		o->html = arg;
		break;
	case OPTION_MARKDOWN:
		o->markdown = arg;
		break;
	case OPTION_REDACT:
		o->redact = true;
		break;
	case OPTION_REDACT_MAP:
		o->redact = true;
		o->redact_map = arg;
		break;
	case OPTION_NHC:
		o->nhc = true;
		break;
	case OPTION_MERGE:
		o->merge = true;
		break;
	case OPTION_DEADLINE:
		t = strtod(arg, &end);
		if (*end || end == arg || t < 1 || t > DEADLINE_MAX_S ||
		    t != (double)(unsigned)t) {
			char max[16];

			snprintf(max, sizeof(max), "%d", DEADLINE_MAX_S);
			return usage_error(
				"--deadline takes whole seconds between 1 and %s, not '%s'",
				max, arg);
		}
		o->deadline_s = (unsigned)t;
		break;
	case OPTION_TIMEOUT:
		t = strtod(arg, &end);
		if (*end || end == arg || t <= 0 || t > TIMEOUT_MAX_S) {
			char max[16];

			snprintf(max, sizeof(max), "%d", TIMEOUT_MAX_S);
			return usage_error(
				"--timeout takes seconds between 0 and %s, not '%s'",
				max, arg);
		}
		o->timeout_ms = (unsigned)(t * 1000);
		o->timeout_set = true;
		break;
	case OPTION_SAMPLE_INTERVAL:
		t = strtod(arg, &end);
		if (*end || end == arg || !(t >= 0) ||
		    t > SAMPLE_INTERVAL_MAX_S) {
			char max[16];

			snprintf(max, sizeof(max), "%d", SAMPLE_INTERVAL_MAX_S);
			return usage_error(
				"--sample-interval takes seconds between 0 and %s, not '%s'",
				max, arg);
		}
		o->sample_interval_ms = (unsigned)(t * 1000);
		o->sample_interval_set = true;
		break;
	case OPTION_JOBS:
		n = strtol(arg, &end, 10);
		if (*end || end == arg || n < 1 || n > JOBS_MAX) {
			char max[16];

			snprintf(max, sizeof(max), "%d", JOBS_MAX);
			return usage_error(
				"--jobs takes a number of processes between 1 and %s, not '%s'",
				max, arg);
		}
		o->jobs = (unsigned)n;
		break;
	case OPTION_COUNT:
		break;
	}
	return 0;
}

int options_parse(int argc, char **argv, struct options *o)
{
	char shorts[64];
	int c;

	memset(o, 0, sizeof(*o));
	o->timeout_ms = DEFAULT_TIMEOUT_MS;
	short_opts(shorts, sizeof(shorts));
	optind = 1;
	opterr = 0;
	/* GNU getopt permutes: options may stand before the command, after
	 * it, or among its arguments, and the words keep their order. */
	while ((c = getopt_long(argc, argv, shorts, long_opts, NULL)) != -1) {
		int id;

		if (c == ':')
			return usage_error("option '%s' needs a value%s",
					   argv[optind - 1], "");
		id = id_of(c);
		if (id < 0)
			return usage_error(
				"unknown option '%s' (see rdmadoctor --help)%s",
				argv[optind - 1], "");
		o->given |= 1ul << id;
		if (set(o, (enum option_id)id, optarg))
			return -EINVAL;
	}
	o->args = argv + optind;
	o->nargs = (size_t)(argc - optind);
	return 0;
}

void options_release(struct options *o)
{
	free(o->rules);
	free(o->answers);
	free(o->answer_files);
	for (size_t i = 0; i < o->nwhy_not_ids; i++)
		free(o->why_not_ids[i]);
	free(o->why_not_ids);
}

int options_unaccepted(const struct options *o, option_set accepts)
{
	for (int i = 0; i < OPTION_COUNT; i++)
		if ((o->given & (1ul << i)) && !(accepts & (1ul << i)))
			return i;
	return -1;
}

int options_analysis(const struct options *o, struct analysis_opts *ao,
		     struct answers *as, struct diag *d)
{
	memset(ao, 0, sizeof(*ao));
	ao->root = o->root;
	ao->paths = (const char **)o->args;
	ao->npaths = o->nargs;
	ao->live = !o->root && !o->nargs;
	ao->rule_dirs = o->rules;
	ao->nrule_dirs = o->nrules;
	ao->timeout_ms = o->timeout_ms;
	ao->perftest = o->perftest;
	ao->sample_interval_ms = o->sample_interval_ms;
	ao->progress =
		!o->quiet && isatty(fileno(stderr)) && !getenv("NO_PROGRESS");
	if (answers_from_options(as, o, d))
		return -EINVAL;
	answers_to_opts(as, ao);
	return 0;
}
