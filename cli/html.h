/* Writing HTML safely: every string that may come from a bundle (host and
 * device names, log lines, paths) goes through these, so that it can add
 * neither markup nor script to a report. */
#ifndef RD_HTML_H
#define RD_HTML_H

#include <stddef.h>
#include <stdio.h>

/* Writes s as HTML text or attribute value: & < > " ' become entities,
 * and control characters other than tab and newline become \xNN. */
void html_puts(FILE *out, const char *s);
/* The same for at most max characters of s (UTF-8 sequences count as
 * one), with an ellipsis when s was longer. */
void html_puts_max(FILE *out, const char *s, size_t max);
/* Writes s as a fragment identifier: letters, digits, '-' and '_' kept,
 * anything else as '_'. */
void html_id(FILE *out, const char *s);

/* The page up to and including <body>, with the report's inline style
 * sheet; title is escaped. */
void html_begin(FILE *out, const char *title);
void html_end(FILE *out);

#endif
