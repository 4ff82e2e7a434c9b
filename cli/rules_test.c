/* rules test: the rule test files (NAME.test.yaml, beside the rules they
 * test) run through the whole analysis, each case compared with what it
 * expects.  A directory of tests also checks that each of its rules has a
 * case that sees it fire.
 *
 *   file   := { language: 1, tests: [case...] }
 *   case   := { name, facts?: [{kind, FIELD: value...}], root?: DIR,
 *              paths?: [PATH or KIND=FILE...], answers?: {QUESTION: value},
 *              expect: none | { diagnoses?: [want...], absent?: [ID...],
 *                               only?: bool } }
 *   want   := ID | { id, rank?, top?, layer?, severity?, message? }
 *
 * Paths are relative to the test file. */
#include "cli/rules_test.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/analysis.h"
#include "cli/answers.h"
#include "cli/report.h"
#include "cli/term.h"
#include "engine/explain.h"
#include "engine/kb.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/vocab.h"
#include "engine/xalloc.h"
#include "engine/ydoc.h"

#define TEST_SUFFIX ".test.yaml"
#define LANGUAGE_MAX 1

/* Rule ids seen firing in passing cases. */
struct fired {
	char **ids;
	size_t n, cap;
};

/* The rules and kb the cases of one suite run on, loaded once for all
 * of them: what each case would otherwise load for itself. */
struct shared {
	bool loaded; /* tried, for this overlay */
	char *overlay; /* the suite's rule directory (a copy), or NULL */
	struct analysis_base base;
	int rc; /* analysis_base_load's; nonzero: each case loads its own */
	struct diag *d; /* what loading said, which each case's own says */
};

struct run {
	const struct options *o;
	unsigned passed, failed, broken; /* broken: malformed test files */
	struct fired fired;
	struct shared shared;
};

/* One test file being run. */
struct tfile {
	struct run *run;
	struct ydoc *doc;
	struct diag *d; /* the file's mistakes */
	char *dir; /* of the file, for relative paths */
	const char *overlay; /* the rule directory under test, or NULL */
};

static void fired_add(struct fired *f, const char *id)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->ids[i], id))
			return;
	xgrow(&f->ids, &f->cap, f->n + 1, sizeof(*f->ids));
	f->ids[f->n++] = xstrdup(id);
}

static bool fired_has(const struct fired *f, const char *id)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->ids[i], id))
			return true;
	return false;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static char *relative(const struct tfile *t, const char *p)
{
	return p[0] == '/' ? xstrdup(p) : xasprintf("%s/%s", t->dir, p);
}

static bool check_keys(struct tfile *t, const struct ynode *map,
		       const char *what, const char *const *keys, size_t n)
{
	bool ok = true;

	for (size_t i = 0; i < map->n; i++) {
		const struct ynode *k = ynode_key(map, i);
		bool known = false;

		for (size_t j = 0; j < n && !known; j++)
			known = ynode_is_scalar(k) && !strcmp(k->str, keys[j]);
		if (!known) {
			ydoc_report(t->doc, t->d, DIAG_ERROR, k,
				    "unknown key '%s' in %s%s",
				    ynode_is_scalar(k) ? k->str : "?", what,
				    ynode_is_scalar(k) ?
					    ydoc_hint(k->str, keys, n) :
					    "");
			ok = false;
		}
	}
	return ok;
}

/* ---- input ---- */

struct seed {
	struct tfile *t;
	const struct ynode *facts;
};

static bool declares(const void *arg, uint32_t kind, uint32_t field)
{
	return rule_set_declares(arg, kind, field);
}

/* The case's inline facts, each "kind" plus fields of the vocabulary, or
 * of a kind a rule file of rs declares (a site's).  Before the rules load
 * (rs NULL: the case's shape is checked) a kind outside the vocabulary
 * waits for them. */
static int seed_facts(struct fact_base *fb, const struct rule_set *rs,
		      void *arg, struct diag *d)
{
	struct seed *s = arg;
	struct kb_declared decl = { declares, rs };
	uint32_t src = fact_base_source(fb, ydoc_name(s->t->doc));
	int err = 0;

	(void)d;
	for (size_t i = 0; s->facts && i < s->facts->n; i++) {
		const struct ynode *f = s->facts->items[i];
		const struct ynode *kind = ynode_get(f, "kind");
		const struct vocab_kind *k =
			ynode_is_scalar(kind) ? vocab_kind_named(kind->str) :
						NULL;
		uint32_t sym = ynode_is_scalar(kind) ?
				       sym_intern(kind->str, kind->len) :
				       0;

		if (!k && sym && !rs)
			continue;
		if (!k && sym && rule_set_declares(rs, sym, 0)) {
			if (kb_declared_fact_from_node(fb, s->t->doc, sym, src,
						       f, "kind", &decl,
						       s->t->d))
				err = -EINVAL;
			continue;
		}
		if (!k) {
			ydoc_report(
				s->t->doc, s->t->d, DIAG_ERROR, kind ? kind : f,
				kind ? "'%s' is not a fact kind of the vocabulary (rdmadoctor rules reference lists them) nor one a rule file declares" :
				       "a fact needs a 'kind'%s",
				kind && ynode_is_scalar(kind) ? kind->str : "");
			err = -EINVAL;
			continue;
		}
		if (kb_fact_from_node(fb, s->t->doc, k, src, f, "kind",
				      s->t->d))
			err = -EINVAL;
	}
	return err;
}

static bool string_list(struct tfile *t, const struct ynode *n,
			const char *what)
{
	if (!n)
		return true;
	if (n->type != YNODE_SEQ) {
		ydoc_report(t->doc, t->d, DIAG_ERROR, n, "'%s' takes a list",
			    what);
		return false;
	}
	for (size_t i = 0; i < n->n; i++)
		if (!ynode_is_scalar(n->items[i])) {
			ydoc_report(t->doc, t->d, DIAG_ERROR, n->items[i],
				    "each of '%s' is a plain string", what);
			return false;
		}
	return true;
}

/* A path of 'paths', relative to the test file; KIND=FILE keeps its
 * KIND. */
static char *input_path(const struct tfile *t, const char *p)
{
	const char *eq = strchr(p, '=');
	char *kind, *file, *r;

	if (!eq || memchr(p, '/', (size_t)(eq - p)))
		return relative(t, p);
	kind = xstrndup(p, (size_t)(eq - p));
	file = relative(t, eq + 1);
	r = xasprintf("%s=%s", kind, file);
	free(kind);
	free(file);
	return r;
}

/* ---- expectations ---- */

static void operand_text(struct strbuf *sb, const struct rule *r,
			 const struct operand *op)
{
	if (op->type == OPERAND_VAR) {
		sb_printf(sb, "$%s", r->vars[op->var]);
		if (op->arith)
			sb_printf(sb, " %c %g", op->arith, op->k);
	} else if (op->type == OPERAND_CONST) {
		value_show(&op->v, sb);
	}
}

void rules_test_text(struct strbuf *sb, const struct rule *r,
		     const struct test *t)
{
	sb_printf(sb, "%s %s ", sym_str(t->field), rule_op_to_str(t->op));
	if (t->op == OP_MATCH || t->op == OP_NOT_MATCH)
		sb_printf(sb, "/%s/", t->pattern ? t->pattern : "");
	else
		operand_text(sb, r, &t->rhs);
}

void rules_condition_text(struct strbuf *sb, const struct rule *r,
			  const struct pattern *p)
{
	static const char *const prefix[] = { "", "no ", "some " };

	sb_printf(sb, "%s%s", prefix[p->type], sym_str(p->kind));
	for (size_t i = 0; i < p->ntests; i++) {
		sb_puts(sb, i ? ", " : " with ");
		rules_test_text(sb, r, &p->tests[i]);
	}
}

/* The facts of a kind nearest a condition, one line each with their
 * fields and where they come from. */
static void show_nearest(const struct analysis *a, const struct rule *r,
			 const struct explain_miss *m, struct strbuf *out)
{
	for (size_t i = 0; i < m->nnearest; i++) {
		const struct fact *f = m->nearest[i];
		char *label = explain_fact_label(f);

		sb_printf(out, "    %s", label);
		if (!m->blocked) {
			sb_printf(out, " (%zu of %zu tests hold", m->held[i],
				  m->pattern->ntests);
			for (size_t t = 0; t < m->pattern->ntests && t < 64;
			     t++) {
				if (!(m->failed[i] >> t & 1))
					continue;
				sb_puts(out, "; fails ");
				rules_test_text(out, r, &m->pattern->tests[t]);
			}
			sb_puts(out, ")");
		}
		sb_puts(out, ":");
		for (uint32_t k = 0; k < f->nfields; k++) {
			sb_printf(out, " %s=", sym_str(f->fields[k].name));
			value_show(&f->fields[k].v, out);
		}
		if (f->prov.src)
			sb_printf(out, "  [%s:%u]",
				  fact_base_source_name(a->fb, f->prov.src),
				  f->prov.line);
		sb_putc(out, '\n');
		free(label);
	}
}

/* For an expected diagnosis that did not fire: each rule that gives it,
 * the first condition nothing matched, and the facts nearest it. */
static void why_not(const struct analysis *a, const char *id,
		    struct strbuf *out)
{
	struct strbuf cond = STRBUF_INIT;
	bool any = false;

	for (size_t i = 0; i < rule_set_count(a->rs); i++) {
		const struct rule *r = rule_set_at(a->rs, i);
		struct explain_miss m;

		if (!r->diagnoses || strcmp(r->diag_id, id))
			continue;
		any = true;
		explain_miss(r, a->fb, &m);
		if (!m.pattern) {
			sb_printf(out,
				  "  rule %s (%s:%d) matches these facts, but did not fire (a question it asks, or its firing cap)\n",
				  r->id, r->file, r->line);
			explain_miss_release(&m);
			continue;
		}
		sb_reset(&cond);
		rules_condition_text(&cond, r, m.pattern);
		if (m.blocked)
			sb_printf(out,
				  "  rule %s: its condition at %s:%d, %s, is contradicted by this fact:\n",
				  r->id, r->file, m.pattern->line, sb_str(&cond));
		else if (!m.nfacts)
			sb_printf(out,
				  "  rule %s: no fact matched its condition at %s:%d, %s; there are no %s facts\n",
				  r->id, r->file, m.pattern->line, sb_str(&cond),
				  sym_str(m.pattern->kind));
		else
			sb_printf(out,
				  "  rule %s: no fact matched its condition at %s:%d, %s; the nearest of the %zu %s fact%s:\n",
				  r->id, r->file, m.pattern->line, sb_str(&cond),
				  m.nfacts, sym_str(m.pattern->kind),
				  m.nfacts == 1 ? "" : "s");
		show_nearest(a, r, &m, out);
		explain_miss_release(&m);
	}
	if (!any)
		sb_printf(out, "  no rule gives the diagnosis '%s'\n", id);
	sb_release(&cond);
}

/* Whether diagnosis g satisfies the wanted entry w; *why gets the first
 * mismatch. */
static bool satisfies(const struct diagnosis *g, const struct ynode *w,
		      struct strbuf *why)
{
	const struct ynode *rank = ynode_get(w, "rank"),
			   *top = ynode_get(w, "top"),
			   *layer = ynode_get(w, "layer"),
			   *sev = ynode_get(w, "severity"),
			   *msg = ynode_get(w, "message"),
			   *lacks = ynode_get(w, "message_lacks");

	if (rank && atoi(rank->str) != g->rank) {
		sb_printf(why, "at rank %s, but it is at rank %d", rank->str,
			  g->rank);
		return false;
	}
	if (top && g->rank > atoi(top->str)) {
		sb_printf(why, "among the top %s, but it is at rank %d",
			  top->str, g->rank);
		return false;
	}
	if (layer && strcmp(layer->str, layer_to_str(g->layer))) {
		sb_printf(why, "in layer %s, but it is in %s", layer->str,
			  layer_to_str(g->layer));
		return false;
	}
	if (sev && strcmp(sev->str, severity_to_str(g->severity))) {
		sb_printf(why, "at severity %s, but it is %s", sev->str,
			  severity_to_str(g->severity));
		return false;
	}
	if (msg && !strstr(g->message, msg->str)) {
		sb_printf(why,
			  "with a message holding \"%s\", but it says \"%s\"",
			  msg->str, g->message);
		return false;
	}
	if (lacks && strstr(g->message, lacks->str)) {
		sb_printf(why,
			  "with a message without \"%s\", but it says \"%s\"",
			  lacks->str, g->message);
		return false;
	}
	return true;
}

static const char *want_id(const struct ynode *w)
{
	const struct ynode *id = ynode_is_scalar(w) ? w : ynode_get(w, "id");

	return ynode_is_scalar(id) ? id->str : NULL;
}

static bool check_want(struct tfile *t, const struct ynode *w)
{
	static const char *const keys[] = { "id",	"rank",	    "top",
					    "layer",	"severity", "message",
					    "message_lacks" };

	if (ynode_is_scalar(w))
		return true;
	if (w->type != YNODE_MAP || !want_id(w)) {
		ydoc_report(
			t->doc, t->d, DIAG_ERROR, w,
			"an expected diagnosis is an id, or a mapping with 'id' and optionally rank, layer, severity, message");
		return false;
	}
	for (size_t i = 0; i < w->n; i++)
		if (!ynode_is_scalar(ynode_value(w, i))) {
			ydoc_report(t->doc, t->d, DIAG_ERROR, ynode_value(w, i),
				    "'%s' takes a plain value",
				    ynode_is_scalar(ynode_key(w, i)) ?
					    ynode_key(w, i)->str :
					    "?");
			return false;
		}
	return check_keys(t, w, "an expected diagnosis", keys,
			  ARRAY_SIZE(keys));
}

/* Compares the diagnoses with the expectation; the differences go to
 * out.  Returns whether they agree. */
static bool compare(const struct analysis *a, const struct ynode *expect,
		    struct strbuf *out)
{
	const struct diagnosis_list *dl = a->dl;
	bool none = ynode_is_scalar(expect);
	const struct ynode *want = none ? NULL : ynode_get(expect, "diagnoses");
	const struct ynode *absent = none ? NULL : ynode_get(expect, "absent");
	const struct ynode *only = none ? NULL : ynode_get(expect, "only");
	bool strict = none || (only && !strcmp(only->str, "true"));
	size_t bad = out->len;

	for (size_t i = 0; want && i < want->n; i++) {
		const struct ynode *w = want->items[i];
		const char *id = want_id(w);
		struct strbuf why = STRBUF_INIT;
		bool seen = false, ok = false;

		for (size_t k = 0; dl && k < dl->n && !ok; k++) {
			if (strcmp(dl->items[k]->id, id))
				continue;
			seen = true;
			sb_reset(&why);
			ok = ynode_is_scalar(w) ||
			     satisfies(dl->items[k], w, &why);
		}
		if (!seen) {
			sb_printf(out, "expected %s, which did not fire\n", id);
			why_not(a, id, out);
		}
		else if (!ok)
			sb_printf(out, "expected %s %s\n", id, sb_str(&why));
		sb_release(&why);
	}
	for (size_t k = 0; dl && k < dl->n; k++) {
		const struct diagnosis *g = dl->items[k];
		bool wanted = false, banned = false;

		for (size_t i = 0; want && i < want->n && !wanted; i++)
			wanted = !strcmp(want_id(want->items[i]), g->id);
		for (size_t i = 0; absent && i < absent->n && !banned; i++)
			banned = !strcmp(absent->items[i]->str, g->id);
		if (banned ||
		    (strict && !wanted && g->severity >= SEVERITY_WARNING))
			sb_printf(out,
				  "unexpected %s (#%d, %s layer, %s): %s\n",
				  g->id, g->rank, layer_to_str(g->layer),
				  severity_to_str(g->severity), g->message);
	}
	return out->len == bad;
}

static bool check_expect(struct tfile *t, const struct ynode *e)
{
	static const char *const keys[] = { "diagnoses", "absent", "only" };
	const struct ynode *want;
	bool ok;

	if (ynode_is_scalar(e)) {
		if (!strcmp(e->str, "none"))
			return true;
		ydoc_report(
			t->doc, t->d, DIAG_ERROR, e,
			"'expect' is 'none' or a mapping with 'diagnoses', 'absent' or 'only'");
		return false;
	}
	if (e->type != YNODE_MAP) {
		ydoc_report(
			t->doc, t->d, DIAG_ERROR, e,
			"'expect' is 'none' or a mapping with 'diagnoses', 'absent' or 'only'");
		return false;
	}
	ok = check_keys(t, e, "expect", keys, ARRAY_SIZE(keys));
	want = ynode_get(e, "diagnoses");
	if (want && want->type != YNODE_SEQ) {
		ydoc_report(t->doc, t->d, DIAG_ERROR, want,
			    "'diagnoses' takes a list");
		return false;
	}
	for (size_t i = 0; ok && want && i < want->n; i++)
		ok = check_want(t, want->items[i]);
	return ok && string_list(t, ynode_get(e, "absent"), "absent");
}

/* ---- cases ---- */

static void note_fired(struct run *run, const struct analysis *a,
		       const struct ynode *expect)
{
	const struct ynode *want =
		ynode_is_scalar(expect) ? NULL : ynode_get(expect, "diagnoses");

	for (size_t i = 0; i < rule_set_count(a->rs); i++) {
		const struct rule *r = rule_set_at(a->rs, i);
		bool wanted = !r->diagnoses;

		if (!engine_rule_fired(a->engine, r))
			continue;
		for (size_t k = 0; want && k < want->n && !wanted; k++)
			wanted = !strcmp(want_id(want->items[k]), r->diag_id);
		if (wanted)
			fired_add(&run->fired, r->id);
	}
}

/* Lines of text, indented under a case. */
static void indented(const char *text, const char *indent)
{
	for (const char *p = text, *nl; *p; p = nl + 1) {
		nl = strchrnul(p, '\n');
		printf("%s%.*s\n", indent, (int)(nl - p), p);
		if (!*nl)
			break;
	}
}

/* The diagnoses with their chain of reasoning, under a failed case. */
static void show_fired(const struct analysis *a)
{
	const struct report_opts ro = { true, "rules test", false, false,
					NULL, 0 };
	struct report_doc *doc;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	if (!a->dl || !a->dl->n) {
		puts("      nothing fired");
		return;
	}
	puts("      what fired:");
	mem = open_memstream(&text, &len);
	if (!mem)
		return;
	doc = report_doc_new(a, &ro);
	for (size_t i = 0; i < doc->ndiagnoses; i++)
		report_text_diagnosis(mem, doc, i);
	report_doc_free(doc);
	fclose(mem);
	indented(text, "        ");
	free(text);
}

/* Validates a case; false (after reporting) when it is malformed. */
static bool check_case(struct tfile *t, const struct ynode *c)
{
	static const char *const keys[] = { "name",  "facts",	"root",
					    "paths", "answers", "expect" };
	const struct ynode *name = ynode_get(c, "name"),
			   *facts = ynode_get(c, "facts"),
			   *root = ynode_get(c, "root"),
			   *answers = ynode_get(c, "answers"),
			   *expect = ynode_get(c, "expect");

	if (c->type != YNODE_MAP) {
		ydoc_report(
			t->doc, t->d, DIAG_ERROR, c,
			"a test case is a mapping with 'name', its input and 'expect'");
		return false;
	}
	if (!check_keys(t, c, "a test case", keys, ARRAY_SIZE(keys)))
		return false;
	if (!ynode_is_scalar(name) || !name->len) {
		ydoc_report(
			t->doc, t->d, DIAG_ERROR, name ? name : c,
			"a test case needs a 'name' that says what it shows");
		return false;
	}
	if (!expect) {
		ydoc_report(t->doc, t->d, DIAG_ERROR, c,
			    "test case '%s' has no 'expect'", name->str);
		return false;
	}
	if (!facts && !root && !ynode_get(c, "paths")) {
		ydoc_report(
			t->doc, t->d, DIAG_ERROR, c,
			"test case '%s' has no input: give 'facts', 'root' or 'paths'",
			name->str);
		return false;
	}
	if (facts && facts->type != YNODE_SEQ) {
		ydoc_report(t->doc, t->d, DIAG_ERROR, facts,
			    "'facts' takes a list of facts");
		return false;
	}
	if (root && !ynode_is_scalar(root)) {
		ydoc_report(t->doc, t->d, DIAG_ERROR, root,
			    "'root' takes a directory");
		return false;
	}
	if (answers && answers->type != YNODE_MAP) {
		ydoc_report(t->doc, t->d, DIAG_ERROR, answers,
			    "'answers' maps each question to its answer");
		return false;
	}
	for (size_t i = 0; answers && i < answers->n; i++)
		if (!ynode_is_scalar(ynode_key(answers, i)) ||
		    !ynode_is_scalar(ynode_value(answers, i))) {
			ydoc_report(t->doc, t->d, DIAG_ERROR,
				    ynode_key(answers, i),
				    "an answer is 'question: value'");
			return false;
		}
	if (facts) {
		struct fact_base *scratch = fact_base_new();
		struct seed s = { t, facts };
		int err = seed_facts(scratch, NULL, &s, t->d);

		fact_base_free(scratch);
		if (err)
			return false;
	}
	return string_list(t, ynode_get(c, "paths"), "paths") &&
	       check_expect(t, expect);
}

static void shared_release(struct shared *sh)
{
	if (sh->loaded && !sh->rc)
		analysis_base_release(&sh->base);
	diag_free(sh->d);
	free(sh->overlay);
	memset(sh, 0, sizeof(*sh));
}

/* Whether two suites test the same rule directory (NULL: the shipped
 * rules); by name, since a suite's copy is freed when it ends. */
static bool same_dir(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The base for a case of t run with ao, loaded on the suite's first
 * case, or NULL when loading fails (the case then loads, and reports,
 * for itself).  The loading's messages are copied into d, as a case
 * that loaded for itself would have them. */
static const struct analysis_base *
shared_base(struct tfile *t, const struct analysis_opts *ao, struct diag *d)
{
	struct shared *sh = &t->run->shared;

	if (sh->loaded && !same_dir(sh->overlay, t->overlay))
		shared_release(sh);
	if (!sh->loaded) {
		sh->loaded = true;
		sh->overlay = t->overlay ? xstrdup(t->overlay) : NULL;
		sh->d = diag_new();
		sh->rc = analysis_base_load(ao, sh->d, &sh->base);
	}
	if (sh->rc)
		return NULL;
	for (size_t i = 0; i < diag_count(sh->d); i++) {
		const struct diag_entry *e = diag_get(sh->d, i);

		diag_at(d, e->level, e->file, e->line, e->col, e->snippet,
			"%s", e->message);
	}
	return &sh->base;
}

static void run_case(struct tfile *t, const struct ynode *c)
{
	const struct ynode *root = ynode_get(c, "root"),
			   *paths = ynode_get(c, "paths"),
			   *answers = ynode_get(c, "answers"),
			   *expect = ynode_get(c, "expect");
	const struct options *o = t->run->o;
	struct analysis_opts ao;
	struct answers none = { 0 };
	struct seed seed = { t, ynode_get(c, "facts") };
	const char **dirs = xcalloc(o->nrules + 1, sizeof(*dirs));
	struct strbuf diff = STRBUF_INIT;
	struct diag *d = diag_new();
	struct analysis *a = NULL;
	size_t nd = t->d ? diag_errors(t->d) : 0;
	char *rootpath = root ? relative(t, root->str) : NULL;
	char **ins = xcalloc(paths ? paths->n + 1 : 1, sizeof(*ins));
	char **ans = xcalloc(answers ? answers->n + 1 : 1, sizeof(*ans));
	bool pass;
	int rc;

	for (size_t i = 0; i < o->nrules; i++)
		dirs[i] = o->rules[i];
	if (t->overlay)
		dirs[o->nrules] = t->overlay;
	for (size_t i = 0; paths && i < paths->n; i++)
		ins[i] = input_path(t, paths->items[i]->str);
	for (size_t i = 0; answers && i < answers->n; i++)
		ans[i] = xasprintf("%s=%s", ynode_key(answers, i)->str,
				   ynode_value(answers, i)->str);
	/* the options' mapping, then the case's own evidence and answers */
	options_analysis(o, &ao, &none, d);
	ao.progress = false;
	ao.live = false;
	ao.root = rootpath;
	ao.paths = (const char **)ins;
	ao.npaths = paths ? paths->n : 0;
	ao.answers = (const char **)ans;
	ao.nanswers = answers ? answers->n : 0;
	ao.rule_dirs = dirs;
	ao.nrule_dirs = o->nrules + (t->overlay != NULL);
	ao.no_site_rules = true;
	ao.seed = seed_facts;
	ao.seed_arg = &seed;
	ao.base = shared_base(t, &ao, d);
	rc = analysis_run(&ao, d, &a);
	if (rc || !a || diag_errors(t->d) > nd) {
		sb_puts(&diff, "the case could not run:\n");
		for (size_t i = 0; i < diag_count(d); i++)
			sb_printf(&diff, "  %s\n", diag_get(d, i)->message);
		pass = false;
	} else {
		pass = compare(a, expect, &diff);
	}
	printf("%s  %s:%d: %s\n", pass ? "ok  " : "FAIL", ydoc_name(t->doc),
	       c->line, ynode_get(c, "name")->str);
	if (pass) {
		t->run->passed++;
		note_fired(t->run, a, expect);
	} else {
		t->run->failed++;
		indented(sb_str(&diff), "      ");
		if (a)
			show_fired(a);
	}
	analysis_free(a);
	answers_release(&none);
	diag_free(d);
	sb_release(&diff);
	for (size_t i = 0; ins[i]; i++)
		free(ins[i]);
	for (size_t i = 0; ans[i]; i++)
		free(ans[i]);
	free(ins);
	free(ans);
	free(rootpath);
	free(dirs);
}

static int run_file(struct run *run, const char *path, const char *name,
		    const char *overlay)
{
	struct tfile t = { run, NULL, diag_new(), NULL, overlay };
	const struct ynode *root, *lang, *tests;
	char *slash;
	bool ok = true;

	t.doc = ydoc_load_file(path, name, t.d);
	t.dir = xstrdup(path);
	slash = strrchr(t.dir, '/');
	if (slash)
		*slash = '\0';
	else
		strcpy(t.dir, ".");
	root = t.doc ? ydoc_root(t.doc) : NULL;
	if (t.doc && (!root || root->type != YNODE_MAP)) {
		ydoc_report(
			t.doc, t.d, DIAG_ERROR, root,
			"a rule test file is a mapping with 'language: 1' and 'tests'");
		ok = false;
	}
	if (t.doc && ok) {
		static const char *const keys[] = { "language", "tests" };

		lang = ynode_get(root, "language");
		tests = ynode_get(root, "tests");
		ok = check_keys(&t, root, "a rule test file", keys,
				ARRAY_SIZE(keys));
		if (ok && (!ynode_is_scalar(lang) || atoi(lang->str) < 1)) {
			ydoc_report(
				t.doc, t.d, DIAG_ERROR, lang ? lang : root,
				"a rule test file starts with 'language: 1'");
			ok = false;
		} else if (ok && atoi(lang->str) > LANGUAGE_MAX) {
			ydoc_report(
				t.doc, t.d, DIAG_ERROR, lang,
				"this file needs rule language %s; rdmadoctor %s reads up to %d",
				lang->str, RD_VERSION, LANGUAGE_MAX);
			ok = false;
		} else if (ok && (!tests || tests->type != YNODE_SEQ)) {
			ydoc_report(t.doc, t.d, DIAG_ERROR,
				    tests ? tests : root,
				    "'tests' takes a list of test cases");
			ok = false;
		}
		for (size_t i = 0; ok && i < tests->n; i++)
			ok = check_case(&t, tests->items[i]);
		for (size_t i = 0; ok && i < tests->n; i++)
			run_case(&t, tests->items[i]);
	}
	if (!t.doc || !ok || diag_errors(t.d)) {
		diag_print(t.d, stderr, "rdmadoctor");
		run->broken++;
	}
	ydoc_free(t.doc);
	diag_free(t.d);
	free(t.dir);
	return ok ? 0 : -EINVAL;
}

/* ---- suites ---- */

/* Whether dir is the shipped rules directory. */
static bool shipped(const char *dir)
{
	char a[PATH_MAX], b[PATH_MAX];
	char *rules = xasprintf("%s/rules", analysis_datadir());
	bool same = realpath(dir, a) && realpath(rules, b) && !strcmp(a, b);

	free(rules);
	return same;
}

/* The rules a suite tests: the shipped set, or an overlay's own rules,
 * loaded as the cases ran them (the --rules overlays, then the suite's
 * own), so that a rule an overlay disabled is not asked for, and one it
 * overrides is the overlay's to test, at the overlay's file:line. */
static void coverage(struct run *run, const char *dir, const char *overlay)
{
	const struct options *o = run->o;
	struct diag *d = diag_new();
	const char **dirs = xcalloc(o->nrules + 1, sizeof(*dirs));
	size_t ndirs = 0;
	struct rule_set *rs;
	int level;

	for (size_t i = 0; i < o->nrules; i++)
		dirs[ndirs++] = o->rules[i];
	if (overlay)
		dirs[ndirs++] = overlay;
	/* the level analysis_load_rules gives the suite's own directory */
	level = overlay ? 3 + (int)ndirs - 1 : 0;
	rs = analysis_load_rules(dirs, ndirs, false, d);
	diag_print(d, stderr, "rdmadoctor");
	for (size_t i = 0; rs && i < rule_set_count(rs); i++) {
		const struct rule *r = rule_set_at(rs, i);

		if (r->origin_level != level || fired_has(&run->fired, r->id))
			continue;
		printf("FAIL  %s:%d: rule %s has no test case that sees it fire (add one to %s/*.test.yaml)\n",
		       r->file, r->line, r->id, overlay ? dir : "rules");
		run->failed++;
	}
	rule_set_free(rs);
	diag_free(d);
	free(dirs);
}

/* Runs the test files of a rule directory; with cover, each of its rules
 * must fire in some case. */
static void run_dir(struct run *run, const char *dir, bool cover)
{
	const char *overlay = shipped(dir) ? NULL : dir;
	struct ydoc_file *files;
	int n = ydoc_dir(dir, overlay ? NULL : "rules", NULL, &files);

	if (n < 0) {
		fprintf(stderr,
			"rdmadoctor: %s: error: cannot read rule directory: %s\n",
			dir, strerror(-n));
		run->broken++;
		return;
	}
	for (int i = 0; i < n; i++) {
		size_t len = strlen(files[i].path);

		if (len > strlen(TEST_SUFFIX) &&
		    !strcmp(files[i].path + len - strlen(TEST_SUFFIX),
			    TEST_SUFFIX))
			run_file(run, files[i].path, files[i].name, overlay);
	}
	ydoc_files_free(files, n);
	if (cover)
		coverage(run, dir, overlay);
}

int rules_test(const struct options *o, char **paths, size_t npaths)
{
	struct run run = { .o = o };

	if (!npaths) {
		char *dir = xasprintf("%s/rules", analysis_datadir());

		run_dir(&run, dir, true);
		free(dir);
	}
	for (size_t i = 0; i < npaths; i++) {
		if (is_dir(paths[i])) {
			run_dir(&run, paths[i], true);
		} else {
			char *dir = xstrdup(paths[i]),
			     *slash = strrchr(dir, '/');

			if (slash)
				*slash = '\0';
			else
				strcpy(dir, ".");
			run_file(&run, paths[i], NULL,
				 shipped(dir) ? NULL : dir);
			free(dir);
		}
	}
	shared_release(&run.shared);
	printf("%u passed, %u failed", run.passed, run.failed);
	if (run.broken)
		printf(", %u test file%s could not be read", run.broken,
		       run.broken == 1 ? "" : "s");
	putchar('\n');
	for (size_t i = 0; i < run.fired.n; i++)
		free(run.fired.ids[i]);
	free(run.fired.ids);
	if (run.broken)
		return EXIT_RULES;
	return run.failed ? EXIT_DIAGNOSED : EXIT_HEALTHY;
}
