/* Fact files: the {"facts": [...]} that 'rdmadoctor facts --json' prints,
 * read back with their original provenance, so that evidence lines survive
 * (and written by generators, such as the benchmarks).  Knowledge-base
 * facts in the file are skipped: the kb comes from kb/. */
#include <string.h>

#include "collectors/formats.h"
#include "engine/json.h"
#include "engine/symbol.h"
#include "engine/vocab.h"

/* Longest fact file parsed, and most facts read from it. */
#define FACTS_MAX_BYTES (1u << 30) /* @@ */

static struct value value_of(struct emit *e, const struct json *j)
{
	const char *t;

	switch (json_kind_of(j)) {
	case JSON_INT:
		return value_int(json_as_int(j));
	case JSON_DOUBLE:
		return value_num(json_as_double(j));
	case JSON_BOOL:
		return value_bool(json_as_bool(j));
	case JSON_STRING:
		t = json_text(j);
		return value_str(t, strlen(t));
	case JSON_ARRAY: {
		size_t n = json_len(j);
		struct value_list *l = fact_base_list(e->fb, n);

		for (size_t i = 0; i < n; i++)
			l->items[i] = value_of(e, json_at(j, i));
		return value_list(l);
	}
	default:
		return value_none();
	}
}

/* The provenance a field or fact carries in the file. */
static void prov_of(struct emit *e, const struct json *p, uint32_t *src,
		    uint32_t *line, const char **text)
{
	const char *s = json_text(json_get(p, "source"));
	const struct json *l = json_get(p, "line");

	*src = s && *s ? fact_base_source(e->fb, s) : e->src;
	*line = l ? (uint32_t)json_as_int(l) : 0;
	*text = json_text(json_get(p, "text"));
}

int parse_facts(struct emit *e, const char *text, size_t len, const char *arg)
{
	char err[160];
	struct json *root;
	const struct json *facts;
	unsigned before = e->nfacts;

	(void)arg;
	if (len > FACTS_MAX_BYTES)
		return 0;
	root = json_parse(text, len, err, sizeof(err));
	facts = root ? json_get(root, "facts") : NULL;
	for (size_t i = 0; i < json_len(facts); i++) {
		const struct json *o = json_at(facts, i), *fields, *val;
		const struct json *prov = json_get(o, "prov");
		const char *kind = json_text(json_get(o, "kind")), *t;
		const struct vocab_kind *vk;
		uint32_t sid, lno;
		struct fact *f;
		bool added;

		fields = json_get(o, "fields");
		if (!kind || !*kind || json_kind_of(fields) != JSON_OBJECT)
			continue;
		vk = vocab_kind_named(kind);
		if (vk && !strcmp(vk->source, "kb"))
			continue;
		prov_of(e, o, &sid, &lno, &t);
		f = fact_base_begin(e->fb, sym_intern_cstr(kind), sid, lno, t,
				    t ? strlen(t) : 0);
		for (size_t k = 0; k < json_len(fields); k++) {
			const char *name = json_key_at(fields, k, &val);
			const struct json *fp =
				name ? json_get(prov, name) : NULL;
			struct value v = value_of(e, val);
			uint32_t fs = 0, fl = 0;
			const char *ft = NULL;

			if (!name || v.type == VALUE_NONE)
				continue;
			if (fp)
				prov_of(e, fp, &fs, &fl, &ft);
			fact_put_at(e->fb, f, sym_intern_cstr(name), v, fs, fl,
				    ft, ft ? strlen(ft) : 0);
		}
		if (!f->nfields) {
			fact_base_abandon(e->fb, f);
			continue;
		}
		fact_base_commit(e->fb, f, &added);
		e->nfacts++;
	}
	json_free(root);
	return (int)(e->nfacts - before);
}

int detect_facts(const char *text, size_t len)
{
	size_t i = 0;

	while (i < len && strchr(" \t\r\n", text[i]))
		i++;
	if (i >= len || text[i] != '{')
		return 0;
	return memmem(text, len < 4096 ? len : 4096, "\"facts\"", 7) ? 90 : 0;
}
