/* What every parser shares: line iteration over untrusted text, small
 * text helpers, and the emit API that turns values into facts with the
 * line they came from. */
#ifndef RD_PARSE_H
#define RD_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/fact.h"
#include "engine/strbuf.h"

/* One line of input, without its line terminator. */
struct line {
	const char *p;
	size_t len;
	uint32_t no; /* 1-based */
};

struct lines {
	const char *text;
	size_t len, pos;
	uint32_t no;
};

void lines_init(struct lines *it, const char *text, size_t len);
/* Next line ("\n" or "\r\n" terminated, or the unterminated tail). */
bool lines_next(struct lines *it, struct line *ln);

/* Trims spaces and tabs at both ends. */
struct line line_trim(struct line ln);
/* What follows the last '/' ("/usr/sbin/ibstat" gives "ibstat"). */
struct line line_basename(struct line ln);
bool line_starts(const struct line *ln, const char *prefix);
bool line_eq(const struct line *ln, const char *s);
bool line_contains(const struct line *ln, const char *s);
/* Whether the whole line is a kernel module's name (letters, digits, '_'
 * and '-', at most 64 bytes), as lsmod and openibd list them. */
bool line_is_module_name(const struct line *ln);
/* Splits "key: value" at the first sep; both parts trimmed.  False when
 * there is no sep. */
bool line_kv(const struct line *ln, char sep, struct line *key,
	     struct line *val);
/* Copies the line into a NUL-terminated buffer (truncating); returns buf. */
char *line_copy(const struct line *ln, char *buf, size_t size);
/* Splits the line at runs of spaces and tabs into at most max tokens;
 * returns the count (the last token is not split further). */
size_t line_split(const struct line *ln, struct line *tok, size_t max);
/* Parses a leading decimal number (after spaces); false when none. */
bool line_number(const struct line *ln, double *out);
/* Whether the token is 1 to max decimal digits and nothing else. */
bool line_digits(const struct line *t, size_t max);
/* Drops markdown emphasis a poster may have added ("**x**", "`x`"). */
struct line line_unmark(struct line ln);

/* Appends s with control characters and invalid UTF-8 escaped as \xNN,
 * so that no byte from a bundle reaches a terminal or JSON raw; stops
 * after max bytes of input with "...". */
void text_sanitize(struct strbuf *out, const char *s, size_t n, size_t max);

/* Reads a PCI address, "19:00.0" or "0000:19:00.0" (hex, any case), into
 * buf as "0000:19:00.0", the form sysfs uses; false when t is not one. */
bool line_pci_addr(const struct line *t, char *buf, size_t size);

/* Reads a PCI device id printed in decimal (ibv_devinfo vendor_part_id,
 * flint Device ID: "4119") into buf as hex ("1017"); false when t is not
 * one, or is 0. */
bool line_pci_id(const struct line *t, char *buf, size_t size);

/* The origin a driver version string suggests: "mlnx_ofed" for the
 * release-style numbers MLNX_OFED and DOCA-OFED give their modules
 * ("5.7-1.0.2"), "inbox" for the old in-tree "3.0-1 (January 2015)" and
 * the later in-tree "4.0-0" and "5.0-0",
 * else "unknown". */
const char *driver_origin_of(const char *v, size_t n);

/* The fact sink of one parsed file: every fact it adds cites this source. */
struct logscan;

struct emit {
	struct fact_base *fb;
	/* The kb's kernel-log scanner, for the log parser (borrowed; NULL:
	 * no signatures, so a log yields nothing).  emit_init leaves it NULL;
	 * whoever parses with a kb sets it. */
	struct logscan *scan;
	/* The kb's application-message scanner, for parse_app.c (borrowed;
	 * NULL: no application lines are looked for).  Set like scan. */
	struct logscan *app_scan;
	uint32_t src;
	unsigned nfacts; /* facts committed */
	/* Added to every cited line: a parser given part of a file (one
	 * command of a pasted session) still cites the file's lines. */
	uint32_t line_base;
	/* Facts of kind watch_kind (a symbol; 0 for none) committed, for
	 * the count of a listing. */
	uint32_t watch_kind;
	unsigned watched;
	/* The ordinal of this output among the outputs of one tool in a
	 * paste (0: the first, or not a paste).  From the second on, a
	 * value that differs from what an earlier output said of the same
	 * entity is kept as a change fact, in order, instead of losing to
	 * the first (a port that went down, firmware after an update). */
	unsigned snapshot;
	/* The program the command line above the text ran ("mstflint"),
	 * or NULL: a tool error a parser reads is that program's when the
	 * kb names it a tool (a flint parser reading mstflint's output). */
	const char *command;
	/* The one host every prompt of a paste names, or NULL: a host fact
	 * the paste's outputs give (uname, a module's path) is that host's,
	 * and gets its name from the prompt at host_at (host_line: the
	 * line as cited, line_base included). */
	const char *host;
	struct line host_at;
	uint32_t host_line;
	unsigned hosts_named; /* host facts that got the name */
	/* The whole command line the block of the text ran ("mpirun -np 2
	 * ./ucx_perftest"), or NULL: an application line that names no
	 * program is the program's the command ran (kb/app_context.yaml
	 * entries 'on: command'). */
	const char *command_line;
};

void emit_init(struct emit *e, struct fact_base *fb, const char *source);
/* Starts a fact that cites ln (may be NULL). */
struct fact *emit_begin(struct emit *e, const char *kind,
			const struct line *ln);
/* Sets a field from text; the fact base converts it to the field's type
 * and drops it when it does not convert ("..." for an elided number). */
void emit_str(struct emit *e, struct fact *f, const char *field, const char *s,
	      size_t n, const struct line *ln);
void emit_line(struct emit *e, struct fact *f, const char *field,
	       const struct line *val, const struct line *ln);

/* A "Key: value" line of a tool's output and the field it fills. */
struct field_key {
	const char *key;
	const char *field;
};

/* Sets the field that key names in keys[0..n) to val; false when no key
 * is key. */
bool emit_keyed(struct emit *e, struct fact *f, const struct field_key *keys,
		size_t n, const struct line *key, const struct line *val,
		const struct line *ln);
void emit_int(struct emit *e, struct fact *f, const char *field, int64_t v,
	      const struct line *ln);
void emit_num(struct emit *e, struct fact *f, const char *field, double v,
	      const struct line *ln);
void emit_bool(struct emit *e, struct fact *f, const char *field, bool v,
	       const struct line *ln);
void emit_value(struct emit *e, struct fact *f, const char *field,
		struct value v, const struct line *ln);
/* Sets a field read from a one-value file (sysfs): the field cites that
 * file, line 1. */
void emit_attr(struct emit *e, struct fact *f, const char *field,
	       const char *file, const char *s, size_t n);
/* Commits the fact (merging with an equal-keyed one); NULL f is ignored. */
const struct fact *emit_end(struct emit *e, struct fact *f);
/* Adds a tool_error fact: the line ln, printed by tool instead of data
 * (by e->command instead, when the kb names that program a tool). */
/* True for MFT's "-E- Aborted by user" (a declined prompt, no error). */
bool line_user_declined(const struct line *ln);
void emit_tool_error(struct emit *e, const char *tool, const struct line *ln);

#endif
