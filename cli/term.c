/* Colour decisions and safe printing. */
#include "cli/term.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/strbuf.h"

bool term_wants_color(FILE *out, enum term_mode mode)
{
	return mode == TERM_ALWAYS ||
	       (mode == TERM_AUTO && !getenv("NO_COLOR") &&
		isatty(fileno(out)));
}

enum term_color term_severity_color(enum severity s)
{
	static const enum term_color tones[] = {
#define X(id, name, weight, tone) [SEVERITY_##id] = TERM_##tone,
		RULE_SEVERITIES(X)
#undef X
	};

	return (unsigned)s < SEVERITY_COUNT ? tones[s] : TERM_NONE;
}

const char *term_on(bool color, enum term_color c)
{
	static const char *const codes[] = {
		[TERM_NONE] = "",
		[TERM_RED] = "\033[1;31m",
		[TERM_YELLOW] = "\033[1;33m",
		[TERM_GREEN] = "\033[32m",
		[TERM_BOLD] = "\033[1m",
		[TERM_DIM] = "\033[2m",
	};

	return color ? codes[c] : "";
}

const char *term_off(bool color)
{
	return color ? "\033[0m" : "";
}

void term_puts(FILE *out, const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	sb_add_printable(&sb, s, strlen(s), true);
	fputs(sb_str(&sb), out);
	sb_release(&sb);
}
