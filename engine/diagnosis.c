/* Grouping firings into diagnoses, evidence, and ranking. */
#include "engine/diagnosis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/vocab.h"
#include "engine/xalloc.h"

/* Derived facts are traced back to host evidence at most this deep. */
#define EVIDENCE_DEPTH 16 /* @@ */

double diagnosis_cf_combine(double a, double b)
{
	if (a >= 0 && b >= 0)
		return a + b * (1 - a);
	if (a < 0 && b < 0)
		return -diagnosis_cf_combine(-a, -b);
	if (fabs(a) == 1 && fabs(b) == 1)
		return 0;
	return (a + b) / (1 - fmin(fabs(a), fabs(b)));
}

static void free_diagnosis(struct diagnosis *dg)
{
	if (!dg)
		return;
	for (size_t i = 0; i < dg->nremediation; i++)
		free(dg->remediation[i]);
	free(dg->remediation);
	free(dg->id);
	free(dg->message);
	free(dg->about);
	free(dg->evidence);
	free(dg->firings);
	free(dg->explains);
	free(dg->explained_by);
	free(dg);
}

void diagnosis_list_free(struct diagnosis_list *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		free_diagnosis(l->items[i]);
	free(l->items);
	free(l);
}

static void render(const struct template *t, const struct firing *fi,
		   char **out)
{
	struct strbuf sb = STRBUF_INIT;

	template_render(t, fi->values, fi->bound, &sb);
	*out = sb_detach(&sb);
}

static void add_evidence(struct diagnosis *dg, size_t *cap, struct prov p)
{
	if (!p.src || (!p.line && !p.text))
		return;
	for (size_t i = 0; i < dg->nevidence; i++)
		if (dg->evidence[i].src == p.src &&
		    dg->evidence[i].line == p.line &&
		    (p.line || dg->evidence[i].text == p.text))
			return;
	xgrow(&dg->evidence, cap, dg->nevidence + 1, sizeof(*dg->evidence));
	dg->evidence[dg->nevidence++] = p;
}

/* Whether facts of this kind describe the host (not the knowledge base). */
static bool host_fact(const struct fact *f)
{
	const struct vocab_kind *k = vocab_kind(f->kind);

	return !k || strcmp(k->source, "kb");
}

static void firing_evidence(const struct engine *e, const struct fact_base *fb,
			    const struct firing *fi, struct diagnosis *dg,
			    size_t *cap, int depth)
{
	const struct rule *r = fi->rule;

	if (depth > EVIDENCE_DEPTH)
		return;
	for (size_t i = 0; i < r->npatterns; i++) {
		const struct pattern *p = &r->patterns[i];
		const struct fact *f = fact_base_get(fb, fi->facts[i]);
		const struct firing *by;
		bool cited = false;

		if (!f || !host_fact(f))
			continue;
		by = engine_asserted_by(e, f);
		if (by) {
			firing_evidence(e, fb, by, dg, cap, depth + 1);
			continue;
		}
		for (size_t t = 0; t < p->ntests; t++) {
			const struct field *fl =
				fact_field(f, p->tests[t].field);

			if (fl && fl->prov.line) {
				add_evidence(dg, cap, fl->prov);
				cited = true;
			}
		}
		if (!cited)
			add_evidence(dg, cap, f->prov);
	}
}

static struct diagnosis *find(struct diagnosis_list *l, const char *id,
			      const char *about)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->items[i]->id, id) &&
		    !strcmp(l->items[i]->about, about))
			return l->items[i];
	return NULL;
}

static void take_rule(struct diagnosis *dg, const struct firing *fi)
{
	const struct rule *r = fi->rule;

	dg->rule = r;
	dg->layer = r->layer;
	dg->severity = r->severity;
	free(dg->message);
	render(&r->message, fi, &dg->message);
	for (size_t i = 0; i < dg->nremediation; i++)
		free(dg->remediation[i]);
	free(dg->remediation);
	dg->nremediation = r->nremediation;
	dg->remediation =
		xcalloc(r->nremediation ? r->nremediation : 1, sizeof(char *));
	for (size_t i = 0; i < r->nremediation; i++)
		render(&r->remediation[i], fi, &dg->remediation[i]);
}

/* Adds one firing to its diagnosis.  best_cf tracks, per diagnosis, the
 * strongest single firing, whose rule supplies message and remediation. */
static void add_firing(const struct engine *e, const struct fact_base *fb,
		       struct diagnosis_list *l, size_t *cap,
		       const struct firing *fi, double **best_cf,
		       size_t **evcap)
{
	const struct rule *r = fi->rule;
	struct diagnosis *dg;
	char *message, *about;
	size_t idx, fcap;

	render(&r->message, fi, &message);
	if (template_empty(&r->about))
		about = xstrdup(message);
	else
		render(&r->about, fi, &about);
	dg = find(l, r->diag_id, about);
	if (!dg) {
		if (fi->cf <= 0) {
			free(message);
			free(about);
			return;
		}
		xgrow(&l->items, cap, l->n + 1, sizeof(*l->items));
		*best_cf = xrealloc(*best_cf, *cap * sizeof(**best_cf));
		*evcap = xrealloc(*evcap, *cap * sizeof(**evcap));
		dg = xcalloc(1, sizeof(*dg));
		dg->id = xstrdup(r->diag_id);
		dg->about = about;
		about = NULL;
		(*best_cf)[l->n] = -2;
		(*evcap)[l->n] = 0;
		l->items[l->n++] = dg;
		dg->cf = fi->cf;
	} else {
		dg->cf = diagnosis_cf_combine(dg->cf, fi->cf);
	}
	for (idx = 0; l->items[idx] != dg; idx++)
		;
	if (fi->cf > (*best_cf)[idx]) {
		(*best_cf)[idx] = fi->cf;
		take_rule(dg, fi);
	}
	fcap = dg->nfirings;
	xgrow(&dg->firings, &fcap, dg->nfirings + 1, sizeof(*dg->firings));
	dg->firings[dg->nfirings++] = fi->id;
	if (fi->cf > 0)
		firing_evidence(e, fb, fi, dg, &(*evcap)[idx], 0);
	free(message);
	free(about);
}

static void push(size_t **items, size_t *n, size_t v)
{
	size_t cap = *n;

	xgrow(items, &cap, *n + 1, sizeof(**items));
	(*items)[(*n)++] = v;
}

static bool rule_explains(const struct diagnosis *cause, const char *id,
			  const struct engine *e)
{
	for (size_t i = 0; i < cause->nfirings; i++) {
		const struct rule *r =
			engine_firing(e, cause->firings[i])->rule;

		for (size_t j = 0; j < r->nexplains; j++)
			if (!strcmp(r->explains[j], id))
				return true;
	}
	return false;
}

static int cmp_rank(const void *a, const void *b)
{
	const struct diagnosis *x = *(struct diagnosis *const *)a;
	const struct diagnosis *y = *(struct diagnosis *const *)b;
	int c;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	if (x->layer != y->layer)
		return x->layer < y->layer ? -1 : 1;
	if (x->severity != y->severity)
		return x->severity > y->severity ? -1 : 1;
	c = strcmp(x->id, y->id);
	return c ? c : strcmp(x->about, y->about);
}

/* Raises each cause's score just above the symptoms it explains, so that
 * sorting puts causes first; bounded passes end cycles. */
static void order_causes(struct diagnosis_list *l, const struct engine *e)
{
	bool **links = xcalloc(l->n ? l->n : 1, sizeof(bool *));

	for (size_t i = 0; i < l->n; i++) {
		links[i] = xcalloc(l->n ? l->n : 1, sizeof(bool));
		for (size_t j = 0; j < l->n; j++)
			links[i][j] =
				i != j &&
				rule_explains(l->items[i], l->items[j]->id, e);
	}
	for (size_t pass = 0; pass < l->n; pass++) {
		bool changed = false;

		for (size_t i = 0; i < l->n; i++)
			for (size_t j = 0; j < l->n; j++)
				if (links[i][j] && !links[j][i] &&
				    l->items[i]->score <= l->items[j]->score) {
					l->items[i]->score =
						l->items[j]->score + 1e-6;
					changed = true;
				}
		if (!changed)
			break;
	}
	if (l->n)
		qsort(l->items, l->n, sizeof(*l->items), cmp_rank);
	for (size_t i = 0; i < l->n; i++) {
		for (size_t j = 0; j < l->n; j++) {
			if (i == j ||
			    !rule_explains(l->items[i], l->items[j]->id, e))
				continue;
			push(&l->items[i]->explains, &l->items[i]->nexplains,
			     j);
			push(&l->items[j]->explained_by,
			     &l->items[j]->nexplained_by, i);
		}
		l->items[i]->rank = (int)i + 1;
	}
	for (size_t i = 0; i < l->n; i++)
		free(links[i]);
	free(links);
}

struct diagnosis_list *diagnosis_collect(const struct engine *e,
					 const struct fact_base *fb)
{
	struct diagnosis_list *l = xcalloc(1, sizeof(*l));
	double *best_cf = NULL;
	size_t *evcap = NULL, cap = 0, kept = 0;

	for (uint32_t id = 1; id <= engine_firing_count(e); id++) {
		const struct firing *fi = engine_firing(e, id);

		if (fi->rule->diagnoses)
			add_firing(e, fb, l, &cap, fi, &best_cf, &evcap);
	}
	for (size_t i = 0; i < l->n; i++) {
		struct diagnosis *dg = l->items[i];

		if (dg->cf <= 0) {
			free_diagnosis(dg);
			continue;
		}
		dg->score = severity_weight(dg->severity) * dg->cf;
		l->items[kept++] = dg;
	}
	l->n = kept;
	order_causes(l, e);
	free(best_cf);
	free(evcap);
	return l;
}

bool diagnosis_any_at_least(const struct diagnosis_list *l, enum severity s)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->items[i]->severity >= s)
			return true;
	return false;
}
