/* report: the document one walk makes of an analysis, and the renderers
 * that read it.  Colour is the document's, not the process's: two
 * documents of one analysis, one coloured and one not, render as asked
 * in any order.  With --explain the reasoning is computed once, into the
 * document, and the text and the JSON both show it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "cli/report.h"

#define LOG "tests/fixtures/kernel-log/module-bad-cable.txt"

static struct analysis *analyze(struct diag *d)
{
	const char *paths[] = { LOG };
	struct analysis_opts o = { 0 };
	struct analysis *a = NULL;

	o.paths = paths;
	o.npaths = 1;
	o.no_site_rules = true;
	assert_int_equal(analysis_run(&o, d, &a), 0);
	assert_non_null(a);
	return a;
}

/* The text report of doc (owned). */
static char *text_of(const struct report_doc *doc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	report_text(f, doc);
	fclose(f);
	return text;
}

static void test_colour_is_the_documents(void **state)
{
	struct diag *d = diag_new();
	struct analysis *a = analyze(d);
	const struct report_opts on = { .command = "analyze", .color = true };
	const struct report_opts off = { .command = "analyze" };
	struct report_doc *c = report_doc_new(a, &on);
	struct report_doc *p = report_doc_new(a, &off);
	char *t1 = text_of(c), *t2 = text_of(p), *t3 = text_of(c);

	(void)state;
	assert_non_null(strstr(t1, "\033["));
	assert_null(strstr(t2, "\033["));
	/* the plain one in between changed nothing */
	assert_string_equal(t1, t3);
	free(t1);
	free(t2);
	free(t3);
	report_doc_free(c);
	report_doc_free(p);
	analysis_free(a);
	diag_free(d);
}

static void test_one_walk_feeds_every_renderer(void **state)
{
	struct diag *d = diag_new();
	struct analysis *a = analyze(d);
	const struct report_opts ro = { .explain = true, .command = "analyze" };
	struct report_doc *doc = report_doc_new(a, &ro);
	struct json *j = report_json(doc);
	const struct json *diags = json_get(j, "diagnoses");
	char *text = text_of(doc), *one = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_true(doc->ndiagnoses > 0);
	assert_int_equal(json_len(diags), doc->ndiagnoses);
	for (size_t i = 0; i < doc->ndiagnoses; i++) {
		const struct report_diagnosis *dg = &doc->diagnoses[i];
		const struct json *dj = json_at(diags, i);

		assert_int_equal(dg->nwhy, a->dl->items[i]->nfirings);
		assert_int_equal(json_len(json_get(dj, "explanation")),
				 dg->nwhy);
		assert_string_equal(json_text(json_get(dj, "id")), dg->id);
		assert_int_equal(json_as_int(json_get(dj, "rank")), dg->rank);
	}
	assert_non_null(strstr(text, "   Reasoning:\n"));
	/* the guide's and rules test's view of one diagnosis is the
	 * report's own section */
	f = open_memstream(&one, &len);
	assert_non_null(f);
	report_text_diagnosis(f, doc, 0);
	fclose(f);
	assert_true(len > 0);
	assert_non_null(strstr(text, one));
	assert_string_equal(json_text(json_get(j, "verdict")), doc->verdict);
	free(one);
	free(text);
	json_free(j);
	report_doc_free(doc);
	analysis_free(a);
	diag_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_colour_is_the_documents),
		cmocka_unit_test(test_one_walk_feeds_every_renderer),
	};

	setenv("RDMADOCTOR_DATADIR", ".", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
