/* Shared by the coverage tests: a scan with the factor test
 * (engine/factors.h) must find exactly what a scan without it finds. */
#ifndef RD_TEST_FACTORED_H
#define RD_TEST_FACTORED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "collectors/parsers/logscan.h"

#define FACTORED_HITS_MAX 16

/* Whether logscan_match of text without the factor test gives the n hits
 * (signature and offsets of every group) that it gave with it; prints
 * the text when not. */
static inline bool factored_same(struct logscan *ls, const char *text,
				 size_t len, const struct logscan_hit *hits,
				 size_t n)
{
	struct logscan_hit plain[FACTORED_HITS_MAX];
	size_t limit = 0, m;
	bool same;

	logscan_use_factors(ls, false);
	m = logscan_match(ls, text, len, plain, FACTORED_HITS_MAX, &limit);
	logscan_use_factors(ls, true);
	same = m == n;
	for (size_t i = 0; same && i < n && i < FACTORED_HITS_MAX; i++) {
		same = plain[i].sig == hits[i].sig &&
		       plain[i].m.ngroups == hits[i].m.ngroups;
		for (int g = 0; same && g < REGEX_MAX_GROUPS; g++)
			same = plain[i].m.start[g] == hits[i].m.start[g] &&
			       plain[i].m.end[g] == hits[i].m.end[g];
	}
	if (!same)
		fprintf(stderr, "factor test changed the hits of: %.*s\n",
			(int)len, text);
	return same;
}

#endif
