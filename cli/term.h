/* Terminal output: colour only on a TTY and never with NO_COLOR, and
 * printing that never lets a byte from a bundle reach the terminal raw. */
#ifndef RD_TERM_H
#define RD_TERM_H

#include <stdbool.h>
#include <stdio.h>

#include "engine/rule.h"

enum term_color {
	TERM_NONE,
	TERM_RED,
	TERM_YELLOW,
	TERM_GREEN,
	TERM_BOLD,
	TERM_DIM,
};

/* --color=auto|always|never. */
enum term_mode {
	TERM_AUTO, /* on a terminal, unless NO_COLOR is set */
	TERM_ALWAYS,
	TERM_NEVER,
};

/* Decides colour for a stream: always on with TERM_ALWAYS; with TERM_AUTO
 * off when NO_COLOR is set (any value) or the stream is not a terminal.
 * main calls it once, for standard output, before a command runs; what
 * is written elsewhere (HTML, JSON, files) never asks for colour. */
void term_init(FILE *out, enum term_mode mode);
bool term_color_on(void);
/* The colour a severity is shown in (RULE_SEVERITIES' tone). */
enum term_color term_severity_color(enum severity s);

/* The escape that starts a colour ("" when colour is off) and the reset. */
const char *term_on(enum term_color c);
const char *term_off(void);

/* Prints s with control characters shown as \xNN. */
void term_puts(FILE *out, const char *s);

#endif
