/* engine: matching, joins, negation, chaining, refraction, salience,
 * stratified negation, the firing cap, and indexed matching. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include "engine/engine.h"
#include "engine/strbuf.h"
#include "helpers.h"

struct world {
	struct rule_set *rs;
	struct fact_base *fb;
	struct diag *d;
	struct engine *e;
};

static void setup(struct world *w, const char *rules)
{
	w->rs = rule_set_new();
	w->fb = fact_base_new();
	w->d = diag_new();
	if (load_rules(w->rs, rules, w->d)) {
		diag_print(w->d, stderr, "test");
		fail_msg("rules did not load");
	}
}

static int run(struct world *w)
{
	w->e = engine_new(w->rs, w->fb, w->d);
	return engine_run(w->e);
}

static void teardown(struct world *w)
{
	engine_free(w->e);
	fact_base_free(w->fb);
	rule_set_free(w->rs);
	diag_free(w->d);
}

/* How many times rule id fired. */
static int fired(const struct world *w, const char *id)
{
	int n = 0;

	for (uint32_t i = 1; i <= engine_firing_count(w->e); i++)
		n += !strcmp(engine_firing(w->e, i)->rule->id, id);
	return n;
}

#define HEAD "language: 1\nrules:\n"
#define RULE(id, sal)                                             \
	"  - id: " id                                             \
	"\n    title: T\n    layer: verbs\n    severity: error\n" \
	"    confidence: 0.9\n    salience: " #sal "\n"

static void test_constant_and_join(void **state)
{
	struct world w;

	(void)state;
	setup(&w, HEAD RULE("down",
			    0) "    when:\n"
			       "      - hca: {name: $d, family: ConnectX-5}\n"
			       "      - port: {hca: $d, state: DOWN}\n"
			       "    diagnose: {message: \"{d} down\"}\n");
	add_fact(w.fb, "hca", "name=mlx5_0", "family=ConnectX-5", NULL);
	add_fact(w.fb, "hca", "name=mlx5_1", "family=ConnectX-6", NULL);
	add_fact(w.fb, "port", "hca=mlx5_0", "port=1", "state=DOWN", NULL);
	add_fact(w.fb, "port", "hca=mlx5_0", "port=2", "state=ACTIVE", NULL);
	add_fact(w.fb, "port", "hca=mlx5_1", "port=1", "state=DOWN", NULL);
	assert_int_equal(run(&w), 0);
	assert_int_equal(fired(&w, "down"), 1);
	assert_string_equal(value_text(&engine_firing(w.e, 1)->values[0]),
			    "mlx5_0");
	teardown(&w);
}

static void test_negation(void **state)
{
	struct world w;

	(void)state;
	setup(&w,
	      HEAD RULE(
		      "no-active",
		      0) "    when:\n"
			 "      - hca: {name: $d}\n"
			 "      - not: {port: {hca: $d, state: ACTIVE}}\n"
			 "    diagnose: {message: \"{d}\"}\n" RULE(
				 "exists-down",
				 0) "    when:\n"
				    "      - hca: {name: $d}\n"
				    "      - exists: {port: {hca: $d, state: DOWN}}\n"
				    "    diagnose: {message: \"{d}\"}\n");
	add_fact(w.fb, "hca", "name=a", NULL);
	add_fact(w.fb, "hca", "name=b", NULL);
	add_fact(w.fb, "port", "hca=a", "port=1", "state=ACTIVE", NULL);
	add_fact(w.fb, "port", "hca=b", "port=1", "state=DOWN", NULL);
	add_fact(w.fb, "port", "hca=b", "port=2", "state=DOWN", NULL);
	run(&w);
	assert_int_equal(fired(&w, "no-active"), 1);
	/* exists binds nothing outside: one firing, not one per port. */
	assert_int_equal(fired(&w, "exists-down"), 1);
	teardown(&w);
}

static void test_comparisons(void **state)
{
	struct world w;

	(void)state;
	setup(&w,
	      HEAD RULE(
		      "old-fw",
		      0) "    when:\n"
			 "      - hca: {name: $d, fw_ver: {lt: 16.27.2000}}\n"
			 "    diagnose: {message: \"{d}\"}\n" RULE(
				 "slow",
				 0) "    when:\n"
				    "      - port: {hca: $d, rate_gbps: $r}\n"
				    "      - perftest: {hca: $d, bw_avg_gbps: {lt: \"$r * 0.9\"}}\n"
				    "    diagnose: {message: \"{d}\"}\n" RULE(
					    "in-list",
					    0) "    when:\n"
					       "      - port: {hca: $d, phys_state: [POLLING, DISABLED]}\n"
					       "    diagnose: {message: \"{d}\"}\n" RULE(
						       "regex",
						       0) "    when:\n"
							  "      - log: {text: {match: 'firmware version: (?<fw>\\S+)'}}\n"
							  "      - hca: {name: $d, fw_ver: {ne: $fw}}\n"
							  "    diagnose: {message: \"{d} {fw}\"}\n");
	/* 16.9.x is older than 16.27.x by version, newer by string order. */
	add_fact(w.fb, "hca", "name=a", "fw_ver=16.9.1000", NULL);
	add_fact(w.fb, "hca", "name=b", "fw_ver=16.100.1", NULL);
	add_fact(w.fb, "port", "hca=a", "port=1", "rate_gbps=100",
		 "phys_state=POLLING", NULL);
	add_fact(w.fb, "port", "hca=b", "port=1", "rate_gbps=100",
		 "phys_state=LINKUP", NULL);
	add_fact(w.fb, "perftest", "hca=a", "bw_avg_gbps=40.5", NULL);
	add_fact(w.fb, "perftest", "hca=b", "bw_avg_gbps=95", NULL);
	add_fact(w.fb, "log",
		 "text=mlx5_core 0000:3b:00.0: firmware version: 16.100.1",
		 NULL);
	run(&w);
	assert_int_equal(fired(&w, "old-fw"), 1);
	assert_string_equal(value_text(&engine_firing(w.e, 1)->values[0]), "a");
	assert_int_equal(fired(&w, "slow"), 1);
	assert_int_equal(fired(&w, "in-list"), 1);
	/* The log names 16.100.1: only a differs from it. */
	assert_int_equal(fired(&w, "regex"), 1);
	teardown(&w);
}

static void test_chaining_and_strata(void **state)
{
	struct world w;

	(void)state;
	/* The 'not' rule comes first and has the higher salience, yet it
	 * must wait for the rule that asserts what it negates. */
	setup(&w,
	      HEAD RULE(
		      "no-adapter",
		      100) "    when:\n"
			   "      - collector: {name: pci, status: ok}\n"
			   "      - not: {rdma_function: {}}\n"
			   "    diagnose: {message: none}\n" RULE(
				   "is-adapter",
				   0) "    when:\n"
				      "      - pcie: {pci: $p, device_id: $id}\n"
				      "      - adapter: {pci_device_id: $id, family: $f}\n"
				      "    assert:\n"
				      "      - rdma_function: {pci: $p, family: $f}\n" RULE(
					      "uses-derived",
					      0) "    when:\n"
						 "      - rdma_function: {pci: $p, family: ConnectX-5}\n"
						 "    diagnose: {message: \"{p}\"}\n");
	add_fact(w.fb, "collector", "name=pci", "status=ok", NULL);
	add_fact(w.fb, "adapter", "pci_device_id=1017", "family=ConnectX-5",
		 NULL);
	add_fact(w.fb, "pcie", "pci=0000:3b:00.0", "device_id=1017", NULL);
	run(&w);
	assert_int_equal(fired(&w, "is-adapter"), 1);
	assert_int_equal(fired(&w, "uses-derived"), 1);
	assert_int_equal(fired(&w, "no-adapter"), 0);
	teardown(&w);
}

static void test_salience_and_refraction(void **state)
{
	struct world w;
	struct fact *f;

	(void)state;
	setup(&w,
	      HEAD RULE("low",
			-5) "    when: [port: {hca: $d}]\n"
			    "    diagnose: {message: \"{d}\"}\n" RULE(
				    "high",
				    50) "    when: [port: {hca: $d}]\n"
					"    diagnose: {message: \"{d}\"}\n");
	add_fact(w.fb, "port", "hca=a", "port=1", NULL);
	run(&w);
	assert_string_equal(engine_firing(w.e, 1)->rule->id, "high");
	assert_string_equal(engine_firing(w.e, 2)->rule->id, "low");
	/* Running again fires nothing new; a new fact fires each rule once. */
	assert_int_equal(engine_run(w.e), 0);
	assert_int_equal(engine_firing_count(w.e), 2);
	f = fact_base_begin(w.fb, sym_intern_cstr("port"), 0, 0, NULL, 0);
	fact_put(w.fb, f, sym_intern_cstr("hca"), value_cstr("b"), 0, NULL, 0);
	fact_put(w.fb, f, sym_intern_cstr("port"), value_int(1), 0, NULL, 0);
	engine_add_fact(w.e, f);
	engine_run(w.e);
	assert_int_equal(fired(&w, "high"), 2);
	assert_int_equal(fired(&w, "low"), 2);
	teardown(&w);
}

static void test_firing_cap(void **state)
{
	struct world w;

	(void)state;
	/* Each firing asserts a fact that is new (a longer name), so the chain
	 * never settles. */
	setup(&w,
	      HEAD RULE("grow",
			0) "    when: [token: {v: $x}]\n"
			   "    assert: [token: {v: \"{x}x\"}]\n" RULE(
				   "seed",
				   0) "    when: [port: {hca: $d}]\n"
				      "    assert: [token: {v: \"{d}\"}]\n");
	add_fact(w.fb, "port", "hca=a", "port=1", NULL);
	w.e = engine_new(w.rs, w.fb, w.d);
	engine_set_max_firings(w.e, 50);
	assert_int_equal(engine_run(w.e), -ELOOP);
	assert_non_null(strstr(diag_get(w.d, 0)->message,
			       "rule chain did not settle after 50 firings"));
	assert_non_null(strstr(diag_get(w.d, 0)->message, "'grow'"));
	teardown(&w);
}

static void test_value_cap(void **state)
{
	struct world w;

	(void)state;
	/* The value doubles at each firing: without the cap, 40 firings
	 * would ask for a terabyte. */
	setup(&w,
	      HEAD RULE("double",
			0) "    when: [token: {v: $x}]\n"
			   "    assert: [token: {v: \"{x}{x}\"}]\n" RULE(
				   "seed",
				   0) "    when: [port: {hca: $d}]\n"
				      "    assert: [token: {v: \"{d}\"}]\n");
	add_fact(w.fb, "port", "hca=a", "port=1", NULL);
	assert_int_equal(run(&w), -E2BIG);
	assert_true(engine_firing_count(w.e) < 20);
	assert_non_null(
		strstr(diag_get(w.d, 0)->message, "rule 'double' (t.yaml:"));
	assert_non_null(
		strstr(diag_get(w.d, 0)->message,
		       "built a value of more than 4096 bytes for 'v'"));
	teardown(&w);
}

/* Firings of rules that only diagnose cannot make a chain run forever,
 * and do not count towards the cap. */
static void test_firing_cap_counts_assertions(void **state)
{
	struct world w;
	char name[32];

	(void)state;
	setup(&w, HEAD RULE("each", 0) "    when: [module: {name: $m}]\n"
				       "    diagnose: {message: \"{m}\"}\n");
	for (int i = 0; i < 60; i++) {
		snprintf(name, sizeof(name), "name=m%d", i);
		add_fact(w.fb, "module", name, NULL);
	}
	w.e = engine_new(w.rs, w.fb, w.d);
	engine_set_max_firings(w.e, 50);
	assert_int_equal(engine_run(w.e), 0);
	assert_int_equal(fired(&w, "each"), 60);
	teardown(&w);
}

/* A rule of conditions that share no variable matches the cross product
 * of their facts: diagnose-only or not, it stops at the match cap with an
 * error naming it, and no activation is left over. */
static void test_match_cap_stops_cross_product(void **state)
{
	struct world w;
	char name[32];

	(void)state;
	setup(&w, HEAD RULE("cross", 0) "    when:\n"
					"      - module: {name: $a}\n"
					"      - module: {name: $b}\n"
					"      - module: {name: $c}\n"
					"    diagnose: {message: \"{a}{b}{c}\"}\n");
	for (int i = 0; i < 30; i++) {
		snprintf(name, sizeof(name), "name=m%d", i);
		add_fact(w.fb, "module", name, NULL);
	}
	w.e = engine_new(w.rs, w.fb, w.d);
	engine_set_max_matches(w.e, 1000); /* 30^3 = 27000 would come */
	assert_int_equal(engine_run(w.e), -E2BIG);
	assert_true(fired(&w, "cross") <= 1000);
	assert_int_equal(diag_errors(w.d), 1);
	teardown(&w);
}

/* A fact asserted during a run meets exactly the conditions whose
 * constants it holds (an int equals a whole number), and its activations
 * arise in rule order, as without the index. */
static void test_indexed_assert(void **state)
{
	struct strbuf rules = STRBUF_INIT;
	struct world w;

	(void)state;
	sb_puts(&rules,
		HEAD RULE("by-n",
			  0) "    when: [token: {n: 5.0}]\n"
			     "    diagnose: {message: n}\n" RULE(
				     "any",
				     0) "    when: [token: {v: $v}]\n"
					"    diagnose: {message: \"{v}\"}\n");
	for (int i = 0; i < 100; i++)
		sb_printf(&rules,
			  RULE("t%d", 0) "    when: [token: {v: t%d, n: 5}]\n"
					 "    diagnose: {message: x}\n",
			  i, i);
	sb_puts(&rules,
		RULE("seed",
		     1) "    when: [hca: {name: $d}]\n"
			"    assert: [token: {v: t7, n: 5}]\n"
			"  - {id: nowhere, title: T, layer: verbs,"
			" severity: error, confidence: 0.9,"
			" when: [token: {w: 1}], diagnose: {message: x}}\n"
			"  - {id: set-w, title: T, layer: verbs,"
			" severity: error, confidence: 0.9,"
			" when: [hca: {name: nothing}],"
			" assert: [token: {w: 1}]}\n");
	setup(&w, sb_str(&rules));
	add_fact(w.fb, "hca", "name=a", NULL);
	assert_int_equal(run(&w), 0);
	assert_int_equal(engine_firing_count(w.e), 4);
	assert_string_equal(engine_firing(w.e, 1)->rule->id, "seed");
	assert_string_equal(engine_firing(w.e, 2)->rule->id, "by-n");
	assert_string_equal(engine_firing(w.e, 3)->rule->id, "any");
	assert_string_equal(engine_firing(w.e, 4)->rule->id, "t7");
	assert_int_equal(fired(&w, "nowhere"), 0);
	sb_release(&rules);
	teardown(&w);
}

static void test_indexed(void **state)
{
	struct strbuf rules = STRBUF_INIT;
	struct engine_stats st;
	struct world w;
	char name[32];

	(void)state;
	sb_puts(&rules, HEAD);
	for (int i = 0; i < 200; i++)
		sb_printf(
			&rules,
			"  - {id: r%d, title: T, layer: verbs, severity: info,"
			" confidence: 1, when: [module: {name: m%d}],"
			" diagnose: {message: x}}\n",
			i, i);
	setup(&w, sb_str(&rules));
	for (int i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "name=m%d", i);
		add_fact(w.fb, "module", name, NULL);
	}
	run(&w);
	engine_stats(w.e, &st);
	assert_int_equal(engine_firing_count(w.e), 200);
	/* Each rule looks at its one candidate, not at 5000 modules. */
	assert_true(st.candidates <= 200);
	sb_release(&rules);
	teardown(&w);
}

static void test_waiting_for_answer(void **state)
{
	struct world w;
	char **qs;
	size_t n;

	(void)state;
	setup(&w,
	      "language: 1\n"
	      "questions:\n"
	      "  - {id: changed, prompt: Changed?, choices: [yes-kernel, no]}\n"
	      "rules:\n" RULE(
		      "after-upgrade",
		      0) "    ask: [changed]\n"
			 "    when:\n"
			 "      - hca: {name: $d}\n"
			 "      - answer: {question: changed, value: yes-kernel}\n"
			 "    diagnose: {message: \"{d}\"}\n");
	add_fact(w.fb, "hca", "name=a", NULL);
	run(&w);
	assert_int_equal(fired(&w, "after-upgrade"), 0);
	assert_true(engine_waits_for_answers(
		w.e, rule_set_find(w.rs, "after-upgrade"), &qs, &n));
	assert_int_equal(n, 1);
	assert_string_equal(qs[0], "changed");
	free(qs[0]);
	free(qs);
	teardown(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_constant_and_join),
		cmocka_unit_test(test_negation),
		cmocka_unit_test(test_comparisons),
		cmocka_unit_test(test_chaining_and_strata),
		cmocka_unit_test(test_salience_and_refraction),
		cmocka_unit_test(test_firing_cap),
		cmocka_unit_test(test_value_cap),
		cmocka_unit_test(test_firing_cap_counts_assertions),
		cmocka_unit_test(test_match_cap_stops_cross_product),
		cmocka_unit_test(test_indexed_assert),
		cmocka_unit_test(test_indexed),
		cmocka_unit_test(test_waiting_for_answer),
	};

	return cmocka_run_group_tests_name("engine", tests, NULL, NULL);
}
