/* The report's document: the one walk over an analysis that every
 * renderer of a host's report reads (report.h). */
#include <math.h>
#include <stdlib.h>

#include "cli/report.h"
#include "engine/explain.h"
#include "engine/symbol.h"
#include "engine/xalloc.h"

double report_round(double v)
{
	return round(v * 1000) / 1000;
}

const char *report_verdict(const struct analysis *a)
{
	if (a->dl && diagnosis_any_at_least(a->dl, SEVERITY_WARNING))
		return "diagnosed";
	return analysis_insufficient(a) ? "insufficient_evidence" : "healthy";
}

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

static void fill_diagnosis(struct report_diagnosis *rd,
			   const struct analysis *a, const struct diagnosis *dg,
			   bool explain)
{
	rd->rank = dg->rank;
	rd->id = dg->id;
	rd->title = dg->rule->title;
	rd->message = or_empty(dg->message);
	rd->layer = dg->layer;
	rd->severity = dg->severity;
	rd->cf = dg->cf;
	rd->score = dg->score;
	rd->remediation = dg->remediation;
	rd->nremediation = dg->nremediation;
	rd->nevidence = dg->nevidence;
	rd->evidence = xcalloc(dg->nevidence ? dg->nevidence : 1,
			       sizeof(*rd->evidence));
	for (size_t i = 0; i < dg->nevidence; i++) {
		rd->evidence[i].source =
			fact_base_source_name(a->fb, dg->evidence[i].src);
		rd->evidence[i].line = dg->evidence[i].line;
		rd->evidence[i].text = dg->evidence[i].text;
	}
	rd->explains = dg->explains;
	rd->nexplains = dg->nexplains;
	rd->explained_by = dg->explained_by;
	rd->nexplained_by = dg->nexplained_by;
	if (!explain)
		return;
	rd->nwhy = dg->nfirings;
	rd->why = xcalloc(dg->nfirings ? dg->nfirings : 1, sizeof(*rd->why));
	for (size_t i = 0; i < dg->nfirings; i++)
		rd->why[i] = explain_firing(
			a->engine, a->fb,
			engine_firing(a->engine, dg->firings[i]));
}

struct report_collector *report_collectors(const struct fact_base *fb,
					   size_t *n)
{
	const uint32_t *ids =
		fact_base_of_kind(fb, sym_intern_cstr("collector"), n);
	struct report_collector *c = xcalloc(*n ? *n : 1, sizeof(*c));

	for (size_t i = 0; i < *n; i++) {
		const struct fact *f = fact_base_get(fb, ids[i]);

		c[i].name = or_empty(fact_text(f, "name"));
		c[i].status = or_empty(fact_text(f, "status"));
		c[i].detail = fact_text(f, "detail");
	}
	return c;
}

struct report_doc *report_doc_new(const struct analysis *a,
				  const struct report_opts *o)
{
	struct report_doc *doc = xcalloc(1, sizeof(*doc));
	size_t n = a->dl ? a->dl->n : 0;

	doc->explain = o->explain;
	doc->color = o->color;
	doc->command = o->command ? o->command : "";
	doc->verdict = report_verdict(a);
	doc->insufficient = analysis_insufficient(a);
	doc->kind = or_empty(a->source_kind);
	doc->path = or_empty(a->source_path);
	doc->paths = (const char *const *)a->source_paths;
	doc->npaths = a->nsource_paths;
	doc->hostname = or_empty(a->hostname);
	doc->layers = a->layers;
	doc->ndiagnoses = n;
	doc->diagnoses = xcalloc(n ? n : 1, sizeof(*doc->diagnoses));
	for (size_t i = 0; i < n; i++)
		fill_diagnosis(&doc->diagnoses[i], a, a->dl->items[i],
			       o->explain);
	doc->skipped = a->skipped;
	doc->nskipped = a->nskipped;
	doc->collectors = report_collectors(a->fb, &doc->ncollectors);
	doc->why_not = o->why_not;
	doc->near = o->near;
	doc->nnear = o->nnear;
	return doc;
}

void report_doc_free(struct report_doc *doc)
{
	if (!doc)
		return;
	for (size_t i = 0; i < doc->ndiagnoses; i++) {
		struct report_diagnosis *rd = &doc->diagnoses[i];

		for (size_t k = 0; k < rd->nwhy; k++)
			explain_free(rd->why[k]);
		free(rd->why);
		free(rd->evidence);
	}
	free(doc->diagnoses);
	free(doc->collectors);
	free(doc);
}
