/* getopt_long over one option table for all subcommands. */
#include "cli/options.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

#define TIMEOUT_MAX_S 3600 /* @@ */
#define JOBS_MAX 1024 /* processes batch runs at once */
#define DEADLINE_MAX_S 86400 /* @@ */

enum {
	OPT_NO_COLOR = 256,
	OPT_ROOT,
	OPT_RULES,
	OPT_ANSWER,
	OPT_ANSWERS,
	OPT_SAVE,
	OPT_TIMEOUT,
	OPT_ORIGIN,
	OPT_JOBS,
	OPT_HTML,
	OPT_NHC,
	OPT_MERGE,
	OPT_PERFTEST,
	OPT_DEADLINE,
};

static const struct option long_opts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "explain", no_argument, NULL, 'e' },
	{ "no-color", no_argument, NULL, OPT_NO_COLOR },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "output", required_argument, NULL, 'o' },
	{ "rules", required_argument, NULL, OPT_RULES },
	{ "answer", required_argument, NULL, OPT_ANSWER },
	{ "answers", required_argument, NULL, OPT_ANSWERS },
	{ "save", required_argument, NULL, OPT_SAVE },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "origin", no_argument, NULL, OPT_ORIGIN },
	{ "jobs", required_argument, NULL, OPT_JOBS },
	{ "html", required_argument, NULL, OPT_HTML },
	{ "nhc", no_argument, NULL, OPT_NHC },
	{ "merge", no_argument, NULL, OPT_MERGE },
	{ "perftest", no_argument, NULL, OPT_PERFTEST },
	{ "deadline", required_argument, NULL, OPT_DEADLINE },
	{ NULL, 0, NULL, 0 },
};

static void push(const char ***v, size_t *n, const char *s)
{
	size_t cap = *n;

	xgrow(v, &cap, *n + 1, sizeof(**v));
	(*v)[(*n)++] = s;
}

int options_parse(int argc, char **argv, struct options *o)
{
	int c;

	memset(o, 0, sizeof(*o));
	o->timeout_ms = 10000;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":jehVqo:", long_opts, NULL)) !=
	       -1) {
		char *end;
		double t;
		long n;

		switch (c) {
		case 'j':
			o->json = true;
			break;
		case 'e':
			o->explain = true;
			break;
		case 'h':
			o->help = true;
			break;
		case 'V':
			o->version = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case OPT_NO_COLOR:
			o->no_color = true;
			break;
		case OPT_ROOT:
			o->root = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		case OPT_RULES:
			push(&o->rules, &o->nrules, optarg);
			break;
		case OPT_ANSWER:
			push(&o->answers, &o->nanswers, optarg);
			break;
		case OPT_ANSWERS:
			push(&o->answer_files, &o->nanswer_files, optarg);
			break;
		case OPT_SAVE:
			o->save = optarg;
			break;
		case OPT_ORIGIN:
			o->origin = true;
			break;
		case OPT_PERFTEST:
			o->perftest = true;
			break;
		case OPT_TIMEOUT:
			t = strtod(optarg, &end);
			if (*end || t <= 0 || t > TIMEOUT_MAX_S) {
				fprintf(stderr,
					"rdmadoctor: error: --timeout takes seconds between 0 and %d, not '%s'\n",
					TIMEOUT_MAX_S, optarg);
				return -EINVAL;
			}
			o->timeout_ms = (unsigned)(t * 1000);
			o->timeout_set = true;
			break;
		case OPT_DEADLINE:
			n = strtol(optarg, &end, 10);
			if (*end || end == optarg || n < 1 ||
			    n > DEADLINE_MAX_S) {
				fprintf(stderr,
					"rdmadoctor: error: --deadline takes whole seconds between 1 and %d, not '%s'\n",
					DEADLINE_MAX_S, optarg);
				return -EINVAL;
			}
			o->deadline_s = (unsigned)n;
			break;
		case OPT_JOBS:
			n = strtol(optarg, &end, 10);
			if (*end || end == optarg || n < 1 || n > JOBS_MAX) {
				fprintf(stderr,
					"rdmadoctor: error: --jobs takes a number of processes between 1 and %d, not '%s'\n",
					JOBS_MAX, optarg);
				return -EINVAL;
			}
			o->jobs = (unsigned)n;
			break;
		case OPT_HTML:
			o->html = optarg;
			break;
		case OPT_NHC:
			o->nhc = true;
			break;
		case OPT_MERGE:
			o->merge = true;
			break;
		case ':':
			fprintf(stderr,
				"rdmadoctor: error: option '%s' needs a value\n",
				argv[optind - 1]);
			return -EINVAL;
		default:
			fprintf(stderr,
				"rdmadoctor: error: unknown option '%s' (see rdmadoctor --help)\n",
				argv[optind - 1]);
			return -EINVAL;
		}
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
}
