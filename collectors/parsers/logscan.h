/* Kernel-log signature scanning: an Aho-Corasick automaton over the
 * signatures' literals (and the log-source prefixes that mark a line as
 * RDMA's) decides in one pass over a line which signature regexes are worth
 * running, so that unrelated lines cost one table lookup per byte. */
#ifndef RD_LOGSCAN_H
#define RD_LOGSCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/diag.h"
#include "engine/fact.h"
#include "engine/regex.h"

struct logscan;

/* A scanner for the signature and log_source facts of fb, owned by the
 * caller (logscan_free).  Its automaton is built on its first use, not
 * here (a command that reads no log never needs it), so fb must outlive
 * the scanner and hold the same kb facts until then: the kb is loaded
 * before, and collected facts are of other kinds.  The kb loader already
 * rejects a signature whose pattern does not compile, so each regex is
 * compiled only when a line first needs it (should one not compile then,
 * it matches nothing); d is kept for the callers' sake and receives
 * nothing.  Never NULL. */
struct logscan *logscan_new(const struct fact_base *fb, struct diag *d);
/* The same for another kind of pattern fact with id, layer, pattern and
 * literals fields: "signature" (logscan_new, with the log sources) or
 * "app_message" (kb/app_messages.yaml, for parse_app.c). */
struct logscan *logscan_new_for(const struct fact_base *fb, const char *kind,
			       struct diag *d);
/* Builds the automaton now, if not yet done: for a scanner that forked
 * workers share, so that it is built once.  NULL does nothing. */
void logscan_prepare(const struct logscan *ls);
void logscan_free(struct logscan *ls);

/* Whether any literal (of a signature or of a log source) occurs in the
 * text: the cheap test every line goes through.  A NULL scanner (no kb)
 * finds nothing, here and in logscan_match. */
bool logscan_relevant(const struct logscan *ls, const char *text, size_t len);

/* The lines of a whole buffer that may be relevant or hold a mark of
 * log_marks (logscan_new's scanner only), found in one pass of
 * the automaton over the buffer rather than one call per line: several
 * stretches of lines are scanned interleaved, so that their table loads
 * overlap.  at[] holds, in ascending order, the offset of a byte at which
 * a literal or a mark ends, times two, plus one when a literal other than
 * a mark ends there: for each line the first such byte, and when that is
 * a mark's, the first byte after it where another literal ends.  Every
 * line for which logscan_relevant is true (on the line or on a prefix of
 * it), and every line that holds a mark, holds one.  A line that holds
 * one may still not be relevant (its literal is a mark, or ends on the
 * carriage return that a line reader drops): logscan_sieve_relevant
 * tells, from the offsets. */
struct logscan_sieve {
	size_t *at;
	size_t n, cap, next;
};

/* Fills sv (reset first; its array is grown as needed and owned by the
 * caller: logscan_sieve_release) for text[0..len). */
void logscan_sieve(const struct logscan *ls, const char *text, size_t len,
		   struct logscan_sieve *sv);
/* Whether an offset of sv lies in [from, to).  Queries must come with
 * ascending, non-overlapping ranges (the lines of the buffer in order):
 * offsets before from are passed over for good. */
bool logscan_sieve_any(struct logscan_sieve *sv, size_t from, size_t to);
/* logscan_sieve_any(sv, from, to) && logscan_relevant(ls, text + from,
 * to - from) for the line text[from..to) of the sieved buffer (from at
 * the start of a line, to at most its end), without walking the line
 * again; under the same ordering rule as logscan_sieve_any. */
bool logscan_sieve_relevant(const struct logscan *ls, struct logscan_sieve *sv,
			    const char *text, size_t from, size_t to);
void logscan_sieve_release(struct logscan_sieve *sv);

struct logscan_hit {
	size_t sig; /* signature index */
	struct regex_match m;
};

/* Runs the signatures whose literals occur in text.  Fills up to max hits
 * and returns how many there were; *limit counts regexes stopped by their
 * match limit. */
size_t logscan_match(struct logscan *ls, const char *text, size_t len,
		     struct logscan_hit *hits, size_t max, size_t *limit);

/* Whether logscan_match passes over a signature whose pattern's factors
 * (engine/factors.h) a text does not hold; on by default.  Off, every
 * signature a literal picked runs: the tests compare the two. */
void logscan_use_factors(struct logscan *ls, bool on);

size_t logscan_count(const struct logscan *ls);
const char *logscan_id(const struct logscan *ls, size_t sig);
const char *logscan_layer(const struct logscan *ls, size_t sig);
/* The compiled pattern of a signature, for its named captures. */
const struct regex *logscan_regex(const struct logscan *ls, size_t sig);

#endif
