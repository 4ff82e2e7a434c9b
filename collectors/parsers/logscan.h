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

/* A scanner for the signature and log_source facts of fb, built when the
 * knowledge base is loaded and owned by the caller (logscan_free).  The
 * kb loader already rejects a signature whose pattern does not compile;
 * should one get here, it is reported to d (kb file and line) and left
 * out.  Never NULL.  It keeps no pointer into fb. */
struct logscan *logscan_new(const struct fact_base *fb, struct diag *d);
void logscan_free(struct logscan *ls);

/* Whether any literal (of a signature or of a log source) occurs in the
 * text: the cheap test every line goes through.  A NULL scanner (no kb)
 * finds nothing, here and in logscan_match. */
bool logscan_relevant(const struct logscan *ls, const char *text, size_t len);

struct logscan_hit {
	size_t sig; /* signature index */
	struct regex_match m;
};

/* Runs the signatures whose literals occur in text.  Fills up to max hits
 * and returns how many there were; *limit counts regexes stopped by their
 * match limit. */
size_t logscan_match(struct logscan *ls, const char *text, size_t len,
		     struct logscan_hit *hits, size_t max, size_t *limit);

size_t logscan_count(const struct logscan *ls);
const char *logscan_id(const struct logscan *ls, size_t sig);
const char *logscan_layer(const struct logscan *ls, size_t sig);

#endif
