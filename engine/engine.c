/* Forward chaining.  Every rule is first matched against the whole fact
 * base by an indexed nested-loop join in the rule's plan order: each
 * condition draws its candidates from the fact base's value index (the
 * smallest list among its equality tests on constants or bound
 * variables), never from a scan of all facts.  A fact asserted later is
 * matched incrementally: only the conditions on its kind whose indexed
 * constant it holds (engine/alpha.h) are tried, pinned to the new fact.
 * 'not' conditions are checked when a match completes and again just
 * before it fires, since facts asserted in between may defeat them. */
#include "engine/engine.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/alpha.h"
#include "engine/match.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/vocab.h"
#include "engine/xalloc.h"

/* values, facts and bound share one allocation, owned through values
 * (see match_alloc); a firing takes them over. */
struct activation {
	uint32_t rule;
	uint32_t *facts;
	struct value *values;
	bool *bound;
	uint64_t seq;
	int salience;
	int stratum;
};

/* A refraction key: a rule and the facts of its matching conditions,
 * which sit in the engine's pool of key facts (one allocation for all the
 * keys, since a run may make a hundred thousand). */
struct rkey {
	uint32_t hash;
	uint32_t rule1; /* rule + 1; 0 = empty slot */
	size_t at; /* offset of the facts in the pool */
};

struct engine {
	const struct rule_set *rs;
	struct fact_base *fb;
	struct diag *d;
	size_t nrules;
	struct alpha_net *alpha;
	struct activation **heap;
	size_t nheap, capheap;
	uint64_t seq;
	struct rkey *refr;
	size_t nrefr, usedrefr;
	uint32_t *refr_facts; /* the pool */
	size_t nrefr_facts, caprefr_facts;
	struct firing **firings;
	size_t nfirings, capfirings;
	size_t nasserting; /* firings of rules that assert facts */
	uint32_t *asserted_by; /* fact id -> firing id */
	size_t capasserted;
	bool *fired; /* per rule */
	size_t *matched; /* per rule: activations made */
	int *stratum; /* per rule: fires after lower strata */
	size_t max_firings;
	size_t max_matches; /* per rule */
	struct engine_stats stats;
	uint32_t sym_answer, sym_question;
	bool started; /* the first full match has run */
	bool overflow; /* an assertion built a value past the cap */
};

/* The state of one join: a rule matched with one condition possibly
 * pinned to one fact. */
struct join {
	struct engine *e;
	uint32_t ri;
	const struct rule *r;
	int pin; /* pattern index or -1 */
	uint32_t pin_fact;
	const bool *ignore; /* conditions taken as satisfied, or NULL */
	bool probe; /* only find out whether a match exists */
	bool found;
	struct bindings b;
	uint32_t *facts;
};

static const struct rule *rule_at(const struct engine *e, uint32_t i)
{
	return rule_set_at(e->rs, i);
}

static bool asserts_kind(const struct rule *r, uint32_t kind)
{
	for (size_t i = 0; i < r->nasserts; i++)
		if (r->asserts[i].kind == kind)
			return true;
	return false;
}

/* Orders rules so that a rule with 'not' on a derived kind fires only
 * after every rule asserting that kind has settled (stratified negation):
 * stratum(R) >= stratum(A) when R matches what A asserts, and > when R
 * negates it.  A cycle through 'not' cannot be stratified; those rules
 * keep the strata reached and rely on the re-check before firing. */
static void stratify(struct engine *e)
{
	size_t n = e->nrules, nasserting = 0;
	uint32_t *asserting = xmalloc((n ? n : 1) * sizeof(*asserting));
	bool changed = true;

	/* Only rules that assert can raise another's stratum. */
	for (uint32_t k = 0; k < n; k++)
		if (rule_at(e, k)->nasserts)
			asserting[nasserting++] = k;
	e->stratum = xcalloc(n ? n : 1, sizeof(int));
	for (size_t pass = 0; changed && nasserting && pass <= n; pass++) {
		changed = false;
		for (uint32_t i = 0; i < n; i++) {
			const struct rule *r = rule_at(e, i);

			for (size_t p = 0; p < r->npatterns; p++) {
				const struct pattern *pt = &r->patterns[p];
				int gap = pt->type == PATTERN_NOT;

				for (size_t a = 0; a < nasserting; a++) {
					uint32_t k = asserting[a];

					if (!asserts_kind(rule_at(e, k),
							  pt->kind) ||
					    e->stratum[i] >=
						    e->stratum[k] + gap)
						continue;
					e->stratum[i] = e->stratum[k] + gap;
					changed = true;
				}
			}
		}
	}
	free(asserting);
}

struct engine *engine_new(const struct rule_set *rs, struct fact_base *fb,
			  struct diag *d)
{
	struct engine *e = xcalloc(1, sizeof(*e));

	e->rs = rs;
	e->fb = fb;
	e->d = d;
	e->nrules = rule_set_count(rs);
	e->fired = xcalloc(e->nrules ? e->nrules : 1, sizeof(bool));
	e->matched = xcalloc(e->nrules ? e->nrules : 1, sizeof(size_t));
	e->max_firings = ENGINE_DEFAULT_MAX_FIRINGS;
	e->max_matches = ENGINE_DEFAULT_MAX_MATCHES;
	e->sym_answer = sym_intern_cstr("answer");
	e->sym_question = sym_intern_cstr("question");
	e->alpha = alpha_net_new(rs);
	stratify(e);
	return e;
}

static void free_activation(struct activation *a)
{
	if (!a)
		return;
	free(a->values);
	free(a);
}

void engine_free(struct engine *e)
{
	if (!e)
		return;
	alpha_net_free(e->alpha);
	for (size_t i = 0; i < e->nheap; i++)
		free_activation(e->heap[i]);
	free(e->heap);
	free(e->matched);
	free(e->refr);
	free(e->refr_facts);
	for (size_t i = 0; i < e->nfirings; i++) {
		free(e->firings[i]->values);
		free(e->firings[i]);
	}
	free(e->firings);
	free(e->asserted_by);
	free(e->fired);
	free(e->stratum);
	free(e);
}

void engine_set_max_firings(struct engine *e, size_t max)
{
	e->max_firings = max;
}

void engine_set_max_matches(struct engine *e, size_t max)
{
	e->max_matches = max;
}

/* ---- agenda: salience first, then the order activations arose ---- */

static bool before(const struct activation *a, const struct activation *b)
{
	if (a->stratum != b->stratum)
		return a->stratum < b->stratum;
	if (a->salience != b->salience)
		return a->salience > b->salience;
	return a->seq < b->seq;
}

static void heap_push(struct engine *e, struct activation *a)
{
	size_t i;

	xgrow(&e->heap, &e->capheap, e->nheap + 1, sizeof(*e->heap));
	i = e->nheap++;
	while (i && before(a, e->heap[(i - 1) / 2])) {
		e->heap[i] = e->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	e->heap[i] = a;
}

static struct activation *heap_pop(struct engine *e)
{
	struct activation *top = e->heap[0], *last = e->heap[--e->nheap];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= e->nheap)
			break;
		if (c + 1 < e->nheap && before(e->heap[c + 1], e->heap[c]))
			c++;
		if (!before(e->heap[c], last))
			break;
		e->heap[i] = e->heap[c];
		i = c;
	}
	if (e->nheap)
		e->heap[i] = last;
	return top;
}

/* ---- refraction ---- */

static uint64_t key_hash(uint32_t rule, const uint32_t *facts, size_t n)
{
	uint64_t h = hash_mix64(rule + 1);

	for (size_t i = 0; i < n; i++)
		h = hash_mix64(h ^ facts[i]);
	return h;
}

static void refraction_grow(struct engine *e)
{
	size_t size = e->nrefr ? e->nrefr * 2 : 1024;
	struct rkey *t = xcalloc(size, sizeof(*t));

	for (size_t j = 0; j < e->nrefr; j++) {
		size_t k;

		if (!e->refr[j].rule1)
			continue;
		k = e->refr[j].hash & (size - 1);
		while (t[k].rule1)
			k = (k + 1) & (size - 1);
		t[k] = e->refr[j];
	}
	free(e->refr);
	e->refr = t;
	e->nrefr = size;
}

/* Adds the key; returns false when it was already there. */
static bool refraction_add(struct engine *e, uint32_t rule,
			   const uint32_t *facts, size_t n)
{
	uint32_t h = (uint32_t)key_hash(rule, facts, n);
	size_t i;

	if ((e->usedrefr + 1) * 2 > e->nrefr)
		refraction_grow(e);
	for (i = h & (e->nrefr - 1); e->refr[i].rule1;
	     i = (i + 1) & (e->nrefr - 1)) {
		if (e->refr[i].hash == h && e->refr[i].rule1 == rule + 1 &&
		    !memcmp(e->refr_facts + e->refr[i].at, facts,
			    n * sizeof(*facts)))
			return false;
	}
	xgrow(&e->refr_facts, &e->caprefr_facts, e->nrefr_facts + n + 1,
	      sizeof(*e->refr_facts));
	memcpy(e->refr_facts + e->nrefr_facts, facts, n * sizeof(*facts));
	e->refr[i].hash = h;
	e->refr[i].rule1 = rule + 1;
	e->refr[i].at = e->nrefr_facts;
	e->nrefr_facts += n;
	e->usedrefr++;
	return true;
}

/* ---- joins ---- */

/* Candidate facts for p: the shortest index list among its equality tests
 * on constants and bound variables, else every fact of the kind. */
static const uint32_t *candidates(struct join *j, const struct pattern *p,
				  size_t *n)
{
	const uint32_t *best = NULL;
	size_t nbest = 0;
	bool have = false;

	for (size_t i = 0; i < p->ntests; i++) {
		const struct test *t = &p->tests[i];
		const uint32_t *ids;
		struct value v;
		size_t k;

		if (t->op != OP_EQ && t->op != OP_BIND)
			continue;
		if (t->rhs.type == OPERAND_VAR && !j->b.bound[t->rhs.var])
			continue;
		if (!match_operand(&t->rhs, &j->b, &v))
			continue;
		j->e->stats.index_lookups++;
		ids = fact_base_lookup(j->e->fb, p->kind, t->field, &v, &k);
		if (!have || k < nbest) {
			best = ids;
			nbest = k;
			have = true;
		}
		if (!k)
			break;
	}
	if (!have)
		best = fact_base_of_kind(j->e->fb, p->kind, &nbest);
	*n = nbest;
	return best;
}

static void regex_limit(struct engine *e, const struct rule *r,
			const struct fact *f)
{
	if (e->stats.regex_limit_hits++ < 10)
		diag_at(e->d, DIAG_ERROR, r->file, r->line, 0, NULL,
			"rule '%s': a regex hit its match limit on fact #%u (%s); the test counts as failed",
			r->id, f->id, sym_str(f->kind));
}

/* Tries the facts of p under the current bindings; calls on_match for each
 * that matches.  Bindings are restored afterwards. */
static bool any_match(struct join *j, const struct pattern *p)
{
	size_t n, mark = j->b.ntrail;
	const uint32_t *ids = candidates(j, p, &n);
	bool found = false;

	for (size_t k = 0; k < n && !found; k++) {
		const struct fact *f = fact_base_get(j->e->fb, ids[k]);
		int rc;

		j->e->stats.candidates++;
		rc = match_pattern(p, f, &j->b, NULL, NULL);
		if (rc < 0)
			regex_limit(j->e, j->r, f);
		found = rc == 1;
		bindings_undo(&j->b, mark);
	}
	return found;
}

/* Whether the not and exists conditions hold under the bindings. */
static bool side_conditions(struct join *j)
{
	for (size_t i = 0; i < j->r->npatterns; i++) {
		const struct pattern *p = &j->r->patterns[i];

		if (p->type == PATTERN_MATCH || (j->ignore && j->ignore[i]))
			continue;
		if (any_match(j, p) != (p->type == PATTERN_EXISTS))
			return false;
	}
	return true;
}

/* A match's values, facts and bound flags in one allocation (there may be
 * a hundred thousand of them), values first for alignment. */
static void match_alloc(const struct rule *r, struct activation *a)
{
	char *block = xmalloc(r->nvars * sizeof(struct value) +
			      r->npatterns * sizeof(uint32_t) + r->nvars + 1);

	a->values = (struct value *)block;
	a->facts = (uint32_t *)(block + r->nvars * sizeof(struct value));
	a->bound = (bool *)(a->facts + r->npatterns);
}

/* A rule whose conditions share no variable matches the cross product
 * of their facts: every rule, asserting or diagnose-only, is held to the
 * firing cap in matches too, and the run stops with an error. */
static void too_many_matches(struct engine *e, const struct rule *r)
{
	e->overflow = true;
	diag_error(
		e->d,
		"rule '%s' (%s:%d) matched more than %zu times; its conditions probably share no variable (a cross product of their facts)",
		r->id, r->file, r->line, e->max_matches);
}

static void activate(struct join *j)
{
	const struct rule *r = j->r;
	struct activation *a;

	if (j->e->overflow)
		return;
	if (j->e->matched[j->ri] >= j->e->max_matches) {
		too_many_matches(j->e, r);
		return;
	}
	if (!refraction_add(j->e, j->ri, j->facts, r->npatterns))
		return;
	j->e->matched[j->ri]++;
	a = xcalloc(1, sizeof(*a));
	a->rule = j->ri;
	a->salience = r->salience;
	a->stratum = j->e->stratum[j->ri];
	a->seq = j->e->seq++;
	match_alloc(r, a);
	memcpy(a->facts, j->facts, r->npatterns * sizeof(uint32_t));
	bindings_copy_out(&j->b, a->values, a->bound);
	j->e->stats.activations++;
	heap_push(j->e, a);
}

static void join_step(struct join *j, size_t step)
{
	const struct rule *r = j->r;
	const struct pattern *p;
	const uint32_t *ids;
	size_t n;
	int pi;

	if (step == r->npositive) {
		if (!side_conditions(j))
			return;
		if (j->probe)
			j->found = true;
		else
			activate(j);
		return;
	}
	pi = r->plan[step];
	p = &r->patterns[pi];
	if (j->ignore && j->ignore[pi]) {
		j->facts[pi] = 0;
		join_step(j, step + 1);
		return;
	}
	if (pi == j->pin) {
		ids = &j->pin_fact;
		n = 1;
	} else {
		ids = candidates(j, p, &n);
	}
	for (size_t k = 0; k < n && !j->found && !j->e->overflow; k++) {
		const struct fact *f = fact_base_get(j->e->fb, ids[k]);
		size_t mark = j->b.ntrail;
		int rc;

		j->e->stats.candidates++;
		rc = match_pattern(p, f, &j->b, NULL, NULL);
		if (rc < 0)
			regex_limit(j->e, r, f);
		if (rc == 1) {
			j->facts[pi] = f->id;
			join_step(j, step + 1);
		}
		bindings_undo(&j->b, mark);
	}
}

static bool run_join(struct engine *e, uint32_t ri, int pin, uint32_t pin_fact,
		     const bool *ignore, bool probe)
{
	struct join j = { 0 };
	const struct rule *r = rule_at(e, ri);

	j.e = e;
	j.ri = ri;
	j.r = r;
	j.pin = pin;
	j.pin_fact = pin_fact;
	j.ignore = ignore;
	j.probe = probe;
	bindings_init(&j.b, r->nvars);
	j.facts = xcalloc(r->npatterns ? r->npatterns : 1, sizeof(uint32_t));
	join_step(&j, 0);
	bindings_release(&j.b);
	free(j.facts);
	return j.found;
}

/* Quick test of a condition's constant equalities against a new fact. */
static bool constants_hold(const struct pattern *p, const struct fact *f)
{
	for (size_t i = 0; i < p->ntests; i++) {
		const struct test *t = &p->tests[i];
		const struct value *v;

		if (t->op != OP_EQ || t->rhs.type != OPERAND_CONST)
			continue;
		v = fact_get(f, t->field);
		if (!v || !value_equal(v, &t->rhs.v))
			return false;
	}
	return true;
}

/* Matches the rules that have a condition on the kind of a new fact;
 * the alpha network leaves out those whose indexed constant it lacks. */
static void new_fact(struct engine *e, const struct fact *f)
{
	size_t n;
	const struct alpha_ref *refs = alpha_net_match(e->alpha, f, &n);

	for (size_t i = 0; i < n; i++) {
		const struct rule *r = rule_at(e, refs[i].rule);
		const struct pattern *p = &r->patterns[refs[i].pattern];

		if (!constants_hold(p, f))
			continue;
		if (p->type == PATTERN_MATCH)
			run_join(e, refs[i].rule, (int)refs[i].pattern, f->id,
				 NULL, false);
		else
			run_join(e, refs[i].rule, -1, 0, NULL, false);
	}
}

/* ---- firing ---- */

static void note_asserted(struct engine *e, uint32_t fact, uint32_t firing)
{
	size_t old = e->capasserted;

	if (fact >= e->capasserted) {
		xgrow(&e->asserted_by, &e->capasserted, fact + 1,
		      sizeof(*e->asserted_by));
		memset(e->asserted_by + old, 0,
		       (e->capasserted - old) * sizeof(*e->asserted_by));
	}
	e->asserted_by[fact] = firing;
}

/* A template that grows a value each time its rule fires would make the
 * chain quadratic (or exponential) in time and memory long before the
 * firing cap: the run stops with an error instead. */
static void value_overflow(struct engine *e, const struct firing *fi,
			   const struct assert_field *af)
{
	e->overflow = true;
	diag_error(
		e->d,
		"rule '%s' (%s:%d) built a value of more than %d bytes for '%s'; a rule probably grows a value each time it fires",
		fi->rule->id, fi->rule->file, fi->rule->line, ENGINE_VALUE_MAX,
		sym_str(af->field));
}

static void assert_facts(struct engine *e, const struct firing *fi)
{
	const struct rule *r = fi->rule;
	struct bindings b = { fi->values, fi->bound, NULL, 0, 0, r->nvars };
	uint32_t src;
	char *why;

	if (!r->nasserts)
		return;
	src = fact_base_source(e->fb, r->file);
	why = xasprintf("asserted by rule '%s'", r->id);

	for (size_t i = 0; i < r->nasserts; i++) {
		const struct assertion *as = &r->asserts[i];
		struct fact *f =
			fact_base_begin(e->fb, as->kind, src,
					(uint32_t)as->line, why, strlen(why));
		const struct fact *g;

		f->cf = fabs(fi->cf);
		f->firing = fi->id;
		for (size_t k = 0; k < as->nfields; k++) {
			const struct assert_field *af = &as->fields[k];
			struct value v;

			if (af->is_template) {
				struct strbuf sb = STRBUF_INIT;

				template_render(&af->tmpl, fi->values,
						fi->bound, &sb);
				if (sb.len > ENGINE_VALUE_MAX) {
					value_overflow(e, fi, af);
					sb_release(&sb);
					fact_base_abandon(e->fb, f);
					break;
				}
				v = value_str(sb_str(&sb), sb.len);
				sb_release(&sb);
			} else if (!match_operand(&af->value, &b, &v)) {
				continue;
			}
			fact_put(e->fb, f, af->field, v, (uint32_t)as->line,
				 NULL, 0);
		}
		if (e->overflow)
			break;
		g = engine_add_fact(e, f);
		if (g->firing == fi->id)
			note_asserted(e, g->id, fi->id);
	}
	free(why);
}

static double premise_cf(const struct engine *e, const struct rule *r,
			 const uint32_t *facts)
{
	double cf = 1;

	for (size_t i = 0; i < r->npatterns; i++) {
		const struct fact *f =
			facts[i] ? fact_base_get(e->fb, facts[i]) : NULL;

		if (f && f->cf < cf)
			cf = f->cf;
	}
	return cf;
}

static void fire(struct engine *e, struct activation *a)
{
	const struct rule *r = rule_at(e, a->rule);
	struct firing *fi = xcalloc(1, sizeof(*fi));

	fi->id = (uint32_t)e->nfirings + 1;
	fi->rule = r;
	fi->facts = a->facts;
	fi->values = a->values;
	fi->bound = a->bound;
	fi->cf = r->confidence * premise_cf(e, r, a->facts);
	a->facts = NULL;
	a->values = NULL;
	a->bound = NULL;
	xgrow(&e->firings, &e->capfirings, e->nfirings + 1,
	      sizeof(*e->firings));
	e->firings[e->nfirings++] = fi;
	e->fired[a->rule] = true;
	if (r->nasserts)
		e->nasserting++;
	assert_facts(e, fi);
}

/* Whether the activation's not/exists conditions still hold. */
static bool still_holds(struct engine *e, const struct activation *a)
{
	const struct rule *r = rule_at(e, a->rule);
	struct join j = { 0 };
	bool ok;

	if (r->npositive == r->npatterns)
		return true;
	j.e = e;
	j.r = r;
	bindings_init(&j.b, r->nvars);
	memcpy(j.b.values, a->values, r->nvars * sizeof(*a->values));
	memcpy(j.b.bound, a->bound, r->nvars * sizeof(*a->bound));
	ok = side_conditions(&j);
	bindings_release(&j.b);
	return ok;
}

static void report_runaway(struct engine *e)
{
	struct strbuf sb = STRBUF_INIT;
	const struct firing *last[5];
	size_t n = 0;

	for (size_t i = e->nfirings; i-- > 0 && n < 5;)
		if (e->firings[i]->rule->nasserts)
			last[n++] = e->firings[i];
	while (n--)
		sb_printf(&sb, "'%s'%s", last[n]->rule->id, n ? ", " : "");
	diag_error(
		e->d,
		"rule chain did not settle after %zu firings that assert facts (the last were %s); a rule probably asserts a new fact each time it fires",
		e->nasserting, sb_str(&sb));
	sb_release(&sb);
}

int engine_run(struct engine *e)
{
	if (!e->started) {
		for (uint32_t i = 0; i < e->nrules && !e->overflow; i++)
			run_join(e, i, -1, 0, NULL, false);
		e->started = true;
		if (e->overflow)
			return -E2BIG;
	}
	while (e->nheap) {
		struct activation *a = heap_pop(e);

		if (rule_at(e, a->rule)->nasserts &&
		    e->nasserting >= e->max_firings) {
			free_activation(a);
			report_runaway(e);
			return -ELOOP;
		}
		if (still_holds(e, a))
			fire(e, a);
		free_activation(a);
		if (e->overflow)
			return -E2BIG;
	}
	return 0;
}

const struct fact *engine_add_fact(struct engine *e, struct fact *f)
{
	bool added;
	struct fact *g = fact_base_commit(e->fb, f, &added);

	if (added && e->started)
		new_fact(e, g);
	return g;
}

size_t engine_firing_count(const struct engine *e)
{
	return e->nfirings;
}

const struct firing *engine_firing(const struct engine *e, uint32_t id)
{
	return id && id <= e->nfirings ? e->firings[id - 1] : NULL;
}

const struct firing *engine_asserted_by(const struct engine *e,
					const struct fact *f)
{
	if (!f->firing || f->id >= e->capasserted)
		return NULL;
	return engine_firing(e, e->asserted_by[f->id]);
}

bool engine_rule_fired(const struct engine *e, const struct rule *r)
{
	for (uint32_t i = 0; i < e->nrules; i++)
		if (rule_at(e, i) == r)
			return e->fired[i];
	return false;
}

/* The question a condition on answer facts asks about, or 0. */
static uint32_t asked(const struct engine *e, const struct pattern *p)
{
	if (p->kind != e->sym_answer)
		return 0;
	for (size_t i = 0; i < p->ntests; i++)
		if (p->tests[i].field == e->sym_question &&
		    p->tests[i].op == OP_EQ &&
		    p->tests[i].rhs.type == OPERAND_CONST &&
		    p->tests[i].rhs.v.type == VALUE_STRING)
			return p->tests[i].rhs.v.sym;
	return 0;
}

bool engine_waits_for_answers(struct engine *e, const struct rule *r,
			      char ***questions, size_t *n)
{
	bool *ignore = xcalloc(r->npatterns ? r->npatterns : 1, sizeof(bool));
	bool any = false, match = false;
	size_t cap = 0;
	uint32_t ri = 0;

	*questions = NULL;
	*n = 0;
	while (ri < e->nrules && rule_at(e, ri) != r)
		ri++;
	for (size_t i = 0; i < r->npatterns; i++) {
		uint32_t q = asked(e, &r->patterns[i]);
		struct value v;
		size_t k;

		if (!q)
			continue;
		v = value_str(sym_str(q), sym_len(q));
		fact_base_lookup(e->fb, e->sym_answer, e->sym_question, &v, &k);
		if (k)
			continue;
		ignore[i] = true;
		any = true;
	}
	if (any && ri < e->nrules)
		match = run_join(e, ri, -1, 0, ignore, true);
	for (size_t i = 0; match && i < r->npatterns; i++) {
		uint32_t q = asked(e, &r->patterns[i]);
		bool dup = false;

		if (!ignore[i])
			continue;
		for (size_t k = 0; k < *n; k++)
			dup |= !strcmp((*questions)[k], sym_str(q));
		if (dup)
			continue;
		xgrow(questions, &cap, *n + 1, sizeof(**questions));
		(*questions)[(*n)++] = xstrdup(sym_str(q));
	}
	free(ignore);
	return match;
}

void engine_stats(const struct engine *e, struct engine_stats *out)
{
	*out = e->stats;
}
