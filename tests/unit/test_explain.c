/* explain: why a rule did not fire (explain_miss): the conditions the best
 * partial match met, the first one no fact meets, and the nearest facts
 * tested under that partial match's bindings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include "engine/explain.h"
#include "helpers.h"

#define RULES                                                           \
	"language: 1\nrules:\n"                                         \
	"  - id: old-fw\n    title: T\n    layer: firmware\n"           \
	"    severity: error\n    confidence: 0.9\n"                    \
	"    when:\n"                                                   \
	"      - hca: {name: $d, family: $fam, fw_ver: $fw}\n"          \
	"      - driver: {name: $drv, version: $ver}\n"                 \
	"      - fw_requirement: {family: $fam, driver: $drv,"          \
	" fw_min: {bind: $min, gt: $fw}}\n"                             \
	"    diagnose: {message: \"{d} {min}\"}\n"                      \
	"  - id: no-umad\n    title: T\n    layer: kernel_module\n"     \
	"    severity: warning\n    confidence: 0.9\n"                  \
	"    when:\n"                                                   \
	"      - hca: {name: $d}\n"                                     \
	"      - not: {module: {name: ib_umad}}\n"                      \
	"    diagnose: {message: \"{d}\"}\n"

struct world {
	struct rule_set *rs;
	struct fact_base *fb;
	struct diag *d;
};

static void setup(struct world *w)
{
	w->rs = rule_set_new();
	w->fb = fact_base_new();
	w->d = diag_new();
	if (load_rules(w->rs, RULES, w->d)) {
		diag_print(w->d, stderr, "test");
		fail_msg("rules did not load");
	}
	add_fact(w->fb, "hca", "name=mlx5_0", "family=ConnectX-5",
		 "fw_ver=16.27.4000", NULL);
	add_fact(w->fb, "driver", "name=mlx5_ib", "version=5.7-1.0.2", NULL);
}

static void teardown(struct world *w)
{
	fact_base_free(w->fb);
	rule_set_free(w->rs);
	diag_free(w->d);
}

/* The firmware is new enough: two conditions hold, and the kb entry fails
 * only its comparison with the firmware the first condition bound (with
 * fresh bindings it would fail its joins too). */
static void test_nearest_under_bindings(void **state)
{
	struct world w;
	struct explain_miss m;
	const struct rule *r;

	(void)state;
	setup(&w);
	add_fact(w.fb, "fw_requirement", "family=ConnectX-5",
		 "driver=mlx5_ib", "fw_min=16.27.2000", NULL);
	add_fact(w.fb, "fw_requirement", "family=ConnectX-6",
		 "driver=mlx5_ib", "fw_min=20.27.2000", NULL);
	r = rule_set_find(w.rs, "old-fw");
	explain_miss(r, w.fb, &m);
	assert_non_null(m.pattern);
	assert_false(m.blocked);
	assert_int_equal(m.pattern->kind, sym_intern_cstr("fw_requirement"));
	/* the hca condition comes before it in every plan: $fam, $fw bound */
	assert_true(m.matched >= 1 && m.matched < r->npositive);
	assert_true(m.bound[1] && m.bound[2]);
	assert_int_equal(m.nfacts, 2);
	assert_int_equal(m.nnearest, 2);
	assert_string_equal(fact_text(m.nearest[0], "family"), "ConnectX-5");
	/* the ConnectX-5 entry fails only fw_min gt $fw (= 16.27.4000) */
	assert_true(m.failed[0] & (1u << 3));
	assert_false(m.failed[0] & 1u);
	/* the ConnectX-6 entry also fails family eq $fam, which fresh
	 * bindings would have let it bind */
	assert_true(m.failed[1] & 1u);
	assert_false(m.failed[1] & (1u << 3));
	assert_int_equal(m.held[0], 3);
	assert_int_equal(m.held[1], 3);
	explain_miss_release(&m);
	teardown(&w);
}

/* A rule whose conditions all hold reports no pattern, and every positive
 * condition as met. */
static void test_complete_match(void **state)
{
	struct world w;
	struct explain_miss m;

	(void)state;
	setup(&w);
	add_fact(w.fb, "fw_requirement", "family=ConnectX-5",
		 "driver=mlx5_ib", "fw_min=16.28.1002", NULL);
	explain_miss(rule_set_find(w.rs, "old-fw"), w.fb, &m);
	assert_null(m.pattern);
	assert_int_equal(m.matched, 3);
	explain_miss_release(&m);
	teardown(&w);
}

/* A contradicted 'not' condition is reported with the fact that
 * contradicts it. */
static void test_blocked_not(void **state)
{
	struct world w;
	struct explain_miss m;

	(void)state;
	setup(&w);
	add_fact(w.fb, "module", "name=ib_umad", NULL);
	explain_miss(rule_set_find(w.rs, "no-umad"), w.fb, &m);
	assert_non_null(m.pattern);
	assert_true(m.blocked);
	assert_int_equal(m.matched, 1);
	assert_int_equal(m.nnearest, 1);
	assert_string_equal(fact_text(m.nearest[0], "name"), "ib_umad");
	explain_miss_release(&m);
	teardown(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nearest_under_bindings),
		cmocka_unit_test(test_complete_match),
		cmocka_unit_test(test_blocked_not),
	};

	return cmocka_run_group_tests_name("explain", tests, NULL, NULL);
}
