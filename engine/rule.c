/* The rule set: name tables for layers, severities and operators, and the
 * container that applies overlays. */
#include "engine/rule.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/regex.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/vocab.h"
#include "engine/xalloc.h"
#include "engine/ydoc.h"

static const char *const layer_names[] = {
#define X(id, name, doc) name,
	RULE_LAYERS(X)
#undef X
};

static const char *const layer_docs[] = {
#define X(id, name, doc) doc,
	RULE_LAYERS(X)
#undef X
};

static const char *const severity_names[] = {
#define X(id, name, weight, tone) name,
	RULE_SEVERITIES(X)
#undef X
};

static const double severity_weights[] = {
#define X(id, name, weight, tone) weight,
	RULE_SEVERITIES(X)
#undef X
};

static const char *const op_names[] = {
#define X(id, name, operand, doc) name,
	RULE_OPS(X)
#undef X
};

static int lookup_name(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

const char *layer_to_str(enum layer l)
{
	return (unsigned)l < LAYER_COUNT ? layer_names[l] : "unknown";
}

const char *layer_doc(enum layer l)
{
	return (unsigned)l < LAYER_COUNT ? layer_docs[l] : "";
}

int layer_from_str(const char *s)
{
	return lookup_name(layer_names, LAYER_COUNT, s);
}

const char *severity_to_str(enum severity s)
{
	return (unsigned)s < SEVERITY_COUNT ? severity_names[s] : "unknown";
}

int severity_from_str(const char *s)
{
	return lookup_name(severity_names, SEVERITY_COUNT, s);
}

double severity_weight(enum severity s)
{
	return (unsigned)s < SEVERITY_COUNT ? severity_weights[s] : 0;
}

const char *rule_op_to_str(enum rule_op op)
{
	return (unsigned)op < OP_COUNT ? op_names[op] : "unknown";
}

int rule_op_from_str(const char *s)
{
	return lookup_name(op_names, OP_COUNT, s);
}

struct disabled {
	char *id;
	char *where;
	int level;
};

/* A kind outside the vocabulary that fact files supply (kinds:). */
struct kind_decl {
	uint32_t kind;
	uint32_t *fields;
	size_t nfields, cap;
};

struct rule_set {
	struct rule **rules;
	size_t n, cap;
	/* rule id hash -> index + 1 (0: empty), open addressing, a power of
	 * two at most half full; rebuilt when a rule is removed */
	uint32_t *idx;
	size_t nidx;
	struct question **questions;
	size_t nq, capq;
	struct disabled *disabled;
	size_t ndisabled, capdisabled;
	struct kind_decl *kinds;
	size_t nkinds, capkinds;
};

struct rule_set *rule_set_new(void)
{
	return xcalloc(1, sizeof(struct rule_set));
}

static void free_strings(char **s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(s[i]);
	free(s);
}

static void free_tests(struct pattern *p)
{
	for (size_t i = 0; i < p->ntests; i++) {
		struct test *t = &p->tests[i];

		regex_free(t->re);
		free(t->pattern);
		free(t->capture_group);
		free(t->capture_var);
	}
	free(p->tests);
}

void rule_free(struct rule *r)
{
	if (!r)
		return;
	free(r->overrides);
	for (size_t i = 0; i < r->npatterns; i++)
		free_tests(&r->patterns[i]);
	free(r->patterns);
	free(r->plan);
	for (size_t i = 0; i < r->nasserts; i++) {
		for (size_t j = 0; j < r->asserts[i].nfields; j++)
			template_free(&r->asserts[i].fields[j].tmpl);
		free(r->asserts[i].fields);
	}
	free(r->asserts);
	for (size_t i = 0; i < r->nremediation; i++)
		template_free(&r->remediation[i]);
	free(r->remediation);
	template_free(&r->message);
	template_free(&r->about);
	free_strings(r->vars, r->nvars);
	free(r->var_bound);
	for (size_t i = 0; i < r->nlists; i++)
		free(r->lists[i]);
	free(r->lists);
	free_strings(r->sources, r->nsources);
	free_strings(r->tags, r->ntags);
	free_strings(r->explains, r->nexplains);
	free_strings(r->asks, r->nasks);
	free(r->explains_at);
	free(r->asks_at);
	free(r->id);
	free(r->title);
	free(r->description);
	free(r->file);
	free(r->diag_id);
	free(r);
}

void question_free(struct question *q)
{
	if (!q)
		return;
	for (size_t i = 0; i < q->nchoices; i++) {
		free(q->choices[i].value);
		free(q->choices[i].label);
	}
	free(q->choices);
	free(q->id);
	free(q->prompt);
	free(q->def);
	free(q->why);
	free(q->file);
	free(q);
}

void rule_set_free(struct rule_set *rs)
{
	if (!rs)
		return;
	for (size_t i = 0; i < rs->n; i++)
		rule_free(rs->rules[i]);
	free(rs->rules);
	free(rs->idx);
	for (size_t i = 0; i < rs->nq; i++)
		question_free(rs->questions[i]);
	free(rs->questions);
	for (size_t i = 0; i < rs->ndisabled; i++) {
		free(rs->disabled[i].id);
		free(rs->disabled[i].where);
	}
	free(rs->disabled);
	for (size_t i = 0; i < rs->nkinds; i++)
		free(rs->kinds[i].fields);
	free(rs->kinds);
	free(rs);
}

static ssize_t find_index(const struct rule_set *rs, const char *id)
{
	size_t mask = rs->nidx - 1;

	if (!rs->nidx)
		return -1;
	for (size_t i = hash_bytes(id, strlen(id)) & mask; rs->idx[i];
	     i = (i + 1) & mask)
		if (!strcmp(rs->rules[rs->idx[i] - 1]->id, id))
			return (ssize_t)rs->idx[i] - 1;
	return -1;
}

static void index_put(struct rule_set *rs, size_t at)
{
	const char *id = rs->rules[at]->id;
	size_t mask = rs->nidx - 1;
	size_t i = hash_bytes(id, strlen(id)) & mask;

	while (rs->idx[i])
		i = (i + 1) & mask;
	rs->idx[i] = (uint32_t)at + 1;
}

/* Indexes rules[0..n) in a table with room for at least want rules. */
static void index_rebuild(struct rule_set *rs, size_t want)
{
	size_t n = 64;

	while (n < 2 * want)
		n *= 2;
	free(rs->idx);
	rs->idx = xcalloc(n, sizeof(*rs->idx));
	rs->nidx = n;
	for (size_t i = 0; i < rs->n; i++)
		index_put(rs, i);
}

static void remove_at(struct rule_set *rs, size_t i)
{
	rule_free(rs->rules[i]);
	memmove(&rs->rules[i], &rs->rules[i + 1],
		(rs->n - i - 1) * sizeof(*rs->rules));
	rs->n--;
	index_rebuild(rs, rs->n);
}

int rule_set_add(struct rule_set *rs, struct rule *r, struct diag *d)
{
	ssize_t i = find_index(rs, r->id);

	for (size_t j = 0; j < rs->ndisabled; j++) {
		if (!strcmp(rs->disabled[j].id, r->id) &&
		    rs->disabled[j].level > r->origin_level) {
			rule_free(r);
			return 0;
		}
	}
	if (i >= 0) {
		const struct rule *old = rs->rules[i];

		if (old->origin_level >= r->origin_level) {
			diag_at(d, DIAG_ERROR, r->file, r->line, r->col, NULL,
				"duplicate rule id '%s' (first defined at %s:%d)",
				r->id, old->file, old->line);
			rule_free(r);
			return -EINVAL;
		}
		free(r->overrides);
		r->overrides = xasprintf("%s:%d", old->file, old->line);
		rule_free(rs->rules[i]);
		rs->rules[i] = r;
		return 0;
	}
	xgrow(&rs->rules, &rs->cap, rs->n + 1, sizeof(*rs->rules));
	rs->rules[rs->n++] = r;
	if (2 * rs->n > rs->nidx)
		index_rebuild(rs, 2 * rs->n);
	else
		index_put(rs, rs->n - 1);
	return 0;
}

int rule_set_disable(struct rule_set *rs, const char *id, int origin_level,
		     const char *where)
{
	ssize_t i = find_index(rs, id);

	if (i >= 0 && rs->rules[i]->origin_level < origin_level)
		remove_at(rs, (size_t)i);
	xgrow(&rs->disabled, &rs->capdisabled, rs->ndisabled + 1,
	      sizeof(*rs->disabled));
	rs->disabled[rs->ndisabled].id = xstrdup(id);
	rs->disabled[rs->ndisabled].where = xstrdup(where);
	rs->disabled[rs->ndisabled].level = origin_level;
	rs->ndisabled++;
	return 0;
}

const char *rule_set_disabled_where(const struct rule_set *rs, const char *id)
{
	const char *where = NULL;

	/* The last word on it: a later overlay's disabling wins. */
	for (size_t i = 0; i < rs->ndisabled; i++)
		if (!strcmp(rs->disabled[i].id, id) && find_index(rs, id) < 0)
			where = rs->disabled[i].where;
	return where;
}

int rule_set_add_question(struct rule_set *rs, struct question *q,
			  struct diag *d)
{
	const struct question *old = rule_set_question(rs, q->id);

	if (old) {
		diag_at(d, DIAG_ERROR, q->file, q->line, 0, NULL,
			"duplicate question id '%s' (first defined at %s:%d)",
			q->id, old->file, old->line);
		question_free(q);
		return -EINVAL;
	}
	xgrow(&rs->questions, &rs->capq, rs->nq + 1, sizeof(*rs->questions));
	rs->questions[rs->nq++] = q;
	return 0;
}

size_t rule_set_count(const struct rule_set *rs)
{
	return rs->n;
}

const struct rule *rule_set_at(const struct rule_set *rs, size_t i)
{
	return i < rs->n ? rs->rules[i] : NULL;
}

ssize_t rule_set_index(const struct rule_set *rs, const char *id)
{
	return find_index(rs, id);
}

const struct rule *rule_set_find(const struct rule_set *rs, const char *id)
{
	ssize_t i = find_index(rs, id);

	return i >= 0 ? rs->rules[i] : NULL;
}

size_t rule_set_disabled_count(const struct rule_set *rs)
{
	return rs->ndisabled;
}

const char *rule_set_disabled_at(const struct rule_set *rs, size_t i,
				 const char **where)
{
	if (i >= rs->ndisabled)
		return NULL;
	*where = rs->disabled[i].where;
	return rs->disabled[i].id;
}

size_t rule_set_question_count(const struct rule_set *rs)
{
	return rs->nq;
}

const struct question *rule_set_question_at(const struct rule_set *rs, size_t i)
{
	return i < rs->nq ? rs->questions[i] : NULL;
}

const struct question *rule_set_question(const struct rule_set *rs,
					 const char *id)
{
	for (size_t i = 0; i < rs->nq; i++)
		if (!strcmp(rs->questions[i]->id, id))
			return rs->questions[i];
	return NULL;
}

bool rule_set_has_diagnosis(const struct rule_set *rs, const char *id)
{
	for (size_t i = 0; i < rs->n; i++)
		if (rs->rules[i]->diagnoses &&
		    !strcmp(rs->rules[i]->diag_id, id))
			return true;
	return false;
}

void rule_set_declare_kind(struct rule_set *rs, uint32_t kind, uint32_t field)
{
	struct kind_decl *k = NULL;

	for (size_t i = 0; i < rs->nkinds && !k; i++)
		if (rs->kinds[i].kind == kind)
			k = &rs->kinds[i];
	if (!k) {
		xgrow(&rs->kinds, &rs->capkinds, rs->nkinds + 1,
		      sizeof(*rs->kinds));
		k = &rs->kinds[rs->nkinds++];
		memset(k, 0, sizeof(*k));
		k->kind = kind;
	}
	for (size_t i = 0; i < k->nfields; i++)
		if (k->fields[i] == field)
			return;
	xgrow(&k->fields, &k->cap, k->nfields + 1, sizeof(*k->fields));
	k->fields[k->nfields++] = field;
}

/* Whether a rule file declares that fact files supply facts of kind, and
 * (when field is not 0) that they carry that field. */
static bool declared(const struct rule_set *rs, uint32_t kind, uint32_t field)
{
	for (size_t i = 0; i < rs->nkinds; i++) {
		if (rs->kinds[i].kind != kind)
			continue;
		for (size_t j = 0; field && j < rs->kinds[i].nfields; j++)
			if (rs->kinds[i].fields[j] == field)
				return true;
		return !field;
	}
	return false;
}

bool rule_set_declares(const struct rule_set *rs, uint32_t kind,
		       uint32_t field)
{
	return declared(rs, kind, field);
}

/* Whether some rule asserts facts of kind, and (when field is not 0)
 * sets that field in them. */
static bool asserted(const struct rule_set *rs, uint32_t kind, uint32_t field)
{
	for (size_t i = 0; i < rs->n; i++) {
		const struct rule *r = rs->rules[i];

		for (size_t j = 0; j < r->nasserts; j++) {
			const struct assertion *a = &r->asserts[j];

			if (a->kind != kind)
				continue;
			if (!field)
				return true;
			for (size_t k = 0; k < a->nfields; k++)
				if (a->fields[k].field == field)
					return true;
		}
	}
	return false;
}

/* "; did you mean 'port'?" for a kind close to one of the vocabulary, of
 * a declaration or of an assertion; "" otherwise. */
static const char *kind_hint(const struct rule_set *rs, const char *kind)
{
	size_t cap = vocab_kind_count() + rs->nkinds, n = 0;
	const char **names;
	const char *hint;

	for (size_t i = 0; i < rs->n; i++)
		cap += rs->rules[i]->nasserts;
	names = xcalloc(cap ? cap : 1, sizeof(*names));
	for (size_t i = 0; i < vocab_kind_count(); i++)
		names[n++] = vocab_kind_at(i)->name;
	for (size_t i = 0; i < rs->nkinds; i++)
		names[n++] = sym_str(rs->kinds[i].kind);
	for (size_t i = 0; i < rs->n; i++)
		for (size_t j = 0; j < rs->rules[i]->nasserts; j++)
			names[n++] = sym_str(rs->rules[i]->asserts[j].kind);
	hint = ydoc_hint(kind, names, n);
	free(names);
	return hint;
}

/* Conditions on kinds outside the vocabulary need a rule that asserts
 * them, or a declaration that fact files supply them, with the fields
 * tested. */
static int check_derived(const struct rule_set *rs, const struct rule *r,
			 struct diag *d)
{
	int err = 0;

	for (size_t i = 0; i < r->npatterns; i++) {
		const struct pattern *p = &r->patterns[i];

		if (vocab_kind(p->kind))
			continue;
		if (declared(rs, p->kind, 0)) {
			for (size_t t = 0; t < p->ntests; t++) {
				if (declared(rs, p->kind, p->tests[t].field) ||
				    asserted(rs, p->kind, p->tests[t].field))
					continue;
				diag_at(d, DIAG_ERROR, r->file,
					p->tests[t].line, p->tests[t].col, NULL,
					"kind '%s' is declared without a '%s' field",
					sym_str(p->kind),
					sym_str(p->tests[t].field));
				err = -EINVAL;
			}
			continue;
		}
		if (!asserted(rs, p->kind, 0)) {
			diag_at(d, DIAG_ERROR, r->file, p->line, p->col, NULL,
				"rule '%s' can never fire: no collector, kb entry or rule produces '%s' facts%s",
				r->id, sym_str(p->kind),
				kind_hint(rs, sym_str(p->kind)));
			err = -EINVAL;
			continue;
		}
		for (size_t t = 0; t < p->ntests; t++) {
			if (asserted(rs, p->kind, p->tests[t].field))
				continue;
			diag_at(d, DIAG_ERROR, r->file, p->tests[t].line,
				p->tests[t].col, NULL,
				"no rule asserts '%s' facts with a '%s' field",
				sym_str(p->kind), sym_str(p->tests[t].field));
			err = -EINVAL;
		}
	}
	return err;
}

void rule_set_lint(const struct rule_set *rs, struct diag *d)
{
	for (size_t i = 0; i < rs->n; i++) {
		const struct rule *r = rs->rules[i];

		if (r->diagnoses && !r->nremediation)
			diag_at(d, DIAG_WARNING, r->file, r->line, r->col, NULL,
				"rule '%s' diagnoses without a remediation: add 'remediation' to say what to do",
				r->id);
		if (!r->nsources)
			diag_at(d, DIAG_WARNING, r->file, r->line, r->col, NULL,
				"rule '%s' has no 'sources': name where its claim comes from (a URL, or file@version)",
				r->id);
	}
}

int rule_set_check(struct rule_set *rs, struct diag *d)
{
	int err = 0;

	for (size_t i = 0; i < rs->n; i++) {
		const struct rule *r = rs->rules[i];

		for (size_t j = 0; j < r->nexplains; j++) {
			if (rule_set_has_diagnosis(rs, r->explains[j]))
				continue;
			diag_at(d, DIAG_ERROR, r->file, r->explains_at[2 * j],
				r->explains_at[2 * j + 1], NULL,
				"rule '%s' explains unknown diagnosis '%s'",
				r->id, r->explains[j]);
			err = -EINVAL;
		}
		for (size_t j = 0; j < r->nasks; j++) {
			if (rule_set_question(rs, r->asks[j]))
				continue;
			diag_at(d, DIAG_ERROR, r->file, r->asks_at[2 * j],
				r->asks_at[2 * j + 1], NULL,
				"rule '%s' asks unknown question '%s'", r->id,
				r->asks[j]);
			err = -EINVAL;
		}
		if (check_derived(rs, r, d))
			err = -EINVAL;
	}
	return err;
}
