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

/* Scans text, a block of a paste whose first line is line first_no of
 * it, as a part of the log.  A person pasted these lines, so every
 * kernel line is kept, RDMA's or not; in a block that is the kernel log
 * (strict false) every line with a kernel timestamp is one, in another
 * tool's output (strict) only lines with a kernel timestamp and a
 * driver's "<driver> <device>: " prefix, or that prefix alone, and the
 * lines log_pasted_line finds. */
void log_stream_feed_at(struct log_stream *s, const char *text, size_t len,
			uint32_t first_no, bool strict);

/* Whether a line of another tool's block is a kernel line all the same:
 * its message starts under the name of a module kb/log_sources.yaml knows
 * (pr_fmt's "<module>: ", dev_printk's "<driver> <device>: "), or a
 * signature more specific than the generic fallbacks knows its words,
 * even without any prefix.  e's fact base and scanner are borrowed. */
bool log_pasted_line(const struct emit *e, const struct line *ln);

/* Texts that make a line worth reading though it is no RDMA line: the
 * running kernel (dump_stack's " Comm: ", the boot banner), an
 * interface's rename, a PCI function's enumeration.  The kernel-log
 * scanner (logscan_new) sieves for them with the signatures' literals, so
 * that a line without any is passed over in the same pass. */
extern const char *const log_marks[];
extern const size_t log_nmarks;

/* Ends the log: adds the signature events and frees s.  Returns the number
 * of facts the log added. */
int log_stream_end(struct log_stream *s);

#endif
