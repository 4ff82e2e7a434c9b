/* Comparing two analyses: facts matched by kind and key fields. */
#include "cli/recheck.h"

#include <stdlib.h>
#include <string.h>

#include "engine/symbol.h"
#include "engine/vocab.h"
#include "engine/xalloc.h"

struct keyed {
	char *key; /* "hca mlx5_0", or the whole fact for kinds without keys */
	const struct fact *f;
};

static void render_fields(const struct fact *f, bool keys_only,
			  const struct vocab_kind *vk, struct strbuf *sb)
{
	for (uint32_t i = 0; i < f->nfields; i++) {
		const struct vocab_field *vf =
			vocab_field(vk, f->fields[i].name);

		if (keys_only && !(vf && vf->key))
			continue;
		sb_putc(sb, ' ');
		if (!keys_only)
			sb_printf(sb, "%s=", sym_str(f->fields[i].name));
		value_format(&f->fields[i].v, sb);
	}
}

static bool has_key(const struct vocab_kind *vk)
{
	for (size_t i = 0; i < vk->nfields; i++)
		if (vk->fields[i].key)
			return true;
	return false;
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct keyed *)a)->key,
		      ((const struct keyed *)b)->key);
}

/* The collected facts of fb, sorted by key. */
static struct keyed *collected(const struct fact_base *fb, size_t *n)
{
	struct keyed *v = xcalloc(fact_base_count(fb) + 1, sizeof(*v));

	*n = 0;
	for (uint32_t id = 1; id <= fact_base_count(fb); id++) {
		const struct fact *f = fact_base_get(fb, id);
		const struct vocab_kind *vk = vocab_kind(f->kind);
		struct strbuf sb = STRBUF_INIT;

		if (f->firing || !vk || strcmp(vk->source, "collected"))
			continue;
		sb_puts(&sb, sym_str(f->kind));
		render_fields(f, has_key(vk), vk, &sb);
		v[*n].key = sb_detach(&sb);
		v[(*n)++].f = f;
	}
	if (*n)
		qsort(v, *n, sizeof(*v), by_key);
	return v;
}

static void free_keyed(struct keyed *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].key);
	free(v);
}

static void show_value(const struct value *v, struct strbuf *sb)
{
	if (v)
		value_format(v, sb);
	else
		sb_puts(sb, "(none)");
}

/* Field changes of one fact, as "key: field old -> new" lines. */
static size_t field_changes(const struct keyed *a, const struct fact *b,
			    struct strbuf *lines)
{
	size_t changes = 0;

	for (int pass = 0; pass < 2; pass++) {
		const struct fact *f = pass ? b : a->f, *g = pass ? a->f : b;

		for (uint32_t i = 0; i < f->nfields; i++) {
			uint32_t name = f->fields[i].name;
			const struct value *old = fact_get(a->f, name);
			const struct value *now = fact_get(b, name);

			if (pass && fact_get(g, name))
				continue; /* seen in the first pass */
			if (old && now && value_equal(old, now))
				continue;
			sb_printf(lines, "  %s: %s ", a->key, sym_str(name));
			show_value(old, lines);
			sb_puts(lines, " -> ");
			show_value(now, lines);
			sb_putc(lines, '\n');
			changes++;
		}
	}
	return changes;
}

static size_t evidence(const struct analysis *before,
		       const struct analysis *after, size_t max,
		       struct strbuf *out)
{
	size_t na, nb, i = 0, j = 0, changes = 0;
	struct keyed *a = collected(before->fb, &na);
	struct keyed *b = collected(after->fb, &nb);
	struct strbuf lines = STRBUF_INIT;

	while (i < na || j < nb) {
		int cmp = i == na ? 1 :
			  j == nb ? -1 :
				    strcmp(a[i].key, b[j].key);

		if (cmp < 0) {
			sb_printf(&lines, "  gone: %s\n", a[i++].key);
			changes++;
		} else if (cmp > 0) {
			sb_printf(&lines, "  new: %s\n", b[j++].key);
			changes++;
		} else {
			changes += field_changes(&a[i++], b[j++].f, &lines);
		}
	}
	if (changes) {
		const char *p = sb_str(&lines);

		sb_puts(out, "Evidence:\n");
		for (size_t k = 0; k < max && *p; k++) {
			const char *nl = strchr(p, '\n');

			sb_add(out, p, (size_t)(nl - p + 1));
			p = nl + 1;
		}
		if (changes > max)
			sb_printf(out, "  and %zu more changes\n",
				  changes - max);
	}
	sb_release(&lines);
	free_keyed(a, na);
	free_keyed(b, nb);
	return changes;
}

static size_t layers(const struct analysis *before,
		     const struct analysis *after, struct strbuf *out)
{
	size_t changes = 0;

	for (int l = 0; l < LAYER_COUNT; l++) {
		enum layer_status was = before->layers[l].status,
				  now = after->layers[l].status;

		if (was == now)
			continue;
		if (!changes++)
			sb_puts(out, "Layers:\n");
		sb_printf(
			out, "  %-14s %s -> %s\n", layer_to_str((enum layer)l),
			was == LAYER_FAULT ? "FAULT" : layer_status_to_str(was),
			now == LAYER_FAULT ? "FAULT" :
					     layer_status_to_str(now));
	}
	return changes;
}

static const struct diagnosis *find(const struct analysis *a,
				    const struct diagnosis *dg)
{
	for (size_t i = 0; a->dl && i < a->dl->n; i++)
		if (!strcmp(a->dl->items[i]->id, dg->id) &&
		    !strcmp(a->dl->items[i]->about, dg->about))
			return a->dl->items[i];
	return NULL;
}

static void diagnosis_line(const char *what, const struct diagnosis *dg,
			   struct strbuf *out)
{
	sb_printf(out, "  %-6s %s (%s): %s\n", what, dg->rule->title, dg->id,
		  dg->message);
}

static size_t diagnoses(const struct analysis *before,
			const struct analysis *after, struct strbuf *out)
{
	size_t changes = 0, n = 0;

	for (size_t i = 0; before->dl && i < before->dl->n; i++)
		n++;
	for (size_t i = 0; after->dl && i < after->dl->n; i++)
		n++;
	if (!n)
		return 0;
	sb_puts(out, "Diagnoses:\n");
	for (size_t i = 0; before->dl && i < before->dl->n; i++) {
		const struct diagnosis *dg = before->dl->items[i];

		if (!find(after, dg)) {
			diagnosis_line("fixed", dg, out);
			changes++;
		}
	}
	for (size_t i = 0; after->dl && i < after->dl->n; i++) {
		const struct diagnosis *dg = after->dl->items[i];
		bool seen = find(before, dg) != NULL;

		diagnosis_line(seen ? "still" : "new", dg, out);
		changes += !seen;
	}
	return changes;
}

size_t recheck_diff(const struct analysis *before, const struct analysis *after,
		    size_t max_evidence, struct strbuf *out)
{
	size_t changes = evidence(before, after, max_evidence, out);

	changes += layers(before, after, out);
	changes += diagnoses(before, after, out);
	return changes;
}
