/* For rule authors: rules list, lint, test and reference, and explain
 * RULE-ID. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/site_data.h"
#include "cli/commands.h"
#include "cli/rules_test.h"
#include "cli/term.h"
#include "collectors/parsers/logscan.h"
#include "engine/json.h"
#include "engine/regex.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/vocab.h"
#include "engine/xalloc.h"

static void print_json(struct json *j)
{
	char *s = json_dump(j, true);

	puts(s);
	free(s);
	json_free(j);
}

static int list(const struct options *o, struct rule_set *rs)
{
	struct json *arr = o->json ? json_new_array() : NULL;

	for (size_t i = 0; i < rule_set_count(rs); i++) {
		const struct rule *r = rule_set_at(rs, i);

		if (arr) {
			struct json *j = json_new_object();

			json_set(j, "id", json_new_string(r->id));
			json_set(j, "title", json_new_string(r->title));
			json_set(j, "layer",
				 json_new_string(layer_to_str(r->layer)));
			json_set(j, "severity",
				 json_new_string(severity_to_str(r->severity)));
			json_set(j, "file", json_new_string(r->file));
			json_set(j, "line", json_new_int(r->line));
			json_set(j, "origin", json_new_int(r->origin_level));
			json_push(arr, j);
			continue;
		}
		printf("%-36s %-13s %-8s %s", r->id, layer_to_str(r->layer),
		       severity_to_str(r->severity), r->title);
		if (o->origin)
			printf("  [%s:%d]", r->file, r->line);
		putchar('\n');
	}
	if (arr) {
		struct json *doc = json_new_object();

		json_set(doc, "schema_version",
			 json_new_int(RD_SCHEMA_VERSION));
		json_set(doc, "rules", arr);
		print_json(doc);
		return EXIT_HEALTHY;
	}
	if (o->origin)
		for (size_t i = 0; i < rule_set_disabled_count(rs); i++) {
			const char *where;
			const char *id = rule_set_disabled_at(rs, i, &where);

			printf("%-36s disabled at %s\n", id, where);
		}
	return EXIT_HEALTHY;
}

static const char *const diag_levels[] = { "error", "warning", "note" };

/* lint --json: the counts and each problem where it is. */
static void lint_json(const struct rule_set *rs, const struct diag *d)
{
	struct json *j = json_new_object(), *arr = json_new_array();

	json_set(j, "schema_version", json_new_int(RD_SCHEMA_VERSION));
	json_set(j, "ok", json_new_bool(rs != NULL));
	json_set(j, "rules",
		 json_new_int(rs ? (int64_t)rule_set_count(rs) : 0));
	json_set(j, "questions",
		 json_new_int(rs ? (int64_t)rule_set_question_count(rs) : 0));
	json_set(j, "errors", json_new_int((int64_t)diag_errors(d)));
	json_set(j, "warnings",
		 json_new_int((int64_t)(diag_count(d) - diag_errors(d))));
	for (size_t i = 0; i < diag_count(d); i++) {
		const struct diag_entry *e = diag_get(d, i);
		struct json *p = json_new_object();

		json_set(p, "level", json_new_string(diag_levels[e->level]));
		json_set(p, "file",
			 e->file ? json_new_string(e->file) : json_new_null());
		json_set(p, "line", json_new_int(e->line));
		json_set(p, "col", json_new_int(e->col));
		json_set(p, "message", json_new_string(e->message));
		json_push(arr, p);
	}
	json_set(j, "problems", arr);
	print_json(j);
}

int cmd_rules_lint(struct options *o)
{
	struct diag *d = diag_new();
	struct rule_set *rs = analysis_load_rules(
		(const char *const *)(o->nargs ? o->args : (char **)o->rules),
		o->nargs ? o->nargs : o->nrules, true, d);
	const char *const *dirs =
		(const char *const *)(o->nargs ? o->args : (char **)o->rules);
	size_t ndirs = o->nargs ? o->nargs : o->nrules, nparsers = 0;
	struct dparse_set *parsers = NULL;
	struct fact_base *kb;
	struct logscan *scan;
	size_t warnings;
	int rc;

	if (rs)
		rule_set_lint(rs, d);
	/* The kb too: rules lean on it, and analyze would refuse it; and
	 * the overlays' own kb/ and parsers/. */
	if (analysis_kb_load(d, &kb, &scan) ||
	    (rs && site_data_load(dirs, ndirs, true, rs, kb, &parsers, d) < 0)) {
		rule_set_free(rs);
		rs = NULL;
	}
	nparsers = dparse_count(parsers);
	dparse_set_free(parsers);
	logscan_free(scan);
	fact_base_free(kb);
	warnings = diag_count(d) - diag_errors(d);
	rc = rs ? EXIT_HEALTHY : EXIT_RULES;
	if (o->json) {
		lint_json(rs, d);
	} else {
		diag_print(d, stderr, "rdmadoctor");
		if (rs && nparsers)
			printf("%zu rules, %zu questions, %zu parser%s: %s\n",
			       rule_set_count(rs), rule_set_question_count(rs),
			       nparsers, nparsers == 1 ? "" : "s",
			       warnings ? "no errors, see the warnings above" :
					  "no problems found");
		else if (rs)
			printf("%zu rules, %zu questions: %s\n",
			       rule_set_count(rs), rule_set_question_count(rs),
			       warnings ? "no errors, see the warnings above" :
					  "no problems found");
		else
			printf("%zu error%s\n", diag_errors(d),
			       diag_errors(d) == 1 ? "" : "s");
	}
	rule_set_free(rs);
	diag_free(d);
	return rc;
}

static const char *type_name(const struct vocab_field *f)
{
	static char buf[32];

	if (f->type != VALUE_VERSION)
		return value_type_to_str(f->type);
	snprintf(buf, sizeof(buf), "version (%s)",
		 version_kind_to_str(f->vkind));
	return buf;
}

/* The reference part of rules/README.md, generated from the tables the
 * code uses, so that the two cannot drift apart (a test compares them). */
int cmd_rules_reference(struct options *o)
{
	static const struct {
		const char *name, *operand, *doc;
	} ops[] = {
#define X(id, name, operand, doc) { name, operand, doc },
		RULE_OPS(X)
#undef X
	};

	if (o->nargs) {
		fprintf(stderr,
			"rdmadoctor: error: rules reference takes no arguments, not '%s'\n",
			o->args[0]);
		return EXIT_USAGE;
	}

	printf("### Operators\n\n| operator | operand | meaning |\n|---|---|---|\n");
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++)
		printf("| `%s` | %s | %s |\n", ops[i].name, ops[i].operand,
		       ops[i].doc);
	printf("\n### Layers\n\n| layer | what lives there |\n|---|---|\n");
	for (int l = 0; l < LAYER_COUNT; l++)
		printf("| `%s` | %s |\n", layer_to_str((enum layer)l),
		       layer_doc((enum layer)l));
	printf("\n### Severities\n\n");
	for (int i = SEVERITY_COUNT - 1; i >= 0; i--)
		printf("- `%s` (weight %.1f)\n",
		       severity_to_str((enum severity)i),
		       severity_weight((enum severity)i));
	printf("\n### Fact kinds\n");
	for (size_t i = 0; i < vocab_kind_count(); i++) {
		const struct vocab_kind *k = vocab_kind_at(i);

		printf("\n#### `%s` (%s)\n\n%s.\n\n| field | type | key | meaning |\n|---|---|---|---|\n",
		       k->name, k->source, k->doc);
		for (size_t j = 0; j < k->nfields; j++)
			printf("| `%s` | %s | %s | %s |\n", k->fields[j].name,
			       type_name(&k->fields[j]),
			       k->fields[j].key ? "key" : "", k->fields[j].doc);
	}
	return EXIT_HEALTHY;
}

int cmd_rules_list(struct options *o)
{
	struct diag *d = diag_new();
	struct rule_set *rs = analysis_load_rules(o->rules, o->nrules, true, d);
	int rc;

	diag_print(d, stderr, "rdmadoctor");
	diag_free(d);
	if (!rs)
		return EXIT_RULES;
	if (o->nargs) {
		fprintf(stderr,
			"rdmadoctor: error: rules list takes no arguments, not '%s'\n",
			o->args[0]);
		rule_set_free(rs);
		return EXIT_USAGE;
	}
	rc = list(o, rs);
	rule_set_free(rs);
	return rc;
}

int cmd_rules_test(struct options *o)
{
	return rules_test(o, o->args, o->nargs);
}

/* ---- explain ---- */

static void explain_text(const struct rule *r)
{
	struct strbuf sb = STRBUF_INIT;

	printf("%s: %s\n", r->id, r->title);
	printf("  layer %s, severity %s, confidence %.2f",
	       layer_to_str(r->layer), severity_to_str(r->severity),
	       r->confidence);
	if (r->salience)
		printf(", salience %d", r->salience);
	printf("\n  defined at %s:%d\n", r->file, r->line);
	if (r->overrides)
		printf("  overrides the rule at %s\n", r->overrides);
	if (r->description)
		printf("\nWhy it matters:\n  %s\n", r->description);
	printf("\nWhat it looks at:\n");
	for (size_t i = 0; i < r->npatterns; i++) {
		sb_reset(&sb);
		rules_condition_text(&sb, r, &r->patterns[i]);
		printf("  - %s\n", sb_str(&sb));
	}
	if (r->diagnoses) {
		printf("\nDiagnosis '%s':\n  %s\n", r->diag_id,
		       r->message.source);
		for (size_t i = 0; i < r->nremediation; i++)
			printf("%s  - %s\n", i ? "" : "\nRemediation:\n",
			       r->remediation[i].source);
	}
	for (size_t i = 0; i < r->nexplains; i++)
		printf("%s  - %s\n",
		       i ? "" :
			   "\nExplains these symptoms when they are present:\n",
		       r->explains[i]);
	for (size_t i = 0; i < r->nasserts; i++)
		printf("%s  - %s facts\n",
		       i ? "" : "\nAsserts, for other rules:\n",
		       sym_str(r->asserts[i].kind));
	for (size_t i = 0; i < r->nasks; i++)
		printf("%s  - %s\n", i ? "" : "\nMay ask:\n", r->asks[i]);
	for (size_t i = 0; i < r->nsources; i++)
		printf("%s  - %s\n", i ? "" : "\nSources:\n", r->sources[i]);
	sb_release(&sb);
}

static struct json *strings_json(char *const *v, size_t n)
{
	struct json *arr = json_new_array();

	for (size_t i = 0; i < n; i++)
		json_push(arr, json_new_string(v[i]));
	return arr;
}

/* explain --json: the same parts as the text, by name. */
static void explain_json(const struct rule *r)
{
	struct json *j = json_new_object(), *arr = json_new_array();
	struct strbuf sb = STRBUF_INIT;

	json_set(j, "schema_version", json_new_int(RD_SCHEMA_VERSION));
	json_set(j, "id", json_new_string(r->id));
	json_set(j, "title", json_new_string(r->title));
	json_set(j, "layer", json_new_string(layer_to_str(r->layer)));
	json_set(j, "severity", json_new_string(severity_to_str(r->severity)));
	json_set(j, "confidence", json_new_double(r->confidence));
	json_set(j, "salience", json_new_int(r->salience));
	json_set(j, "file", json_new_string(r->file));
	json_set(j, "line", json_new_int(r->line));
	json_set(j, "overrides", r->overrides ? json_new_string(r->overrides) :
						json_new_null());
	json_set(j, "disabled", json_new_bool(false));
	json_set(j, "description",
		 r->description ? json_new_string(r->description) :
				  json_new_null());
	for (size_t i = 0; i < r->npatterns; i++) {
		sb_reset(&sb);
		rules_condition_text(&sb, r, &r->patterns[i]);
		json_push(arr, json_new_string(sb_str(&sb)));
	}
	json_set(j, "conditions", arr);
	if (r->diagnoses) {
		struct json *dg = json_new_object(), *rem = json_new_array();

		json_set(dg, "id", json_new_string(r->diag_id));
		json_set(dg, "message", json_new_string(r->message.source));
		for (size_t i = 0; i < r->nremediation; i++)
			json_push(rem,
				  json_new_string(r->remediation[i].source));
		json_set(dg, "remediation", rem);
		json_set(j, "diagnosis", dg);
	} else {
		json_set(j, "diagnosis", json_new_null());
	}
	json_set(j, "explains", strings_json(r->explains, r->nexplains));
	arr = json_new_array();
	for (size_t i = 0; i < r->nasserts; i++)
		json_push(arr, json_new_string(sym_str(r->asserts[i].kind)));
	json_set(j, "asserts", arr);
	json_set(j, "asks", strings_json(r->asks, r->nasks));
	json_set(j, "sources", strings_json(r->sources, r->nsources));
	sb_release(&sb);
	print_json(j);
}

/* A rule an overlay disabled: no conditions to show, only where it was
 * switched off. */
static void explain_disabled(const struct options *o, const char *id,
			     const char *where)
{
	struct json *j;

	if (!o->json) {
		printf("%s: disabled at %s\n  it does not run; remove 'disabled: true' there to run it again\n",
		       id, where);
		return;
	}
	j = json_new_object();
	json_set(j, "schema_version", json_new_int(RD_SCHEMA_VERSION));
	json_set(j, "id", json_new_string(id));
	json_set(j, "disabled", json_new_bool(true));
	json_set(j, "disabled_at", json_new_string(where));
	print_json(j);
}

int cmd_explain(struct options *o)
{
	struct diag *d = diag_new();
	struct rule_set *rs = analysis_load_rules(o->rules, o->nrules, true, d);
	const struct rule *r;
	int rc = EXIT_HEALTHY;

	diag_print(d, stderr, "rdmadoctor");
	diag_free(d);
	if (!rs)
		return EXIT_RULES;
	if (o->nargs != 1) {
		fprintf(stderr,
			"rdmadoctor: error: explain takes one rule id (rdmadoctor rules list shows them)\n");
		rule_set_free(rs);
		return EXIT_USAGE;
	}
	r = rule_set_find(rs, o->args[0]);
	if (!r && rule_set_disabled_where(rs, o->args[0])) {
		explain_disabled(o, o->args[0],
				 rule_set_disabled_where(rs, o->args[0]));
	} else if (!r) {
		fprintf(stderr,
			"rdmadoctor: error: no rule '%s' (rdmadoctor rules list shows them)\n",
			o->args[0]);
		rc = EXIT_USAGE;
	} else if (o->json) {
		explain_json(r);
	} else {
		explain_text(r);
	}
	rule_set_free(rs);
	return rc;
}
