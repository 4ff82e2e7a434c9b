/* Command-line options, parsed the same way for every subcommand. */
#ifndef RD_OPTIONS_H
#define RD_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

struct options {
	bool json;
	bool explain;
	bool no_color;
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
	unsigned jobs; /* batch --jobs; 0 = one per processor */
	const char *html; /* --html FILE */
	bool nhc; /* check --nhc */
	bool merge; /* batch --merge */
	char **args; /* positional arguments */
	size_t nargs;
};

/* Parses argv[0..argc) (the words after the subcommand).  Returns 0, or
 * -EINVAL after printing a usage error to stderr. */
int options_parse(int argc, char **argv, struct options *o);
void options_release(struct options *o);

#endif
