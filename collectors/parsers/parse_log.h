/* Kernel logs read in pieces, so that a log of any size is scanned in
 * constant memory (the facts it gives are capped).  parse_dmesg() is a
 * log of one piece. */
#ifndef RD_PARSE_LOG_H
#define RD_PARSE_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collectors/parsers/parse.h"

struct log_stream;

/* Starts a log whose facts go to e, which stays borrowed until
 * log_stream_end(). */
struct log_stream *log_stream_new(struct emit *e);

/* Scans the next piece of the log.  A piece holds whole lines: a line
 * split between two pieces counts as two (the caller cuts at newlines). */
void log_stream_feed(struct log_stream *s, const char *text, size_t len);

/* Scans text, a piece of a paste whose first line is line first_no of
 * it, as a part of the log.  strict: only lines that look like a kernel's
 * (a timestamp or a driver's "<driver> <device>: " prefix) start a
 * record, since the piece is some other tool's output. */
void log_stream_feed_at(struct log_stream *s, const char *text, size_t len,
			uint32_t first_no, bool strict);

/* Ends the log: adds the signature events and frees s.  Returns the number
 * of facts the log added. */
int log_stream_end(struct log_stream *s);

#endif
