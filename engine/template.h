/* Message templates: text with {var} holes filled from rule bindings. */
#ifndef RD_TEMPLATE_H
#define RD_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/strbuf.h"
#include "engine/value.h"

struct template_part {
	char *text; /* literal, or NULL for a variable */
	size_t len;
	int var; /* variable slot when text is NULL */
};

struct template
{
	struct template_part *parts;
	size_t nparts;
	char *source; /* the text as written; NULL = no template */
};

/* Resolves a variable name to its slot, or returns -1 when unknown. */
typedef int (*template_var_fn)(void *ctx, const char *name, size_t len);

/* Parses src: "{name}" is a variable, "{{" and "}}" are literal braces.
 * On error returns -EINVAL with a message and the 0-based offset. */
int template_parse(struct template *t, const char *src, template_var_fn var,
		   void *ctx, char *err, size_t errsize, size_t *erroff);
void template_free(struct template *t);
bool template_empty(const struct template *t);

/* Appends the text with each variable's value; an unbound slot (bound[i]
 * false) renders as "?". */
void template_render(const struct template *t, const struct value *values,
		     const bool *bound, struct strbuf *out);

#endif
