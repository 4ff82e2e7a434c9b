/* Command-line options: one table of every option, parsed the same way
 * wherever they stand (before or after the command), and checked against
 * the options each command accepts. */
#ifndef RD_OPTIONS_H
#define RD_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/analysis.h"
#include "cli/term.h"

struct answers;

/* X(ID, long name, short letter or 0, argument: 0 none, 1 required,
 *   2 optional) -- the option list, expanded into the enum below, the
 *   getopt table and the names in error messages. */
#define OPTIONS(X)                    \
	X(JSON, "json", 'j', 0)       \
	X(PRETTY, "pretty", 'p', 0)   \
	X(EXPLAIN, "explain", 'e', 0) \
	X(COLOR, "color", 0, 2)       \
	X(NO_COLOR, "no-color", 0, 0) \
	X(HELP, "help", 'h', 0)       \
	X(VERSION, "version", 'V', 0) \
	X(QUIET, "quiet", 'q', 0)     \
	X(ROOT, "root", 0, 1)         \
	X(OUTPUT, "output", 'o', 1)   \
	X(RULES, "rules", 0, 1)       \
	X(ANSWER, "answer", 0, 1)     \
	X(ANSWERS, "answers", 0, 1)   \
	X(SAVE, "save", 0, 1)         \
	X(TIMEOUT, "timeout", 0, 1)   \
	X(ORIGIN, "origin", 0, 0)     \
	X(JOBS, "jobs", 0, 1)         \
	X(HTML, "html", 0, 1)         \
	X(MARKDOWN, "markdown", 0, 1) \
	X(REDACT, "redact", 0, 0)     \
	X(REDACT_MAP, "redact-map", 0, 1) \
	X(NHC, "nhc", 0, 0)           \
	X(MERGE, "merge", 0, 0)       \
	X(PERFTEST, "perftest", 0, 0) \
	X(DEADLINE, "deadline", 0, 1) \
	X(SAMPLE_INTERVAL, "sample-interval", 0, 1) \
	X(WHY_NOT, "why-not", 0, 2)

enum option_id {
#define X(id, name, letter, arg) OPTION_##id,
	OPTIONS(X)
#undef X
		OPTION_COUNT,
};

/* A set of options, as a command table lists what a command accepts. */
typedef unsigned long option_set;
#define OPT(id) (1ul << OPTION_##id)
/* What every command takes. */
#define OPTS_GLOBAL \
	(OPT(HELP) | OPT(VERSION) | OPT(COLOR) | OPT(NO_COLOR) | OPT(QUIET))

struct options {
	option_set given; /* each option that was on the command line */
	bool json;
	bool pretty; /* -p: indented JSON (implies --json) */
	bool explain;
	enum term_mode color; /* --color, --no-color */
	bool colored; /* colour for standard output, decided by main */
	bool help;
	bool version;
	bool quiet; /* no progress lines */
	bool origin; /* rules list --origin */
	bool perftest; /* check/collect --perftest */
	unsigned deadline_s; /* --deadline: the whole run, 0 for none */
	const char *root;
	const char *output; /* collect -o */
	const char **rules; /* --rules, in order */
	size_t nrules;
	const char **answers; /* --answer q=v */
	size_t nanswers;
	const char **answer_files; /* --answers FILE */
	size_t nanswer_files;
	const char *save; /* --save FILE */
	unsigned timeout_ms;
	bool timeout_set; /* --timeout given */
	unsigned sample_interval_ms; /* --sample-interval; 0 reads once */
	bool sample_interval_set; /* --sample-interval given */
	unsigned jobs; /* batch --jobs; 0 = one per processor */
	const char *html; /* --html FILE */
	const char *markdown; /* --markdown FILE */
	bool redact; /* --redact */
	const char *redact_map; /* --redact-map FILE (implies --redact) */
	bool nhc; /* check --nhc */
	bool merge; /* batch --merge */
	bool why_not; /* --why-not given */
	char **why_not_ids; /* --why-not=ID[,ID...], owned, split at commas */
	size_t nwhy_not_ids;
	char **args; /* positional arguments, the command words first */
	size_t nargs;
};

/* check on a live host reads the RDMA counters a second time this long
 * after the first, so that rules can see which of them grow. */
#define SAMPLE_INTERVAL_DEFAULT_MS 3000

/* Parses argv[1..argc): options anywhere, the rest (the command, its
 * subcommand and its arguments) in o->args in order; "--" ends the
 * options.  Returns 0, or -EINVAL after printing a usage error. */
int options_parse(int argc, char **argv, struct options *o);
void options_release(struct options *o);

/* The long name of an option ("--html"). */
const char *options_name(enum option_id id);

/* The first option given that accepts does not hold, or -1. */
int options_unaccepted(const struct options *o, option_set accepts);

/* The one mapping from options to an analysis: rules overlays, timeout,
 * perftest, progress, and the evidence (--root, the paths, else the live
 * host); the --answers files and --answer words are read into as, which
 * must outlive ao.  Returns 0, or -EINVAL after reporting to d. */
int options_analysis(const struct options *o, struct analysis_opts *ao,
		     struct answers *as, struct diag *d);

#endif
