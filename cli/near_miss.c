/* --why-not: how near each rule that did not fire came (near_miss.h). */
#include "cli/near_miss.h"

#include <stdlib.h>
#include <string.h>

#include "cli/rules_test.h"
#include "engine/explain.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/vocab.h"
#include "engine/xalloc.h"

#define NEAR_VALUE_MAX 60 /* @@ bytes of a field's value shown */

static const char *const status_names[] = {
	[NEAR_MISS_FIRED] = "fired",
	[NEAR_MISS_HOLDS] = "holds",
	[NEAR_MISS_BLOCKED] = "blocked",
	[NEAR_MISS_MISSING] = "missing",
};

const char *near_miss_status_to_str(enum near_miss_status s)
{
	return status_names[s];
}

/* The fact's fields, each value cut at NEAR_VALUE_MAX bytes ("..."), so
 * that a knowledge-base entry's long source stays one readable line. */
static char *fields_text(const struct fact *f)
{
	struct strbuf sb = STRBUF_INIT, v = STRBUF_INIT;

	for (uint32_t k = 0; k < f->nfields; k++) {
		sb_reset(&v);
		value_show(&f->fields[k].v, &v);
		sb_printf(&sb, "%s%s=", k ? " " : "",
			  sym_str(f->fields[k].name));
		if (v.len > NEAR_VALUE_MAX) {
			int cut = NEAR_VALUE_MAX;

			/* not inside a UTF-8 sequence */
			while (cut > 0 && (v.buf[cut] & 0xc0) == 0x80)
				cut--;
			sb_printf(&sb, "%.*s...", cut, v.buf);
		} else
			sb_puts(&sb, sb_str(&v));
	}
	sb_release(&v);
	return sb_detach(&sb);
}

/* " (= 5.7-1.0.2)": what a variable operand stood for in the partial
 * match, so that a failed comparison shows both sides. */
static void operand_value(struct strbuf *sb, const struct operand *o,
			  const struct explain_miss *m)
{
	if (o->type != OPERAND_VAR || !m->bound[o->var])
		return;
	sb_puts(sb, " (= ");
	value_show(&m->values[o->var], sb);
	sb_putc(sb, ')');
}

static void fill_fact(struct near_fact *nf, const struct analysis *a,
		      const struct rule *r, const struct explain_miss *m,
		      size_t i)
{
	const struct fact *f = m->nearest[i];
	const struct pattern *p = m->pattern;

	nf->label = explain_fact_label(f);
	nf->fields = fields_text(f);
	nf->held = m->held[i];
	nf->tests = p->ntests;
	nf->fails = xcalloc(p->ntests ? p->ntests : 1, sizeof(*nf->fails));
	for (size_t t = 0; !m->blocked && t < p->ntests && t < 64; t++) {
		struct strbuf sb = STRBUF_INIT;

		if (!(m->failed[i] >> t & 1))
			continue;
		rules_test_text(&sb, r, &p->tests[t]);
		operand_value(&sb, &p->tests[t].rhs, m);
		nf->fails[nf->nfails++] = sb_detach(&sb);
	}
	if (f->prov.src) {
		nf->source = fact_base_source_name(a->fb, f->prov.src);
		nf->line = f->prov.line;
	}
}

/* Collected kinds that every analysis has, whatever the evidence: they
 * say where the evidence came from, not what it shows. */
static const char *const context_kinds[] = { "host", "collector" };

/* Whether a condition on facts of kind is no test of the host's
 * evidence: knowledge-base and answer kinds, and the context kinds. */
static bool kb_kind(uint32_t kind)
{
	const struct vocab_kind *vk = vocab_kind(kind);

	if (!vk)
		return false; /* derived by rules from the evidence */
	for (size_t i = 0; i < ARRAY_SIZE(context_kinds); i++)
		if (!strcmp(vk->name, context_kinds[i]))
			return true;
	return strcmp(vk->source, "collected") != 0;
}

/* The evidence counts of nm: the first 'matched' conditions of the
 * evaluation plan held. */
static void count_evidence(struct near_miss *nm, const struct rule *r)
{
	for (size_t i = 0; i < r->npositive; i++) {
		if (kb_kind(r->patterns[r->plan[i]].kind))
			continue;
		nm->evidence_conditions++;
		nm->evidence_matched += i < nm->matched;
	}
}

/* Fills nm for rule r; returns whether the rule did not fire. */
static bool judge(struct near_miss *nm, const struct analysis *a,
		  const struct rule *r)
{
	struct explain_miss m;
	struct strbuf sb = STRBUF_INIT;

	memset(nm, 0, sizeof(*nm));
	nm->rule = r;
	nm->conditions = r->npositive;
	if (a->engine && engine_rule_fired(a->engine, r)) {
		nm->status = NEAR_MISS_FIRED;
		nm->matched = r->npositive;
		count_evidence(nm, r);
		nm->closeness = 1;
		return false;
	}
	explain_miss(r, a->fb, &m);
	nm->matched = m.matched;
	count_evidence(nm, r);
	if (!m.pattern) {
		nm->status = NEAR_MISS_HOLDS;
		nm->closeness = 1;
		explain_miss_release(&m);
		return true;
	}
	nm->status = m.blocked ? NEAR_MISS_BLOCKED : NEAR_MISS_MISSING;
	rules_condition_text(&sb, r, m.pattern);
	nm->condition = sb_detach(&sb);
	nm->condition_line = m.pattern->line;
	nm->kind = sym_str(m.pattern->kind);
	nm->kind_is_knowledge = kb_kind(m.pattern->kind);
	nm->nfacts = m.nfacts;
	nm->nearest = xcalloc(m.nnearest ? m.nnearest : 1,
			      sizeof(*nm->nearest));
	nm->nnearest = m.nnearest;
	for (size_t i = 0; i < m.nnearest; i++)
		fill_fact(&nm->nearest[i], a, r, &m, i);
	/* the conditions that held, and the share of the failing one's
	 * tests its nearest fact passes; a contradicted 'not' stands one
	 * step short of firing */
	if (m.blocked || !nm->evidence_conditions) {
		nm->closeness = nm->evidence_conditions /
				(nm->evidence_conditions + 1.0);
	} else {
		double part = m.nnearest && m.pattern->ntests &&
					      !kb_kind(m.pattern->kind) ?
				      (double)m.held[0] / m.pattern->ntests :
				      0;

		nm->closeness = (nm->evidence_matched + part * 0.99) /
				nm->evidence_conditions;
	}
	explain_miss_release(&m);
	return true;
}

static void release_one(struct near_miss *nm)
{
	for (size_t i = 0; i < nm->nnearest; i++) {
		struct near_fact *nf = &nm->nearest[i];

		for (size_t k = 0; k < nf->nfails; k++)
			free(nf->fails[k]);
		free(nf->fails);
		free(nf->label);
		free(nf->fields);
	}
	free(nm->nearest);
	free(nm->condition);
}

void near_miss_free(struct near_miss *v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		release_one(&v[i]);
	free(v);
}

/* Whether a rule that did not fire belongs in the unnamed list: some
 * condition on the evidence held, and what it lacks is not knowledge the
 * site never gave (a site profile's kinds with no facts at all). */
static bool near_enough(const struct near_miss *nm)
{
	if (!nm->evidence_matched)
		return false;
	return !(nm->status == NEAR_MISS_MISSING && !nm->nfacts &&
		 nm->kind_is_knowledge);
}

static bool named(const struct rule *r, const char *const *ids, size_t nids)
{
	for (size_t i = 0; i < nids; i++)
		if (!strcmp(ids[i], r->id) ||
		    (r->diag_id && !strcmp(ids[i], r->diag_id)))
			return true;
	return false;
}

static int nearer_first(const void *pa, const void *pb)
{
	const struct near_miss *a = pa, *b = pb;

	if (a->closeness != b->closeness)
		return a->closeness < b->closeness ? 1 : -1;
	if (a->rule->severity != b->rule->severity)
		return a->rule->severity < b->rule->severity ? 1 : -1;
	return strcmp(a->rule->id, b->rule->id);
}

/* Whether some rule answers to each id; reports the first that none
 * does. */
static bool ids_known(const struct rule_set *rs, const char *const *ids,
		      size_t nids, struct diag *d)
{
	for (size_t i = 0; i < nids; i++) {
		bool found = false;

		for (size_t k = 0; k < rule_set_count(rs) && !found; k++)
			found = named(rule_set_at(rs, k), &ids[i], 1);
		if (!found) {
			diag_error(d,
				   "--why-not: no rule or diagnosis '%s' (rules list shows them)",
				   ids[i]);
			return false;
		}
	}
	return true;
}

struct near_miss *near_miss_list(const struct analysis *a,
				 const char *const *ids, size_t nids,
				 size_t *n, struct diag *d)
{
	size_t count = rule_set_count(a->rs), used = 0;
	struct near_miss *v;

	*n = 0;
	if (!ids_known(a->rs, ids, nids, d))
		return NULL;
	v = xcalloc(count ? count : 1, sizeof(*v));
	for (size_t i = 0; i < count; i++) {
		const struct rule *r = rule_set_at(a->rs, i);
		bool missed;

		if (nids ? !named(r, ids, nids) :
			   !r->diagnoses || r->severity < SEVERITY_WARNING)
			continue;
		missed = judge(&v[used], a, r);
		if (nids || (missed && near_enough(&v[used]))) {
			used++;
			continue;
		}
		release_one(&v[used]);
	}
	if (!nids) {
		qsort(v, used, sizeof(*v), nearer_first);
		while (used > NEAR_MISS_MAX)
			release_one(&v[--used]);
	}
	*n = used;
	return v;
}
