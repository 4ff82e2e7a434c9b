/* Literal factors of a regular expression: strings of which every match
 * of the pattern holds one, read from the pattern's text alone, so that a
 * text holding none of them need not be matched. */
#ifndef RD_FACTORS_H
#define RD_FACTORS_H

#include <stdbool.h>
#include <stddef.h>

/* Bounds: factors of one pattern, bytes kept of one factor (a part of a
 * required literal is required too), groups nested. */
#define FACTORS_MAX 512 /* @@ */
#define FACTOR_LEN_MAX 32 /* @@ */
#define FACTORS_DEPTH_MAX 32 /* @@ */
/* The shortest factor worth a test: shorter ones occur in most lines. */
#define FACTOR_LEN_MIN 2 /* @@ */

struct factors {
	char **s; /* NUL-terminated, owned */
	bool *fold; /* s[i] is in lower case, and holds in any case */
	size_t n;
};

/* Reads pattern (PCRE2 syntax, compiled without options, as regex_compile
 * with flags 0) and fills out (owned by the caller: factors_release) with
 * a set of strings, each at least FACTOR_LEN_MIN bytes, such that any text
 * the pattern matches holds one of them as a substring.  Returns false,
 * out empty, when it knows no such set: a part of the pattern needs no
 * literal (\d+, an optional group, an empty branch), or the pattern uses a
 * construct it does not read (inline options, recursion, conditions,
 * \Q...\E, a byte by its code), which is never guessed at. */
bool factors_of(const char *pattern, struct factors *out);
void factors_release(struct factors *f);

#endif
