/* Placeholders of remediation text filled from a firing's facts. */
#include "engine/fill.h"

#include <string.h>

#include "engine/rule.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/xalloc.h"

/* Longest placeholder, "<" and ">" included. */
#define FILL_MAX_NAME 32 /* @@ */

/* Where a placeholder's value is: the field of a fact of the kind, or of
 * any kind when kind is NULL.  The names are those the rules' remediation
 * texts use for a value they could not bind (rules/ *.yaml); the fields
 * are engine/vocab.def's. */
static const struct fill {
	const char *placeholder;
	const char *kind;
	const char *field;
} fills[] = {
	{ "<PCI address>", "hca", "pci" },
	{ "<PCI address>", NULL, "pci" },
	{ "<address>", "hca", "pci" },
	{ "<address>", NULL, "pci" },
	{ "<device>", "hca", "name" },
	{ "<device>", NULL, "hca" },
	{ "<dev>", "hca", "name" },
	{ "<dev>", NULL, "hca" },
	{ "<netdev>", "netdev", "name" },
	{ "<netdev>", NULL, "netdev" },
	{ "<interface>", "netdev", "name" },
	{ "<interface>", NULL, "netdev" },
	{ "<port>", "port", "port" },
	{ "<lid>", "port", "lid" },
};

/* The one value of placeholder name (len bytes) among the firing's
 * facts, or NULL when none or more than one. */
static const char *value_of(const char *name, size_t len,
			    const struct firing *fi, const struct fact_base *fb)
{
	const char *found = NULL;

	for (size_t t = 0; t < sizeof(fills) / sizeof(fills[0]); t++) {
		uint32_t kind;

		if (strlen(fills[t].placeholder) != len ||
		    memcmp(fills[t].placeholder, name, len))
			continue;
		kind = fills[t].kind ? sym_intern_cstr(fills[t].kind) : 0;
		for (size_t i = 0; i < fi->rule->npatterns; i++) {
			const struct fact *f;
			const char *v;

			if (!fi->facts[i])
				continue;
			f = fact_base_get(fb, fi->facts[i]);
			if (!f || (kind && f->kind != kind))
				continue;
			v = fact_text(f, fills[t].field);
			if (!v || !*v)
				continue;
			if (found && strcmp(found, v))
				return NULL;
			found = v;
		}
	}
	return found;
}

/* The one value of placeholder name among the facts of the kinds the
 * table names, or NULL when none or more than one. */
static const char *value_in_base(const char *name, size_t len,
				 const struct fact_base *fb)
{
	const char *found = NULL;

	for (size_t t = 0; t < sizeof(fills) / sizeof(fills[0]); t++) {
		const uint32_t *ids;
		size_t n;

		if (!fills[t].kind || strlen(fills[t].placeholder) != len ||
		    memcmp(fills[t].placeholder, name, len))
			continue;
		ids = fact_base_of_kind(fb, sym_intern_cstr(fills[t].kind), &n);
		for (size_t i = 0; i < n; i++) {
			const char *v =
				fact_text(fact_base_get(fb, ids[i]), fills[t].field);

			if (!v || !*v)
				continue;
			if (found && strcmp(found, v))
				return NULL;
			found = v;
		}
	}
	return found;
}

/* Copies text, replacing each placeholder that one of the lookups
 * (fi's facts when fi is given, else fb's) gives a value. */
static char *fill(const char *text, const struct firing *fi,
		  const struct fact_base *fb)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = text;

	while (*p) {
		const char *end = *p == '<' ? strchr(p, '>') : NULL;
		const char *v = NULL;
		size_t len = end ? (size_t)(end - p) + 1 : 0;

		if (end && len <= FILL_MAX_NAME)
			v = fi ? value_of(p, len, fi, fb) :
				 value_in_base(p, len, fb);
		if (v) {
			sb_puts(&sb, v);
			p = end + 1;
		} else {
			sb_putc(&sb, *p++);
		}
	}
	return sb_detach(&sb);
}

char *fill_placeholders(const char *text, const struct firing *fi,
			const struct fact_base *fb)
{
	return fill(text, fi, fb);
}

char *fill_from_facts(const char *text, const struct fact_base *fb)
{
	return fill(text, NULL, fb);
}
