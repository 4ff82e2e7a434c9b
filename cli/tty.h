/* The guided session's terminal: output wrapped to the window and paged
 * so that nothing scrolls by unread, line input, a live progress line for
 * slow steps, and a terminal left clean when a signal ends the program. */
#ifndef RD_TTY_H
#define RD_TTY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "engine/strbuf.h"

struct tty;

/* Takes over in and out (a terminal) for a session, and installs the
 * handlers that clean the terminal up on SIGINT, SIGTERM and SIGHUP.
 * With color, the pager's prompt is dimmed and the handlers reset the
 * colour.  Returns an owned tty. */
struct tty *tty_open(FILE *in, FILE *out, bool color);
/* Restores the signal handlers and frees t. */
void tty_close(struct tty *t);

/* Has every line and prompt passed through mask before it is shown (the
 * guide's --redact): mask returns an owned copy of the len bytes of text.
 * NULL shows text as it is. */
typedef char *(*tty_mask_fn)(void *ctx, const char *text, size_t len);
void tty_set_mask(struct tty *t, tty_mask_fn mask, void *ctx);

/* Prints printf-style text.  Each line is wrapped to the window (see
 * tty_wrap) and, when a screenful has gone by since the last input, a
 * "more" prompt waits for Enter; 'q' there skips output until the next
 * prompt. */
void tty_printf(struct tty *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Prints text (it may hold colour escapes and newlines); any other
 * control character or escape is shown as \xNN, so that text from a
 * bundle cannot drive the terminal. */
void tty_puts(struct tty *t, const char *s);
/* Rows that text takes once wrapped. */
int tty_rows(const struct tty *t, const char *text);
/* Ends the skipping asked for at a "more" prompt: what follows is shown
 * (the end of one view, say, and the start of the next). */
void tty_end_skip(struct tty *t);
/* Starts a new page first when fewer than rows rows are left on this one,
 * so that a block (a question and its choices) stays together. */
void tty_keep(struct tty *t, int rows);

/* Prints prompt and reads one line into buf (without its newline).
 * Returns the line's length, or -1 at the end of input. */
int tty_read(struct tty *t, const char *prompt, char *buf, size_t size);

/* A live line that shows the current step of a long operation, with a
 * spinner and the seconds spent once a step takes a while.  tty_progress
 * has the shape of collect_progress_fn (arg is the tty). */
void tty_progress_begin(struct tty *t);
void tty_progress(void *arg, const char *step);
void tty_progress_end(struct tty *t);

/* Wraps one line (no newline in it) to width columns, appending rows
 * separated by '\n' to out; returns the number of rows.  Colour escapes
 * take no column and UTF-8 sequences take one.  Continuation rows are
 * indented: under the text after a list mark ("- "), else under the
 * column that follows the first gap of two spaces (a table cell), else by
 * the line's own indent plus two; never by more than half the width. */
int tty_wrap(const char *line, size_t len, int width, struct strbuf *out);

#endif
