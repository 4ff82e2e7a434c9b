/* Helpers the parser tests share: parse a sample file with a format
 * (checking that content detection names the same format), and find
 * facts and field values in the result. */
#ifndef RD_TEST_PARSED_H
#define RD_TEST_PARSED_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"

#define SAMPLES "tests/fixtures/samples/"

struct parsed {
	struct fact_base *fb;
	int facts;
};

static inline char *slurp(const char *path, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	FILE *fp = fopen(path, "rb");
	size_t n;

	if (!fp)
		fail_msg("cannot open %s", path);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		sb_add(&sb, buf, n);
	fclose(fp);
	*len = sb.len;
	return sb_detach(&sb);
}

/* Parses text as format; the facts cite source. */
static inline struct parsed parse_text(const char *format, const char *text,
				       size_t len, const char *source,
				       const char *arg)
{
	struct parsed p = { fact_base_new(), 0 };
	const struct format *f = format_find(format);
	struct emit e;

	if (!f)
		fail_msg("no format %s", format);
	emit_init(&e, p.fb, source);
	p.facts = f->parse(&e, text, len, arg);
	return p;
}

/* Parses a sample file as format, whatever detection would say (a
 * pasted session is a transcript, but each part has its format). */
static inline struct parsed parse_file(const char *format, const char *file,
				       const char *arg)
{
	size_t len;
	char *text = slurp(file, &len);
	struct parsed p = parse_text(format, text, len, file, arg);

	free(text);
	return p;
}

/* Parses a sample file; content detection must name the same format. */
static inline struct parsed parse(const char *format, const char *file,
				  const char *arg)
{
	size_t len;
	char *text = slurp(file, &len);
	struct parsed p = parse_text(format, text, len, file, arg);
	const struct format *got;
	int score;

	/* a paste is never detected as one format: it is cut into blocks */
	got = format_detect(text, len, &score);
	if (strcmp(format, "transcript") && got != format_find(format))
		fail_msg("%s is detected as %s, not %s", file,
			 got ? got->name : "nothing", format);
	free(text);
	return p;
}

static inline size_t count(const struct parsed *p, const char *kind)
{
	size_t n;

	fact_base_of_kind(p->fb, sym_intern_cstr(kind), &n);
	return n;
}

/* The n-th fact of a kind (0-based). */
static inline const struct fact *nth(const struct parsed *p, const char *kind,
				     size_t n)
{
	size_t c;
	const uint32_t *ids =
		fact_base_of_kind(p->fb, sym_intern_cstr(kind), &c);

	if (n >= c)
		fail_msg("only %zu %s facts", c, kind);
	return fact_base_get(p->fb, ids[n]);
}

/* The fact of kind whose field equals value. */
static inline const struct fact *find(const struct parsed *p, const char *kind,
				      const char *field, const char *value)
{
	struct value v = value_cstr(value);
	size_t n;
	const uint32_t *ids = fact_base_lookup(p->fb, sym_intern_cstr(kind),
					       sym_intern_cstr(field), &v, &n);

	if (!n)
		fail_msg("no %s with %s=%s", kind, field, value);
	return fact_base_get(p->fb, ids[0]);
}

static inline double num(const struct fact *f, const char *field)
{
	const struct value *v = fact_get(f, sym_intern_cstr(field));

	if (!v)
		fail_msg("no field %s", field);
	if (v->type != VALUE_INT && v->type != VALUE_NUMBER)
		fail_msg("field %s is not a number", field);
	return v->type == VALUE_INT ? (double)v->i : v->n;
}

/* The text of a field, failing when it is absent. */
static inline const char *text(const struct fact *f, const char *field)
{
	const char *s = fact_text(f, field);

	if (!s)
		fail_msg("no field %s", field);
	return s;
}

/* The line a field cites. */
static inline unsigned line_of(const struct fact *f, const char *field)
{
	const struct field *fl = fact_field(f, sym_intern_cstr(field));

	if (!fl)
		fail_msg("no field %s", field);
	return fl->prov.line;
}

/* A port, by device and number. */
static inline const struct fact *port(const struct parsed *p, const char *hca,
				      int number)
{
	for (size_t i = 0; i < count(p, "port"); i++) {
		const struct fact *f = nth(p, "port", i);

		if (!strcmp(fact_text(f, "hca"), hca) &&
		    num(f, "port") == number)
			return f;
	}
	fail_msg("no port %s/%d", hca, number);
	return NULL;
}

#endif
