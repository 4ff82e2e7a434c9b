/* Grouping firings into diagnoses, evidence, and ranking. */
#include "engine/diagnosis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/fill.h"
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
	if (dg->message != dg->about)
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

/* Diagnoses under construction, found by (id, about) through an
 * open-addressing table, so that grouping stays linear in the firings.
 * best_cf tracks, per diagnosis, the strongest single firing, whose rule
 * supplies message and remediation; evcap is its evidence capacity. */
struct grouping {
	struct diagnosis_list *l;
	size_t cap;
	double *best_cf;
	size_t *evcap;
	size_t *slots; /* index + 1 into l->items; 0 = empty */
	size_t nslots;
};

static uint32_t group_hash(const char *id, const char *about)
{
	return hash_bytes(id, strlen(id)) * 31u ^
	       hash_bytes(about, strlen(about));
}

/* The slot that holds (id, about), or the empty one where it goes. */
static size_t group_slot(const struct grouping *g, const char *id,
			 const char *about)
{
	size_t i = group_hash(id, about) & (g->nslots - 1);

	for (; g->slots[i]; i = (i + 1) & (g->nslots - 1)) {
		const struct diagnosis *dg = g->l->items[g->slots[i] - 1];

		if (!strcmp(dg->id, id) && !strcmp(dg->about, about))
			break;
	}
	return i;
}

static void group_grow(struct grouping *g)
{
	if ((g->l->n + 1) * 2 <= g->nslots)
		return;
	free(g->slots);
	g->nslots = g->nslots ? g->nslots * 2 : 64;
	g->slots = xcalloc(g->nslots, sizeof(*g->slots));
	for (size_t k = 0; k < g->l->n; k++) {
		const struct diagnosis *dg = g->l->items[k];

		g->slots[group_slot(g, dg->id, dg->about)] = k + 1;
	}
}

static void take_rule(struct diagnosis *dg, const struct firing *fi,
		      const struct fact_base *fb)
{
	const struct rule *r = fi->rule;

	dg->rule = r;
	dg->layer = r->layer;
	dg->severity = r->severity;
	if (dg->message != dg->about)
		free(dg->message);
	/* Without an 'about', firings group by their message: it is the
	 * about text already rendered. */
	if (template_empty(&r->about))
		dg->message = dg->about;
	else
		render(&r->message, fi, &dg->message);
	for (size_t i = 0; i < dg->nremediation; i++)
		free(dg->remediation[i]);
	free(dg->remediation);
	dg->nremediation = r->nremediation;
	dg->remediation = r->nremediation ?
				  xcalloc(r->nremediation, sizeof(char *)) :
				  NULL;
	for (size_t i = 0; i < r->nremediation; i++) {
		char *text;

		render(&r->remediation[i], fi, &text);
		/* the commands it suggests carry the values the evidence
		 * knows */
		dg->remediation[i] = fill_placeholders(text, fi, fb);
		free(text);
	}
}

/* Adds one firing to its diagnosis. */
static void add_firing(const struct engine *e, const struct fact_base *fb,
		       struct grouping *g, const struct firing *fi)
{
	const struct rule *r = fi->rule;
	struct diagnosis_list *l = g->l;
	struct diagnosis *dg;
	char *about;
	size_t idx, slot, fcap;

	render(template_empty(&r->about) ? &r->message : &r->about, fi, &about);
	group_grow(g);
	slot = group_slot(g, r->diag_id, about);
	/* A negative firing opens its diagnosis too, so that evidence
	 * against it counts whichever firing comes first; diagnoses left at
	 * or below zero are dropped at the end. */
	if (!g->slots[slot]) {
		xgrow(&l->items, &g->cap, l->n + 1, sizeof(*l->items));
		g->best_cf = xrealloc(g->best_cf, g->cap * sizeof(*g->best_cf));
		g->evcap = xrealloc(g->evcap, g->cap * sizeof(*g->evcap));
		dg = xcalloc(1, sizeof(*dg));
		dg->id = r->diag_id;
		dg->about = about;
		about = NULL;
		g->best_cf[l->n] = -2;
		g->evcap[l->n] = 0;
		l->items[l->n++] = dg;
		g->slots[slot] = l->n;
	} else {
		dg = l->items[g->slots[slot] - 1];
	}
	idx = g->slots[slot] - 1;
	if (fi->cf > g->best_cf[idx]) {
		g->best_cf[idx] = fi->cf;
		take_rule(dg, fi, fb);
	}
	fcap = dg->nfirings;
	xgrow(&dg->firings, &fcap, dg->nfirings + 1, sizeof(*dg->firings));
	dg->firings[dg->nfirings++] = fi->id;
	if (fi->cf > 0)
		firing_evidence(e, fb, fi, dg, &g->evcap[idx], 0);
	free(about);
}

/* The diagnosis's certainty: each rule counts once, with its strongest
 * firing (one rule matching two facts is not two pieces of evidence),
 * and the rules combine as MYCIN certainty factors. */
static double combined_cf(const struct engine *e, const struct diagnosis *dg)
{
	struct {
		const struct rule *r;
		double cf;
	} *best = xcalloc(dg->nfirings, sizeof(*best));
	size_t n = 0;
	double cf = 0;

	for (size_t i = 0; i < dg->nfirings; i++) {
		const struct firing *fi = engine_firing(e, dg->firings[i]);
		size_t k = 0;

		while (k < n && best[k].r != fi->rule)
			k++;
		if (k == n) {
			best[n].r = fi->rule;
			best[n++].cf = fi->cf;
		} else if (fabs(fi->cf) > fabs(best[k].cf)) {
			best[k].cf = fi->cf;
		}
	}
	for (size_t k = 0; k < n; k++)
		cf = k ? diagnosis_cf_combine(cf, best[k].cf) : best[k].cf;
	free(best);
	return cf;
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

/* "cause explains symptom": an edge between list positions. */
struct link {
	size_t cause, symptom;
};

static int cmp_link(const void *a, const void *b)
{
	const struct link *x = a, *y = b;

	if (x->cause != y->cause)
		return x->cause < y->cause ? -1 : 1;
	return x->symptom < y->symptom ? -1 : x->symptom > y->symptom;
}

/* A diagnosis id and the list position of its diagnosis. */
struct id_pos {
	const char *id;
	size_t pos;
};

static int cmp_id_pos(const void *a, const void *b)
{
	const struct id_pos *x = a, *y = b;

	return strcmp(x->id, y->id);
}

/* Every (cause, symptom) pair of the list, sorted: diagnoses whose rules
 * explain the id of another diagnosis.  Each explained id is found by a
 * binary search over the diagnoses sorted by id; a list whose rules
 * explain nothing costs one pass. */
static struct link *find_links(const struct diagnosis_list *l,
			       const struct engine *e, size_t *nlinks)
{
	struct id_pos *by_id;
	struct link *links = NULL;
	size_t cap = 0, n = 0;
	bool any = false;

	*nlinks = 0;
	for (size_t i = 0; i < l->n && !any; i++)
		for (size_t f = 0; f < l->items[i]->nfirings && !any; f++)
			any = engine_firing(e, l->items[i]->firings[f])
				      ->rule->nexplains != 0;
	if (!any)
		return NULL;
	by_id = xmalloc(l->n * sizeof(*by_id));
	for (size_t i = 0; i < l->n; i++) {
		by_id[i].id = l->items[i]->id;
		by_id[i].pos = i;
	}
	if (l->n)
		qsort(by_id, l->n, sizeof(*by_id), cmp_id_pos);
	for (size_t i = 0; i < l->n; i++) {
		const struct diagnosis *cause = l->items[i];

		for (size_t f = 0; f < cause->nfirings; f++) {
			const struct rule *r =
				engine_firing(e, cause->firings[f])->rule;

			for (size_t x = 0; x < r->nexplains; x++) {
				const char *id = r->explains[x];
				size_t lo = 0, hi = l->n;

				while (lo < hi) {
					size_t mid = (lo + hi) / 2;

					if (strcmp(by_id[mid].id, id) < 0)
						lo = mid + 1;
					else
						hi = mid;
				}
				for (; lo < l->n && !strcmp(by_id[lo].id, id);
				     lo++) {
					if (by_id[lo].pos == i)
						continue;
					xgrow(&links, &cap, n + 1,
					      sizeof(*links));
					links[n].cause = i;
					links[n++].symptom = by_id[lo].pos;
				}
			}
		}
	}
	if (n)
		qsort(links, n, sizeof(*links), cmp_link);
	/* A rule may list an id twice, or two firings explain the same. */
	for (size_t i = 0; i < n; i++)
		if (!*nlinks || cmp_link(&links[*nlinks - 1], &links[i]))
			links[(*nlinks)++] = links[i];
	free(by_id);
	return links;
}

/* Raises each cause's score just above the symptoms it explains, so that
 * sorting puts causes first, and its severity to the worst of theirs (a
 * cause is at least as grave as what it explains); bounded passes end
 * cycles.  Two diagnoses that explain each other raise neither. */
static void order_causes(struct diagnosis_list *l, const struct engine *e)
{
	size_t n;
	struct link *links = find_links(l, e, &n);
	/* Each diagnosis's own score, so that two causes raised above one
	 * symptom keep their own order. */
	double *own = xcalloc(l->n ? l->n : 1, sizeof(*own));

	for (size_t i = 0; i < l->n; i++)
		own[i] = l->items[i]->score;
	for (size_t pass = 0; n && pass < l->n; pass++) {
		bool changed = false;

		for (size_t k = 0; k < n; k++) {
			struct diagnosis *c = l->items[links[k].cause];
			struct diagnosis *s = l->items[links[k].symptom];

			if (rule_explains(s, c->id, e))
				continue;
			if (c->severity < s->severity) {
				c->severity = s->severity;
				changed = true;
			}
			if (c->score <= s->score) {
				c->score = s->score +
					   1e-6 * (1 + own[links[k].cause]);
				changed = true;
			}
		}
		if (!changed)
			break;
	}
	free(own);
	free(links);
	if (l->n)
		qsort(l->items, l->n, sizeof(*l->items), cmp_rank);
	links = find_links(l, e, &n);
	for (size_t k = 0; k < n; k++) {
		push(&l->items[links[k].cause]->explains,
		     &l->items[links[k].cause]->nexplains, links[k].symptom);
		push(&l->items[links[k].symptom]->explained_by,
		     &l->items[links[k].symptom]->nexplained_by,
		     links[k].cause);
	}
	for (size_t i = 0; i < l->n; i++)
		l->items[i]->rank = (int)i + 1;
	free(links);
}

static bool has_tag(const struct rule *r, const char *tag)
{
	for (size_t i = 0; i < r->ntags; i++)
		if (!strcmp(r->tags[i], tag))
			return true;
	return false;
}

static bool is_fallback(const struct rule *r)
{
	return has_tag(r, "fallback");
}

/* Whether fact id is host evidence (collected, not knowledge or
 * derived). */
static bool host_evidence(const struct fact_base *fb, uint32_t id)
{
	const struct fact *f = fact_base_get(fb, id);
	const struct vocab_kind *k = f ? vocab_kind(f->kind) : NULL;

	return k && !f->firing && !strcmp(k->source, "collected");
}

/* Which diagnoses that are not fallbacks matched a fact: how many, and
 * the first two of them (list positions). */
struct citers {
	uint32_t n;
	uint32_t at[2];
	uint32_t last; /* list position + 1 of the latest citer */
};

static struct citers *cited_facts(const struct engine *e,
				  const struct fact_base *fb,
				  const struct diagnosis_list *l)
{
	size_t n = fact_base_count(fb);
	struct citers *cited = xcalloc(n + 1, sizeof(*cited));

	for (size_t i = 0; i < l->n; i++) {
		const struct diagnosis *dg = l->items[i];

		if (is_fallback(dg->rule))
			continue;
		for (size_t f = 0; f < dg->nfirings; f++) {
			const struct firing *fi =
				engine_firing(e, dg->firings[f]);

			for (size_t p = 0; p < fi->rule->npatterns; p++) {
				uint32_t id = fi->facts[p];
				struct citers *c = &cited[id];

				if (!id || id > n || c->last == i + 1)
					continue;
				if (c->n < 2)
					c->at[c->n] = (uint32_t)i;
				c->n++;
				c->last = (uint32_t)i + 1;
			}
		}
	}
	return cited;
}

/* Whether a diagnosis other than the symptoms fallback dg explains
 * matched the fact. */
static bool covered_by_other(const struct engine *e,
			     const struct diagnosis_list *l,
			     const struct diagnosis *dg,
			     const struct citers *c)
{
	if (c->n > 2)
		return true;
	for (uint32_t k = 0; k < c->n; k++)
		if (!rule_explains(dg, l->items[c->at[k]]->id, e))
			return true;
	return false;
}

/* A fallback diagnosis (a rule tagged 'fallback': a tool error or a
 * kernel line that no specific rule knows) stands only for evidence no
 * other diagnosis explains: it is dropped when every one of its firings
 * matched a host fact that another diagnosis (not one of the symptoms it
 * explains) matched too. */
static void drop_explained_fallbacks(const struct engine *e,
				     const struct fact_base *fb,
				     struct diagnosis_list *l)
{
	size_t n = fact_base_count(fb);
	struct citers *cited = NULL;
	bool *drop = xcalloc(l->n ? l->n : 1, sizeof(*drop));
	size_t kept = 0;

	for (size_t i = 0; i < l->n; i++) {
		struct diagnosis *dg = l->items[i];
		bool covered = is_fallback(dg->rule);

		if (covered && !cited)
			cited = cited_facts(e, fb, l);
		for (size_t f = 0; covered && f < dg->nfirings; f++) {
			const struct firing *fi =
				engine_firing(e, dg->firings[f]);
			bool shared = false;

			for (size_t p = 0; !shared && p < fi->rule->npatterns;
			     p++) {
				uint32_t id = fi->facts[p];

				shared = id && id <= n && cited[id].n &&
					 host_evidence(fb, id) &&
					 covered_by_other(e, l, dg, &cited[id]);
			}
			covered = shared;
		}
		drop[i] = covered;
	}
	for (size_t i = 0; i < l->n; i++) {
		if (drop[i])
			free_diagnosis(l->items[i]);
		else
			l->items[kept++] = l->items[i];
	}
	l->n = kept;
	free(drop);
	free(cited);
}

static bool is_suspect(const struct diagnosis *dg)
{
	return has_tag(dg->rule, "suspect");
}

/* Whether firing fi, or a firing that asserted a fact it matched, matched
 * the host fact id. */
static bool firing_uses(const struct engine *e, const struct fact_base *fb,
			const struct firing *fi, uint32_t id, int depth)
{
	if (depth > EVIDENCE_DEPTH)
		return false;
	for (size_t i = 0; i < fi->rule->npatterns; i++) {
		const struct fact *f = fact_base_get(fb, fi->facts[i]);
		const struct firing *by;

		if (!f)
			continue;
		if (fi->facts[i] == id)
			return true;
		by = engine_asserted_by(e, f);
		if (by && firing_uses(e, fb, by, id, depth + 1))
			return true;
	}
	return false;
}

/* Whether a diagnosis of dg's firings matched the host fact id. */
static bool diagnosis_uses(const struct engine *e, const struct fact_base *fb,
			   const struct diagnosis *dg, uint32_t id)
{
	for (size_t k = 0; k < dg->nfirings; k++)
		if (firing_uses(e, fb, engine_firing(e, dg->firings[k]), id, 0))
			return true;
	return false;
}

/* Whether firing fi (through the facts it derived from) and diagnosis y
 * matched one host fact. */
static bool firing_shares(const struct engine *e, const struct fact_base *fb,
			  const struct firing *fi, const struct diagnosis *y,
			  int depth)
{
	if (depth > EVIDENCE_DEPTH)
		return false;
	for (size_t i = 0; i < fi->rule->npatterns; i++) {
		const struct fact *f = fact_base_get(fb, fi->facts[i]);
		const struct firing *by;

		if (!f || !host_fact(f))
			continue;
		by = engine_asserted_by(e, f);
		if (by ? firing_shares(e, fb, by, y, depth + 1) :
			 diagnosis_uses(e, fb, y, fi->facts[i]))
			return true;
	}
	return false;
}

/* Whether suspect s and diagnosis y were raised from one host fact. */
static bool share_evidence(const struct engine *e, const struct fact_base *fb,
			   const struct diagnosis *s, const struct diagnosis *y)
{
	for (size_t k = 0; k < s->nfirings; k++)
		if (firing_shares(e, fb, engine_firing(e, s->firings[k]), y, 0))
			return true;
	return false;
}

/* Whether diagnosis d confirms a cause: not a suspect, not tagged
 * 'symptom' (a restatement of what was seen), at warning or above. */
static bool confirmed_cause(const struct diagnosis *d)
{
	return !is_suspect(d) && !has_tag(d->rule, "symptom") &&
	       d->severity >= SEVERITY_WARNING;
}

/* Whether a confirmed cause answers the suspect s: one of s's layer
 * raised from the evidence s was raised from, or a symptom that a
 * confirmed cause explains (explained[y]) citing that evidence.  A cause
 * of another device or object leaves the suspect standing. */
static bool suspect_answered(const struct engine *e,
			     const struct fact_base *fb,
			     const struct diagnosis_list *l,
			     const bool *explained, const struct diagnosis *s)
{
	for (size_t c = 0; c < l->n; c++) {
		const struct diagnosis *d = l->items[c];

		if (d == s)
			continue;
		if ((explained[c] || (confirmed_cause(d) && d->layer == s->layer)) &&
		    share_evidence(e, fb, s, d))
			return true;
	}
	return false;
}

/* A suspect (a rule tagged 'suspect': a cause a symptom points at, not
 * yet confirmed) gives way to a confirmed diagnosis that answers its
 * check (suspect_answered).  Which diagnoses a confirmed cause explains
 * is found once, not once per suspect. */
static void drop_answered_suspects(const struct engine *e,
				   const struct fact_base *fb,
				   struct diagnosis_list *l)
{
	size_t n = l->n ? l->n : 1;
	bool *drop = xcalloc(n, sizeof(*drop));
	bool *explained = xcalloc(n, sizeof(*explained));
	bool any = false;
	size_t kept = 0;

	for (size_t i = 0; i < l->n; i++)
		any |= is_suspect(l->items[i]);
	for (size_t c = 0; any && c < l->n; c++) {
		if (!confirmed_cause(l->items[c]))
			continue;
		for (size_t y = 0; y < l->n; y++)
			if (y != c && !explained[y] && !is_suspect(l->items[y]) &&
			    rule_explains(l->items[c], l->items[y]->id, e))
				explained[y] = true;
	}
	for (size_t i = 0; any && i < l->n; i++)
		drop[i] = is_suspect(l->items[i]) &&
			  suspect_answered(e, fb, l, explained, l->items[i]);
	for (size_t i = 0; i < l->n; i++) {
		if (drop[i])
			free_diagnosis(l->items[i]);
		else
			l->items[kept++] = l->items[i];
	}
	l->n = kept;
	free(explained);
	free(drop);
}

struct diagnosis_list *diagnosis_collect(const struct engine *e,
					 const struct fact_base *fb)
{
	struct grouping g = { 0 };
	size_t kept = 0;

	g.l = xcalloc(1, sizeof(*g.l));
	for (uint32_t id = 1; id <= engine_firing_count(e); id++) {
		const struct firing *fi = engine_firing(e, id);

		if (fi->rule->diagnoses)
			add_firing(e, fb, &g, fi);
	}
	for (size_t i = 0; i < g.l->n; i++) {
		struct diagnosis *dg = g.l->items[i];

		dg->cf = combined_cf(e, dg);
		if (dg->cf <= 0) {
			free_diagnosis(dg);
			continue;
		}
		dg->score = severity_weight(dg->severity) * dg->cf;
		g.l->items[kept++] = dg;
	}
	g.l->n = kept;
	free(g.best_cf);
	free(g.evcap);
	free(g.slots);
	drop_explained_fallbacks(e, fb, g.l);
	drop_answered_suspects(e, fb, g.l);
	order_causes(g.l, e);
	return g.l;
}

bool diagnosis_any_at_least(const struct diagnosis_list *l, enum severity s)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->items[i]->severity >= s)
			return true;
	return false;
}
