/* Fact files: writing the {"facts": [...]} that parse_facts.c reads back,
 * with the provenance of every fact and field. */
#include "collectors/parsers/factfile.h"

#include "engine/symbol.h"

static struct json *value_json(const struct value *v)
{
	struct strbuf sb = STRBUF_INIT;
	struct json *j;

	switch (v->type) {
	case VALUE_INT:
		return json_new_int(v->i);
	case VALUE_NUMBER:
		return json_new_double(v->n);
	case VALUE_BOOL:
		return json_new_bool(v->b);
	case VALUE_LIST:
		j = json_new_array();
		for (size_t i = 0; i < v->list->n; i++)
			json_push(j, value_json(&v->list->items[i]));
		return j;
	default:
		value_format(v, &sb);
		j = json_new_string(sb_str(&sb));
		sb_release(&sb);
		return j;
	}
}

/* Where each field came from, when it has its own line: "prov": {field:
 * {source, line, text}}, so that a fact file read back keeps the
 * evidence. */
static void add_field_prov(const struct fact_base *fb, const struct fact *f,
			   struct json *o)
{
	struct json *prov = NULL;

	for (uint32_t i = 0; i < f->nfields; i++) {
		const struct prov *p = &f->fields[i].prov;
		struct json *pj;

		if (!p->src || (!p->line && !p->text))
			continue;
		if (!prov)
			prov = json_new_object();
		pj = json_new_object();
		json_set(pj, "source",
			 json_new_string(fact_base_source_name(fb, p->src)));
		json_set(pj, "line", json_new_int(p->line));
		if (p->text)
			json_set(pj, "text", json_new_string(p->text));
		json_set(prov, sym_str(f->fields[i].name), pj);
	}
	if (prov)
		json_set(o, "prov", prov);
}

struct json *factfile_json(const struct fact_base *fb,
			   bool (*keep)(const struct fact *f))
{
	struct json *root = json_new_object(), *arr = json_new_array();

	json_set(root, "schema_version", json_new_int(RD_SCHEMA_VERSION));

	for (uint32_t id = 1; id <= fact_base_count(fb); id++) {
		const struct fact *f = fact_base_get(fb, id);
		struct json *o, *fields;

		if (keep && !keep(f))
			continue;
		o = json_new_object();
		fields = json_new_object();

		json_set(o, "kind", json_new_string(sym_str(f->kind)));
		for (uint32_t i = 0; i < f->nfields; i++)
			json_set(fields, sym_str(f->fields[i].name),
				 value_json(&f->fields[i].v));
		json_set(o, "fields", fields);
		json_set(o, "source",
			 json_new_string(
				 fact_base_source_name(fb, f->prov.src)));
		json_set(o, "line", json_new_int(f->prov.line));
		if (f->prov.text)
			json_set(o, "text", json_new_string(f->prov.text));
		add_field_prov(fb, f, o);
		json_push(arr, o);
	}
	json_set(root, "facts", arr);
	return root;
}
