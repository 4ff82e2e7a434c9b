/* analysis: several analyses in one process (the guide's re-check, batch's
 * base loaded once) each own their kb's log scanner and find the same
 * signatures; analyses on one loaded base (rules test, a batch worker)
 * see what a fresh load would; and a kb whose signature pattern does not
 * compile fails the load at its position instead of the log scan; the
 * kernel log's device names are adapters when nothing lists them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"

#define LOG "tests/fixtures/kernel-log/module-bad-cable.txt"

/* "signature x count" of every log_event, one per line (owned). */
static char *events(const struct analysis *a)
{
	uint32_t sig = sym_intern_cstr("signature"),
		 count = sym_intern_cstr("count");
	size_t n, len = 0;
	const uint32_t *ids =
		fact_base_of_kind(a->fb, sym_intern_cstr("log_event"), &n);
	char *text = NULL;
	FILE *f = open_memstream(&text, &len);

	for (size_t i = 0; i < n; i++) {
		const struct fact *e = fact_base_get(a->fb, ids[i]);
		const struct value *c = fact_get(e, count);

		fprintf(f, "%s x %lld\n", value_text(fact_get(e, sig)),
			c ? (long long)c->i : -1LL);
	}
	fclose(f);
	return text;
}

static struct analysis *analyze(const char *path, struct diag *d)
{
	const char *paths[] = { path };
	struct analysis_opts o = { 0 };
	struct analysis *a = NULL;

	o.paths = paths;
	o.npaths = 1;
	o.no_site_rules = true;
	assert_int_equal(analysis_run(&o, d, &a), 0);
	assert_non_null(a);
	return a;
}

static void test_analyses_side_by_side(void **state)
{
	struct diag *d = diag_new();
	struct analysis *a, *b, *c;
	char *ea, *eb, *ec;

	(void)state;
	setenv("RDMADOCTOR_DATADIR", ".", 1);
	a = analyze(LOG, d);
	ea = events(a);
	assert_true(strlen(ea) > 0);
	/* the guide's re-check: a new analysis while the old one lives */
	b = analyze(LOG, d);
	eb = events(b);
	assert_string_equal(ea, eb);
	analysis_free(a);
	/* and one after the first is gone */
	c = analyze(LOG, d);
	ec = events(c);
	assert_string_equal(eb, ec);
	analysis_free(b);
	analysis_free(c);
	free(ea);
	free(eb);
	free(ec);
	assert_int_equal(diag_errors(d), 0);
	diag_free(d);
}

/* Everything an analysis found, as text (owned): every fact with its
 * fields and provenance, the diagnoses, the skipped rules and the layers. */
static char *dump(const struct analysis *a)
{
	struct strbuf sb = STRBUF_INIT;

	for (uint32_t id = 1; id <= fact_base_count(a->fb); id++) {
		const struct fact *f = fact_base_get(a->fb, id);

		sb_printf(&sb, "%u %s %s:%u cf=%g firing=%u %s\n", f->id,
			  sym_str(f->kind),
			  fact_base_source_name(a->fb, f->prov.src),
			  f->prov.line, f->cf, f->firing,
			  f->prov.text ? f->prov.text : "-");
		for (uint32_t i = 0; i < f->nfields; i++) {
			const struct field *fl = &f->fields[i];

			sb_printf(&sb, "  %s=", sym_str(fl->name));
			value_format(&fl->v, &sb);
			sb_printf(&sb, " %s:%u\n",
				  fact_base_source_name(a->fb, fl->prov.src),
				  fl->prov.line);
		}
	}
	for (size_t i = 0; a->dl && i < a->dl->n; i++) {
		const struct diagnosis *g = a->dl->items[i];

		sb_printf(&sb, "diagnosis %d %s cf=%g %s\n", g->rank, g->id,
			  g->cf, g->message);
	}
	for (size_t i = 0; i < a->nskipped; i++)
		sb_printf(&sb, "skipped %s %zu\n", a->skipped[i].id,
			  a->skipped[i].nmissing);
	for (int l = 0; l < LAYER_COUNT; l++)
		sb_printf(&sb, "layer %d %s %s\n", l,
			  layer_status_to_str(a->layers[l].status),
			  a->layers[l].summary ? a->layers[l].summary : "-");
	return sb_detach(&sb);
}

static char *dump_root(const char *root, const struct analysis_base *base,
		       const char *answer)
{
	struct analysis_opts o = { 0 };
	struct analysis *a = NULL;
	struct diag *d = diag_new();
	char *text;

	o.root = root;
	o.no_site_rules = true;
	o.base = base;
	o.answers = &answer;
	o.nanswers = answer != NULL;
	assert_int_equal(analysis_run(&o, d, &a), 0);
	assert_non_null(a);
	text = dump(a);
	analysis_free(a);
	assert_int_equal(diag_errors(d), 0);
	diag_free(d);
	return text;
}

#define FAULTY "tests/fixtures/cx5-fw-mismatch/root"
#define HEALTHY "tests/fixtures/healthy-cx5/root"

/* Analyses one after another on one loaded base: each result is the one
 * a fresh load gives, whatever ran on the base before. */
static void test_base_rolls_back(void **state)
{
	struct analysis_opts o = { 0 };
	struct analysis_base base;
	struct diag *d = diag_new();
	char *fresh_healthy, *fresh_faulty, *text;

	(void)state;
	setenv("RDMADOCTOR_DATADIR", ".", 1);
	o.no_site_rules = true;
	fresh_healthy = dump_root(HEALTHY, NULL, NULL);
	fresh_faulty = dump_root(FAULTY, NULL, NULL);
	assert_string_not_equal(fresh_healthy, fresh_faulty);
	assert_int_equal(analysis_base_load(&o, d, &base), 0);
	/* the faulty host first: its facts, firings and answer must go */
	text = dump_root(FAULTY, &base, "recent_change=driver");
	assert_string_not_equal(text, fresh_faulty); /* the answer shows */
	free(text);
	text = dump_root(HEALTHY, &base, NULL);
	assert_string_equal(text, fresh_healthy);
	free(text);
	text = dump_root(FAULTY, &base, NULL);
	assert_string_equal(text, fresh_faulty);
	free(text);
	analysis_base_release(&base);
	free(fresh_healthy);
	free(fresh_faulty);
	assert_int_equal(diag_errors(d), 0);
	diag_free(d);
}

/* The names of the hca facts, one per line (owned). */
static char *hca_names(const struct analysis *a)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n;
	const uint32_t *ids =
		fact_base_of_kind(a->fb, sym_intern_cstr("hca"), &n);

	for (size_t i = 0; i < n; i++) {
		const struct fact *h = fact_base_get(a->fb, ids[i]);
		const struct field *fl = fact_field(h, sym_intern_cstr("name"));

		sb_printf(&sb, "%s:%u\n", value_text(&fl->v), fl->prov.line);
	}
	return sb_detach(&sb);
}

#define IB_CLASS_LINE "tests/fixtures/samples/dmesg/cn-blog-pve-create-" \
		      "qp-type2-failed-doca-dkms.txt"

/* A kernel line prefixed by the class ib_core registers its devices in
 * ("infiniband mlx5_0: create_qp...", a real blog paste) names an
 * adapter, cited from that line; beside a present listing of other
 * devices (ibv_devices of mlx5_bond_0/1, Mooncake issue 105) the log's
 * history adds none. */
static void test_adapters_of_kernel_log(void **state)
{
	const char *both[] = {
		IB_CLASS_LINE,
		"tests/fixtures/samples/ibv_devices/mooncake-105-mlx5-bond-"
		"healthy.txt",
	};
	struct analysis_opts o = { 0 };
	struct diag *d = diag_new();
	struct analysis *a;
	char *names;

	(void)state;
	setenv("RDMADOCTOR_DATADIR", ".", 1);
	a = analyze(IB_CLASS_LINE, d);
	names = hca_names(a);
	assert_string_equal(names, "mlx5_0:4\n");
	free(names);
	analysis_free(a);

	o.paths = both;
	o.npaths = 2;
	o.no_site_rules = true;
	assert_int_equal(analysis_run(&o, d, &a), 0);
	names = hca_names(a);
	assert_string_equal(names, "mlx5_bond_0:6\nmlx5_bond_1:7\n");
	free(names);
	analysis_free(a);
	assert_int_equal(diag_errors(d), 0);
	diag_free(d);
}

/* A driver's line naming its unit after its PCI function ("hfi1
 * 0000:d8:00.0: hfi1_0: ...", hfi1's dd_dev_info()) names that adapter
 * with its address and driver; a function name there names none. */
static void test_adapters_of_driver_lines(void **state)
{
	struct diag *d = diag_new();
	struct analysis *a;
	char *names;
	size_t n;
	const uint32_t *ids;
	const struct fact *h = NULL;

	(void)state;
	setenv("RDMADOCTOR_DATADIR", ".", 1);
	a = analyze("tests/fixtures/kernel-log/hfi1-unit-lines.txt", d);
	names = hca_names(a);
	assert_string_equal(names, "bnxt_re0:1\nhfi1_0:3\n");
	free(names);
	ids = fact_base_of_kind(a->fb, sym_intern_cstr("hca"), &n);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(fact_text(fact_base_get(a->fb, ids[i]), "name"),
			    "hfi1_0"))
			h = fact_base_get(a->fb, ids[i]);
	assert_non_null(h);
	assert_string_equal(fact_text(h, "pci"), "0000:d8:00.0");
	assert_string_equal(fact_text(h, "driver"), "hfi1");
	analysis_free(a);
	diag_free(d);
}

/* A copy of rules/ and kb/ whose first signature pattern opens one
 * group more than it closes. */
static void test_broken_signature_pattern(void **state)
{
	char dir[] = "/tmp/rd-analysis-XXXXXX", cmd[512];
	const char *paths[] = { LOG };
	struct analysis_opts o = { 0 };
	struct analysis *a = NULL;
	struct diag *d = diag_new();
	const struct diag_entry *e;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(
		cmd, sizeof(cmd),
		"cp -r rules kb %s/ && sed -i \"0,/pattern: '(/s//pattern: '((/\" %s/kb/signatures.yaml",
		dir, dir);
	assert_int_equal(system(cmd), 0);
	setenv("RDMADOCTOR_DATADIR", dir, 1);
	o.paths = paths;
	o.npaths = 1;
	o.no_site_rules = true;
	assert_int_equal(analysis_run(&o, d, &a), EXIT_RULES);
	assert_null(a);
	assert_int_equal(diag_errors(d), 1);
	e = diag_get(d, 0);
	assert_string_equal(e->file, "kb/signatures.yaml");
	assert_true(e->line > 0 && e->col > 0);
	assert_non_null(strstr(e->message, "not a valid PCRE2 pattern"));
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	setenv("RDMADOCTOR_DATADIR", ".", 1);
	diag_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_analyses_side_by_side),
		cmocka_unit_test(test_base_rolls_back),
		cmocka_unit_test(test_broken_signature_pattern),
		cmocka_unit_test(test_adapters_of_kernel_log),
		cmocka_unit_test(test_adapters_of_driver_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
