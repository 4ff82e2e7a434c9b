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

/* Whether text for a stream is coloured: always with TERM_ALWAYS; with
 * TERM_AUTO not when NO_COLOR is set (any value) or the stream is not a
 * terminal.  main asks once, for standard output, and hands the answer
 * to the commands (options' colored); nothing here remembers it, so two
 * renderings in one process may differ.  What is written elsewhere
 * (HTML, JSON, files) is never coloured. */
bool term_wants_color(FILE *out, enum term_mode mode);
/* The colour a severity is shown in (RULE_SEVERITIES' tone). */
enum term_color term_severity_color(enum severity s);

/* The escape that starts a colour and the reset; "" when color is false. */
const char *term_on(bool color, enum term_color c);
const char *term_off(bool color);

/* Prints s with control characters shown as \xNN. */
void term_puts(FILE *out, const char *s);

#endif
