/* The diagnostics sink: problems are recorded where they are found and
 * printed once, by the CLI.  Messages follow "file:line:col: message". */
#ifndef RD_DIAG_H
#define RD_DIAG_H

#include <stddef.h>
#include <stdio.h>

enum diag_level {
	DIAG_ERROR,
	DIAG_WARNING,
	DIAG_NOTE,
};

struct diag_entry {
	enum diag_level level;
	char *file; /* NULL when the problem has no file */
	int line; /* 1-based, 0 = unknown */
	int col; /* 1-based, 0 = unknown */
	char *message;
	char *snippet; /* the offending source line, or NULL */
};

struct diag;

struct diag *diag_new(void);
void diag_free(struct diag *d);

/* Records a problem.  file and snippet are copied; either may be NULL. */
void diag_at(struct diag *d, enum diag_level level, const char *file, int line,
	     int col, const char *snippet, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
/* Shorthand for an error without a location. */
void diag_error(struct diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

size_t diag_count(const struct diag *d);
size_t diag_errors(const struct diag *d);
const struct diag_entry *diag_get(const struct diag *d, size_t i);
/* Forgets every entry. */
void diag_clear(struct diag *d);

/* Prints every entry as "file:line:col: level: message" followed, when a
 * snippet is known, by the line and a caret under the column. */
void diag_print(const struct diag *d, FILE *out, const char *prog);

#endif
