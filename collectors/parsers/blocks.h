/* A pasted text (a ticket, a terminal session, a loose file) cut into
 * blocks: at each shell prompt and its command, markdown fence, heading,
 * "==> file <==" banner, and change of format.  Each block is read on its
 * own, by the format its command names or else the one its content shows;
 * kernel-log lines and the formats flagged FORMAT_ANYWHERE are looked for
 * in every block. */
#ifndef RD_BLOCKS_H
#define RD_BLOCKS_H

#include <stddef.h>

#include "collectors/parsers/parse.h"

/* How the blocks of one text were read, for the collector's detail and
 * the "cannot read this" message. */
struct blocks_summary {
	unsigned blocks, understood;
	unsigned recognised; /* blocks of a known format, facts or not */
	int facts;
	struct strbuf detail; /* "lines 1-12 ibstat, 13-15 ignored, ..." */
	const char *format; /* the one format every understood block is,
			     * or NULL when they differ */
	const char *looks_like; /* the best guess for a text that gave
				 * nothing, or NULL */
};

/* Cuts text into blocks and parses each into e (citing the text's lines);
 * adds a block fact per block and a listing fact per listing output.
 * sum (may be NULL) gets what was read; release it with
 * blocks_summary_release().  Returns the facts read from the text (the
 * block facts, which say how it was read, not counted). */
int blocks_parse(struct emit *e, const char *text, size_t len,
		 struct blocks_summary *sum);
void blocks_summary_release(struct blocks_summary *sum);

/* Adds the listing fact of a complete output of format (one of those
 * whose struct format names what it lists): count entries of that kind
 * were read.  For collectors that parse a whole command output. */
void blocks_listing(struct emit *e, const char *format, unsigned count);

#endif
