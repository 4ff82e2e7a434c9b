/* The JSON report and the JSON fact dump (DESIGN.md §6). */
#include <stdlib.h>
#include <string.h>

#include "cli/near_miss.h"
#include "cli/report.h"
#include "collectors/parsers/factfile.h"
#include "engine/explain.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/vocab.h"

static struct json *rounded(double v)
{
	return json_new_double(report_round(v));
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

static struct json *diagnosis_json(const struct report_doc *doc,
				   const struct report_diagnosis *dg)
{
	struct json *o = json_new_object(), *arr;

	json_set(o, "rank", json_new_int(dg->rank));
	json_set(o, "id", json_new_string(dg->id));
	json_set(o, "title", json_new_string(dg->title));
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

		json_set(ev, "source", json_new_string(dg->evidence[i].source));
		json_set(ev, "line", json_new_int(dg->evidence[i].line));
		json_set(ev, "text", json_new_string(dg->evidence[i].text));
		json_push(arr, ev);
	}
	json_set(o, "evidence", arr);
	arr = json_new_array();
	for (size_t i = 0; i < dg->nexplains; i++)
		json_push(arr, json_new_string(
				       doc->diagnoses[dg->explains[i]].id));
	json_set(o, "explains", arr);
	if (doc->explain) {
		arr = json_new_array();
		for (size_t i = 0; i < dg->nwhy; i++)
			json_push(arr, explain_json(dg->why[i]));
		json_set(o, "explanation", arr);
	}
	return o;
}

static struct json *collectors_json(const struct report_collector *c,
				    size_t n)
{
	struct json *arr = json_new_array();

	for (size_t i = 0; i < n; i++) {
		struct json *o = json_new_object();

		json_set(o, "name", json_new_string(c[i].name));
		json_set(o, "status", json_new_string(c[i].status));
		json_set(o, "detail", json_new_string(c[i].detail));
		json_push(arr, o);
	}
	return arr;
}

struct json *report_collectors_json(const struct fact_base *fb)
{
	size_t n;
	struct report_collector *c = report_collectors(fb, &n);
	struct json *arr = collectors_json(c, n);

	free(c);
	return arr;
}

static struct json *strings_json(char *const *list, size_t n)
{
	struct json *arr = json_new_array();

	for (size_t i = 0; i < n; i++)
		json_push(arr, json_new_string(list[i]));
	return arr;
}

static struct json *near_fact_json(const struct near_fact *nf)
{
	struct json *o = json_new_object();

	json_set(o, "fact", json_new_string(nf->label));
	json_set(o, "fields", json_new_string(nf->fields));
	json_set(o, "held", json_new_int((long long)nf->held));
	json_set(o, "tests", json_new_int((long long)nf->tests));
	json_set(o, "fails", strings_json(nf->fails, nf->nfails));
	json_set(o, "source", json_new_string(nf->source ? nf->source : ""));
	json_set(o, "line", json_new_int(nf->line));
	return o;
}

/* --why-not: [{id, layer, severity, file, line, status, matched,
 * conditions, condition?}] */
static struct json *near_misses_json(const struct report_doc *doc)
{
	struct json *arr = json_new_array();

	for (size_t i = 0; i < doc->nnear; i++) {
		const struct near_miss *nm = &doc->near[i];
		struct json *o = json_new_object();

		json_set(o, "id", json_new_string(nm->rule->id));
		json_set(o, "layer",
			 json_new_string(layer_to_str(nm->rule->layer)));
		json_set(o, "severity",
			 json_new_string(severity_to_str(nm->rule->severity)));
		json_set(o, "file", json_new_string(nm->rule->file));
		json_set(o, "line", json_new_int(nm->rule->line));
		json_set(o, "status",
			 json_new_string(near_miss_status_to_str(nm->status)));
		json_set(o, "matched", json_new_int((long long)nm->matched));
		json_set(o, "conditions",
			 json_new_int((long long)nm->conditions));
		json_set(o, "evidence_matched",
			 json_new_int((long long)nm->evidence_matched));
		json_set(o, "evidence_conditions",
			 json_new_int((long long)nm->evidence_conditions));
		if (nm->condition) {
			struct json *c = json_new_object(),
				    *near = json_new_array();

			json_set(c, "line", json_new_int(nm->condition_line));
			json_set(c, "text", json_new_string(nm->condition));
			json_set(c, "kind", json_new_string(nm->kind));
			json_set(c, "facts", json_new_int((long long)nm->nfacts));
			for (size_t k = 0; k < nm->nnearest; k++)
				json_push(near, near_fact_json(&nm->nearest[k]));
			json_set(c, "nearest", near);
			json_set(o, "condition", c);
		}
		json_push(arr, o);
	}
	return arr;
}

struct json *report_json(const struct report_doc *doc)
{
	struct json *root = json_new_object(), *src = json_new_object(), *arr;

	json_set(root, "schema_version", json_new_int(RD_SCHEMA_VERSION));
	json_set(root, "version", json_new_string(RD_VERSION));
	json_set(root, "verdict", json_new_string(doc->verdict));
	json_set(src, "kind", json_new_string(doc->kind));
	json_set(src, "path", json_new_string(doc->path));
	json_set(src, "paths",
		 strings_json((char *const *)doc->paths, doc->npaths));
	json_set(src, "hostname", json_new_string(doc->hostname));
	json_set(root, "source", src);
	arr = json_new_array();
	for (int l = 0; l < LAYER_COUNT; l++) {
		struct json *lj = json_new_object();

		json_set(lj, "name",
			 json_new_string(layer_to_str((enum layer)l)));
		json_set(lj, "status",
			 json_new_string(
				 layer_status_to_str(doc->layers[l].status)));
		json_set(lj, "summary", json_new_string(doc->layers[l].summary));
		json_push(arr, lj);
	}
	json_set(root, "layers", arr);
	arr = json_new_array();
	for (size_t i = 0; i < doc->ndiagnoses; i++)
		json_push(arr, diagnosis_json(doc, &doc->diagnoses[i]));
	json_set(root, "diagnoses", arr);
	arr = json_new_array();
	for (size_t i = 0; i < doc->nskipped; i++) {
		const struct skipped *sk = &doc->skipped[i];
		struct json *s = json_new_object(), *needs = json_new_object();

		json_set(s, "id", json_new_string(sk->id));
		json_set(s, "missing", strings_json(sk->missing, sk->nmissing));
		json_set(needs, "facts", strings_json(sk->kinds, sk->nkinds));
		json_set(needs, "answers",
			 strings_json(sk->questions, sk->nquestions));
		json_set(s, "needs", needs);
		json_push(arr, s);
	}
	json_set(root, "skipped", arr);
	if (doc->why_not)
		json_set(root, "near_misses", near_misses_json(doc));
	arr = collectors_json(doc->collectors, doc->ncollectors);
	json_set(root, "collectors", arr);
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
