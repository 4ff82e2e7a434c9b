/* Fact files: the {"facts": [...]} that 'rdmadoctor facts --json' prints,
 * read back with their original provenance, so that evidence lines survive
 * (and written by generators, such as the benchmarks).  Knowledge-base
 * facts in the file are skipped: the kb comes from kb/.  The file is read
 * as a stream (engine/jscan.h), one fact at a time: a DOM of a few hundred
 * thousand facts would cost far more than the facts themselves. */
#include <stdlib.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "engine/jscan.h"
#include "engine/symbol.h"
#include "engine/vocab.h"
#include "engine/xalloc.h"

/* Longest fact file parsed, and most fields kept for one fact (a hostile
 * file may repeat a key without end). */
#define FACTS_MAX_BYTES (1u << 30) /* @@ */
#define FIELDS_MAX 1024 /* @@ */

/* A fact value from the next JSON value: scalars, and lists of them;
 * objects and null give no value. */
static struct value read_value(struct emit *e, struct jscan *s)
{
	const char *t;
	size_t len;
	bool is_int, b;
	int64_t i;
	double d;

	switch (jscan_peek(s)) {
	case JSCAN_STRING:
		t = jscan_string(s, &len);
		return t ? value_str(t, strlen(t)) : value_none();
	case JSCAN_NUMBER:
		if (jscan_number(s, &is_int, &i, &d))
			return value_none();
		return is_int ? value_int(i) : value_num(d);
	case JSCAN_BOOL:
		return jscan_bool(s, &b) ? value_none() : value_bool(b);
	case JSCAN_ARRAY: {
		struct value *items = NULL, v;
		struct value_list *l;
		size_t n = 0, cap = 0;

		if (jscan_array(s))
			return value_none();
		while (jscan_item(s)) {
			v = read_value(e, s);
			xgrow(&items, &cap, n + 1, sizeof(*items));
			items[n++] = v;
		}
		l = fact_base_list(e->fb, n);
		if (n)
			memcpy(l->items, items, n * sizeof(*items));
		free(items);
		return value_list(l);
	}
	default:
		jscan_skip(s);
		return value_none();
	}
}

/* Where a fact or field came from: "source", "line" and "text" members;
 * the text is left where it is, at *text, and read when needed. */
struct origin {
	uint32_t src, line;
	bool has_text;
	struct jscan_mark text;
};

/* Reads one member of a fact or of a provenance entry, if it is about
 * provenance; returns false for other keys (the value is still to read). */
static bool read_origin(struct emit *e, struct jscan *s, const char *key,
			struct origin *o)
{
	const char *t;
	size_t len;
	bool is_int;
	int64_t i;
	double d;

	if (!strcmp(key, "source")) {
		t = jscan_peek(s) == JSCAN_STRING ? jscan_string(s, &len) :
						    NULL;
		if (t && *t)
			o->src = fact_base_source(e->fb, t);
		else if (!t)
			jscan_skip(s);
	} else if (!strcmp(key, "line")) {
		if (jscan_peek(s) == JSCAN_NUMBER &&
		    !jscan_number(s, &is_int, &i, &d))
			o->line = (uint32_t)(is_int ? i : (int64_t)d);
		else
			jscan_skip(s);
	} else if (!strcmp(key, "text")) {
		o->has_text = jscan_peek(s) == JSCAN_STRING;
		o->text = jscan_tell(s);
		jscan_skip(s);
	} else {
		return false;
	}
	return true;
}

static const char *origin_text(struct jscan *s, const struct origin *o)
{
	size_t len;

	if (!o->has_text)
		return NULL;
	jscan_seek(s, o->text);
	return jscan_string(s, &len);
}

/* The provenance of field name in the fact's "prov" object, if any. */
static void field_origin(struct emit *e, struct jscan *s,
			 struct jscan_mark prov, uint32_t name,
			 struct origin *o)
{
	const char *key;
	size_t len;

	jscan_seek(s, prov);
	if (jscan_object(s))
		return;
	while ((key = jscan_key(s, &len))) {
		if (strcmp(key, sym_str(name))) {
			jscan_skip(s);
			continue;
		}
		o->src = e->src;
		if (jscan_peek(s) != JSCAN_OBJECT)
			return;
		jscan_object(s);
		while ((key = jscan_key(s, &len)))
			if (!read_origin(e, s, key, o))
				jscan_skip(s);
		return;
	}
}

/* One fact file being read: the stream, one fact's fields until the fact
 * is built, and the facts read so far, which join the base only once the
 * whole file has proved well-formed. */
struct reader {
	struct emit *e;
	struct jscan s;
	struct field_in {
		uint32_t name;
		struct value v;
	} * fields;
	size_t nfields, capfields;
	struct fact **pending;
	size_t npending, cappending;
};

/* Reads a "fields" object into r->fields; a later "fields" replaces it.
 * Of a name given twice, the first value counts (fact_put). */
static void read_fields(struct reader *r)
{
	const char *key;
	size_t len;

	r->nfields = 0;
	jscan_object(&r->s);
	while ((key = jscan_key(&r->s, &len))) {
		uint32_t name = sym_intern(key, strlen(key));
		struct value v = read_value(r->e, &r->s);

		if (v.type == VALUE_NONE || r->nfields >= FIELDS_MAX)
			continue;
		xgrow(&r->fields, &r->capfields, r->nfields + 1,
		      sizeof(*r->fields));
		r->fields[r->nfields].name = name;
		r->fields[r->nfields++].v = v;
	}
}

/* Reads one fact object in one pass, wherever its members stand; the
 * fact is built at its end.  Returns it uncommitted, or NULL. */
static struct fact *read_fact(struct reader *r)
{
	struct emit *e = r->e;
	struct jscan *s = &r->s;
	struct origin at = { e->src, 0, false, { 0 } };
	struct jscan_mark prov = { 0 }, after;
	bool has_fields = false, has_prov = false;
	const struct vocab_kind *vk;
	const char *key, *t;
	uint32_t kind = 0;
	struct fact *f;
	size_t len;

	if (jscan_peek(s) != JSCAN_OBJECT) {
		jscan_skip(s);
		return NULL;
	}
	jscan_object(s);
	while ((key = jscan_key(s, &len))) {
		if (read_origin(e, s, key, &at))
			continue;
		if (!strcmp(key, "kind") && jscan_peek(s) == JSCAN_STRING) {
			t = jscan_string(s, &len);
			kind = t && *t ? sym_intern(t, strlen(t)) : 0;
		} else if (!strcmp(key, "fields") &&
			   jscan_peek(s) == JSCAN_OBJECT) {
			read_fields(r);
			has_fields = true;
		} else if (!strcmp(key, "prov")) {
			prov = jscan_tell(s);
			has_prov = jscan_peek(s) == JSCAN_OBJECT;
			jscan_skip(s);
		} else {
			jscan_skip(s);
		}
	}
	after = jscan_tell(s);
	vk = kind ? vocab_kind(kind) : NULL;
	if (!kind || !has_fields || !r->nfields ||
	    (vk && !strcmp(vk->source, "kb")))
		return NULL;
	t = origin_text(s, &at);
	f = fact_base_begin(e->fb, kind, at.src, at.line, t, t ? strlen(t) : 0);
	fact_reserve(f, r->nfields);
	for (size_t i = 0; i < r->nfields; i++) {
		struct origin fo = { 0, 0, false, { 0 } };

		if (has_prov)
			field_origin(e, s, prov, r->fields[i].name, &fo);
		t = origin_text(s, &fo);
		fact_put_at(e->fb, f, r->fields[i].name, r->fields[i].v, fo.src,
			    fo.line, t, t ? strlen(t) : 0);
	}
	jscan_seek(s, after);
	if (!f->nfields) {
		fact_base_abandon(e->fb, f);
		return NULL;
	}
	return f;
}

/* Reads the {"facts": [...]} document; false when it is not one
 * well-formed JSON document. */
static bool read_file(struct reader *r)
{
	struct jscan *s = &r->s;
	const char *key;
	size_t len;
	struct fact *f;

	if (jscan_peek(s) == JSCAN_OBJECT) {
		jscan_object(s);
		while ((key = jscan_key(s, &len))) {
			if (strcmp(key, "facts") ||
			    jscan_peek(s) != JSCAN_ARRAY) {
				jscan_skip(s);
				continue;
			}
			jscan_array(s);
			while (jscan_item(s)) {
				if (!(f = read_fact(r)))
					continue;
				xgrow(&r->pending, &r->cappending,
				      r->npending + 1, sizeof(*r->pending));
				r->pending[r->npending++] = f;
			}
		}
	} else {
		jscan_skip(s);
	}
	return !jscan_failed(s) && jscan_at_end(s);
}

int parse_facts(struct emit *e, const char *text, size_t len, const char *arg)
{
	struct reader r = { .e = e };
	bool ok, added;

	(void)arg;
	if (len > FACTS_MAX_BYTES)
		return 0;
	jscan_init(&r.s, text, len);
	ok = read_file(&r);
	/* A file that is cut short or broken gives no facts at all, rather
	 * than those before the error. */
	for (size_t i = 0; i < r.npending; i++) {
		if (ok) {
			fact_base_commit(e->fb, r.pending[i], &added);
			e->nfacts++;
		} else {
			fact_base_abandon(e->fb, r.pending[i]);
		}
	}
	jscan_release(&r.s);
	free(r.fields);
	free(r.pending);
	return ok ? (int)r.npending : 0;
}

