/* Regular expressions (the only user of PCRE2): compile with the error
 * offset, match with bounded effort, read named captures. */
#ifndef RD_REGEX_H
#define RD_REGEX_H

#include <stdbool.h>
#include <stddef.h>

struct regex;

#define REGEX_CASELESS 0x1u

/* Compiles pattern.  On failure returns NULL and writes a message and the
 * 0-based offset of the problem into err/erroff. */
struct regex *regex_compile(const char *pattern, unsigned flags, char *err,
			    size_t errsize, size_t *erroff);
/* Whether pattern compiles, as regex_compile would say, at less cost (no
 * code is kept): 0, or -EINVAL with err/erroff as regex_compile's. */
int regex_check(const char *pattern, unsigned flags, char *err,
		size_t errsize, size_t *erroff);
/* A pattern compiled on its first use (regex_match or a group query), for
 * the many patterns a run may never need.  Only for a pattern already
 * known to compile (the kb loader checks every pattern field): should it
 * not, it matches nothing and has no groups.  Never NULL. */
struct regex *regex_defer(const char *pattern, unsigned flags);
void regex_free(struct regex *re);

/* A match result: up to REGEX_MAX_GROUPS groups, as offsets into the
 * subject (start == -1 when a group did not take part). */
#define REGEX_MAX_GROUPS 32
struct regex_match {
	int ngroups;
	long start[REGEX_MAX_GROUPS];
	long end[REGEX_MAX_GROUPS];
};

/* Matches subject[0..len).  Returns 1 on a match, 0 on none, and -E2BIG
 * when the match or depth limit stopped a runaway pattern; m may be NULL. */
int regex_match(const struct regex *re, const char *subject, size_t len,
		struct regex_match *m);

/* Named groups: count, and the name and group number of the i-th
 * (0 <= i < regex_name_count). */
int regex_name_count(const struct regex *re);
const char *regex_name_at(const struct regex *re, int i, int *group);
int regex_group_count(const struct regex *re);

#endif
