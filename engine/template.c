/* Template parsing and rendering. */
#include "engine/template.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

static void add_part(struct template *t, size_t *cap, const char *text,
		     size_t len, int var)
{
	struct template_part *p;

	xgrow(&t->parts, cap, t->nparts + 1, sizeof(*t->parts));
	p = &t->parts[t->nparts++];
	p->text = text ? xstrndup(text, len) : NULL;
	p->len = len;
	p->var = var;
}

static int name_char(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (!first && c >= '0' && c <= '9');
}

int template_parse(struct template *t, const char *src, template_var_fn var,
		   void *ctx, char *err, size_t errsize, size_t *erroff)
{
	struct strbuf lit = STRBUF_INIT;
	size_t cap = 0;
	const char *p = src;

	memset(t, 0, sizeof(*t));
	t->source = xstrdup(src);
	while (*p) {
		const char *start, *end;
		int slot;

		if ((p[0] == '{' && p[1] == '{') ||
		    (p[0] == '}' && p[1] == '}')) {
			sb_putc(&lit, p[0]);
			p += 2;
			continue;
		}
		if (*p == '}') {
			snprintf(
				err, errsize,
				"unmatched '}' (write '}}' for a literal brace)");
			goto fail;
		}
		if (*p != '{') {
			sb_putc(&lit, *p++);
			continue;
		}
		start = p + 1;
		end = start;
		while (name_char(*end, end == start))
			end++;
		if (*end != '}' || end == start) {
			snprintf(
				err, errsize,
				"expected '{name}' (write '{{' for a literal brace)");
			goto fail;
		}
		slot = var(ctx, start, (size_t)(end - start));
		if (slot < 0) {
			snprintf(
				err, errsize,
				"template uses '{%.*s}', but no condition binds $%.*s",
				(int)(end - start), start, (int)(end - start),
				start);
			goto fail;
		}
		if (lit.len)
			add_part(t, &cap, lit.buf, lit.len, -1);
		sb_reset(&lit);
		add_part(t, &cap, NULL, 0, slot);
		p = end + 1;
	}
	if (lit.len)
		add_part(t, &cap, lit.buf, lit.len, -1);
	sb_release(&lit);
	return 0;
fail:
	*erroff = (size_t)(p - src);
	sb_release(&lit);
	template_free(t);
	return -EINVAL;
}

void template_free(struct template *t)
{
	for (size_t i = 0; i < t->nparts; i++)
		free(t->parts[i].text);
	free(t->parts);
	free(t->source);
	memset(t, 0, sizeof(*t));
}

bool template_empty(const struct template *t)
{
	return !t->source;
}

void template_render(const struct template *t, const struct value *values,
		     const bool *bound, struct strbuf *out)
{
	for (size_t i = 0; i < t->nparts; i++) {
		const struct template_part *p = &t->parts[i];

		if (p->text)
			sb_add(out, p->text, p->len);
		else if (bound[p->var])
			value_format(&values[p->var], out);
		else
			sb_putc(out, '?');
	}
}
