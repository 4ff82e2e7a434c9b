/* Diagnostics sink: collects located messages for the CLI to print. */
#include "engine/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "engine/strbuf.h"
#include "engine/xalloc.h"

/* More messages than this only repeat the same mistake. */
#define DIAG_MAX 1000 /* @@ */

struct diag {
	struct diag_entry *items;
	size_t n, cap;
	size_t errors;
	size_t dropped;
};

static const char *const level_names[] = {
	[DIAG_ERROR] = "error",
	[DIAG_WARNING] = "warning",
	[DIAG_NOTE] = "note",
};

struct diag *diag_new(void)
{
	return xcalloc(1, sizeof(struct diag));
}

void diag_clear(struct diag *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->items[i].file);
		free(d->items[i].message);
		free(d->items[i].snippet);
	}
	d->n = d->errors = d->dropped = 0;
}

void diag_free(struct diag *d)
{
	if (!d)
		return;
	diag_clear(d);
	free(d->items);
	free(d);
}

static void add(struct diag *d, enum diag_level level, const char *file,
		int line, int col, const char *snippet, const char *fmt,
		va_list ap)
{
	struct strbuf sb = STRBUF_INIT;
	struct diag_entry *e;

	if (level == DIAG_ERROR)
		d->errors++;
	if (d->n >= DIAG_MAX) {
		d->dropped++;
		return;
	}
	xgrow(&d->items, &d->cap, d->n + 1, sizeof(*d->items));
	e = &d->items[d->n++];
	sb_vprintf(&sb, fmt, ap);
	e->level = level;
	e->file = file ? xstrdup(file) : NULL;
	e->line = line;
	e->col = col;
	e->message = sb_detach(&sb);
	e->snippet = snippet ? xstrdup(snippet) : NULL;
}

void diag_at(struct diag *d, enum diag_level level, const char *file, int line,
	     int col, const char *snippet, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add(d, level, file, line, col, snippet, fmt, ap);
	va_end(ap);
}

void diag_error(struct diag *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add(d, DIAG_ERROR, NULL, 0, 0, NULL, fmt, ap);
	va_end(ap);
}

size_t diag_count(const struct diag *d)
{
	return d->n;
}

size_t diag_errors(const struct diag *d)
{
	return d->errors;
}

const struct diag_entry *diag_get(const struct diag *d, size_t i)
{
	return i < d->n ? &d->items[i] : NULL;
}

static void print_snippet(FILE *out, const struct diag_entry *e,
			  const char *snippet)
{
	size_t len = strlen(snippet);
	int width;

	if ((size_t)e->col > len + 1)
		return;
	width = fprintf(out, " %5d | ", e->line) - 2;
	for (const char *p = snippet; *p;) {
		size_t k = utf8_printable_len(p, strnlen(p, 4));

		if (k)
			fwrite(p, 1, k, out);
		else
			fputc(*p == '\t' ? '\t' : '?', out);
		p += k ? k : 1;
	}
	fprintf(out, "\n%*s| ", width, "");
	for (int i = 1; i < e->col; i++)
		fputc(snippet[i - 1] == '\t' ? '\t' : ' ', out);
	fputs("^\n", out);
}

/* The 1-based line of a file, for entries recorded without a snippet;
 * NULL when the file cannot be read. */
static char *read_line(const char *path, int line)
{
	FILE *fp = fopen(path, "r");
	struct strbuf sb = STRBUF_INIT;
	int c, at = 1;

	if (!fp)
		return NULL;
	while ((c = fgetc(fp)) != EOF && at <= line) {
		if (c == '\n')
			at++;
		else if (at == line && sb.len < 200 && c != '\r')
			sb_putc(&sb, (char)c);
	}
	fclose(fp);
	if (at < line) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb);
}

void diag_print(const struct diag *d, FILE *out, const char *prog)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct diag_entry *e = &d->items[i];
		char *lazy = NULL;

		struct strbuf file = STRBUF_INIT, msg = STRBUF_INIT;

		/* Names and messages may quote a bundle: escape what could
		 * drive the terminal. */
		if (e->file)
			sb_add_printable(&file, e->file, strlen(e->file),
					 false);
		sb_add_printable(&msg, e->message, strlen(e->message), true);
		fprintf(out, "%s: ", prog);
		if (e->file && e->line && e->col)
			fprintf(out, "%s:%d:%d: ", sb_str(&file), e->line,
				e->col);
		else if (e->file && e->line)
			fprintf(out, "%s:%d: ", sb_str(&file), e->line);
		else if (e->file)
			fprintf(out, "%s: ", sb_str(&file));
		fprintf(out, "%s: %s\n", level_names[e->level], sb_str(&msg));
		sb_release(&file);
		sb_release(&msg);
		if (!e->snippet && e->file && e->line > 0 && e->col > 0)
			lazy = read_line(e->file, e->line);
		if ((e->snippet || lazy) && e->line > 0 && e->col > 0)
			print_snippet(out, e, e->snippet ? e->snippet : lazy);
		free(lazy);
	}
	if (d->dropped)
		fprintf(out, "%s: note: %zu more messages not shown\n", prog,
			d->dropped);
}
