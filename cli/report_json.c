/* The JSON report and the JSON fact dump (DESIGN.md §6). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report.h"
#include "collectors/parsers/factfile.h"
#include "engine/explain.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/vocab.h"

/* Rounds to three decimals so that output is stable across platforms. */
static struct json *rounded(double v)
{
	return json_new_double(round(v * 1000) / 1000);
}

static struct json *explain_json(const struct explain *x)
{
	struct json *o = json_new_object(), *steps = json_new_array();

	json_set(o, "rule", json_new_string(x->rule->id));
	json_set(o, "file", json_new_string(x->rule->file));
	json_set(o, "line", json_new_int(x->rule->line));
	json_set(o, "confidence", rounded(x->firing->cf));
	for (size_t i = 0; i < x->nsteps; i++) {
		const struct explain_step *s = &x->steps[i];
		struct json *st = json_new_object(), *cmp = json_new_array();

		json_set(st, "condition",
			 json_new_string(s->type == PATTERN_MATCH ? "match" :
					 s->type == PATTERN_NOT	  ? "not" :
								    "exists"));
		json_set(st, "fact", json_new_string(s->label));
		if (s->where)
			json_set(st, "where", json_new_string(s->where));
		for (size_t k = 0; k < s->ncomparisons; k++)
			json_push(cmp, json_new_string(s->comparisons[k]));
		json_set(st, "comparisons", cmp);
		if (s->because)
			json_set(st, "derived_by", explain_json(s->because));
		json_push(steps, st);
	}
	json_set(o, "conditions", steps);
	return o;
}

static struct json *diagnosis_json(const struct analysis *a,
				   const struct diagnosis *dg, bool explain)
{
	struct json *o = json_new_object(), *arr;

	json_set(o, "rank", json_new_int(dg->rank));
	json_set(o, "id", json_new_string(dg->id));
	json_set(o, "title", json_new_string(dg->rule->title));
	json_set(o, "layer", json_new_string(layer_to_str(dg->layer)));
	json_set(o, "severity", json_new_string(severity_to_str(dg->severity)));
	json_set(o, "confidence", rounded(dg->cf));
	json_set(o, "score", rounded(dg->score));
	json_set(o, "message", json_new_string(dg->message));
	arr = json_new_array();
	for (size_t i = 0; i < dg->nremediation; i++)
		json_push(arr, json_new_string(dg->remediation[i]));
	json_set(o, "remediation", arr);
	arr = json_new_array();
	for (size_t i = 0; i < dg->nevidence; i++) {
		struct json *ev = json_new_object();

		json_set(ev, "source",
			 json_new_string(fact_base_source_name(
				 a->fb, dg->evidence[i].src)));
		json_set(ev, "line", json_new_int(dg->evidence[i].line));
		json_set(ev, "text",
			 json_new_string(dg->evidence[i].text ?
						 dg->evidence[i].text :
						 ""));
		json_push(arr, ev);
	}
	json_set(o, "evidence", arr);
	arr = json_new_array();
	for (size_t i = 0; i < dg->nexplains; i++)
		json_push(arr,
			  json_new_string(a->dl->items[dg->explains[i]]->id));
	json_set(o, "explains", arr);
	if (explain) {
		arr = json_new_array();
		for (size_t i = 0; i < dg->nfirings; i++) {
			struct explain *x = explain_firing(
				a->engine, a->fb,
				engine_firing(a->engine, dg->firings[i]));

			json_push(arr, explain_json(x));
			explain_free(x);
		}
		json_set(o, "explanation", arr);
	}
	return o;
}

struct json *report_collectors_json(const struct fact_base *fb)
{
	struct json *arr = json_new_array();
	size_t n;
	const uint32_t *ids =
		fact_base_of_kind(fb, sym_intern_cstr("collector"), &n);

	for (size_t i = 0; i < n; i++) {
		const struct fact *f = fact_base_get(fb, ids[i]);
		struct json *c = json_new_object();

		json_set(c, "name", json_new_string(fact_text(f, "name")));
		json_set(c, "status", json_new_string(fact_text(f, "status")));
		json_set(c, "detail", json_new_string(fact_text(f, "detail")));
		json_push(arr, c);
	}
	return arr;
}

const char *report_verdict(const struct analysis *a)
{
	if (a->dl && diagnosis_any_at_least(a->dl, SEVERITY_WARNING))
		return "diagnosed";
	return analysis_insufficient(a) ? "insufficient_evidence" : "healthy";
}

struct json *report_json(const struct analysis *a, const struct report_opts *o)
{
	struct json *root = json_new_object(), *src = json_new_object(), *arr;

	json_set(root, "schema_version", json_new_int(RD_SCHEMA_VERSION));
	json_set(root, "version", json_new_string(RD_VERSION));
	json_set(root, "verdict", json_new_string(report_verdict(a)));
	json_set(src, "kind", json_new_string(a->source_kind));
	json_set(src, "path", json_new_string(a->source_path));
	json_set(src, "hostname", json_new_string(a->hostname));
	json_set(root, "source", src);
	arr = json_new_array();
	for (int l = 0; l < LAYER_COUNT; l++) {
		struct json *lj = json_new_object();

		json_set(lj, "name",
			 json_new_string(layer_to_str((enum layer)l)));
		json_set(lj, "status",
			 json_new_string(
				 layer_status_to_str(a->layers[l].status)));
		json_set(lj, "summary", json_new_string(a->layers[l].summary));
		json_push(arr, lj);
	}
	json_set(root, "layers", arr);
	arr = json_new_array();
	for (size_t i = 0; a->dl && i < a->dl->n; i++)
		json_push(arr, diagnosis_json(a, a->dl->items[i], o->explain));
	json_set(root, "diagnoses", arr);
	arr = json_new_array();
	for (size_t i = 0; i < a->nskipped; i++) {
		struct json *s = json_new_object(), *m = json_new_array();

		json_set(s, "id", json_new_string(a->skipped[i].id));
		for (size_t k = 0; k < a->skipped[i].nmissing; k++)
			json_push(m, json_new_string(a->skipped[i].missing[k]));
		json_set(s, "missing", m);
		json_push(arr, s);
	}
	json_set(root, "skipped", arr);
	json_set(root, "collectors", report_collectors_json(a->fb));
	return root;
}

void report_print_json(FILE *out, struct json *j)
{
	char *s = json_dump(j, true);

	fputs(s, out);
	fputc('\n', out);
	free(s);
}

struct json *report_facts_json(const struct fact_base *fb)
{
	return factfile_json(fb, NULL);
}

/* Facts that describe the host: collected facts and answers, without the
 * knowledge base and derived facts. */
static bool describes_host(const struct fact *f)
{
	const struct vocab_kind *vk = vocab_kind(f->kind);

	return !f->firing && vk && strcmp(vk->source, "kb");
}

struct json *report_snapshot_json(const struct fact_base *fb)
{
	return factfile_json(fb, describes_host);
}
