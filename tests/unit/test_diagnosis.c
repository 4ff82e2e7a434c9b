/* diagnosis: certainty factors combine, causes rank above the symptoms
 * they explain, evidence follows derived facts back to the host. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include "engine/diagnosis.h"
#include "helpers.h"

static void test_cf_combine(void **state)
{
	(void)state;
	assert_true(fabs(diagnosis_cf_combine(0.9, 0.8) - 0.98) < 1e-9);
	assert_true(fabs(diagnosis_cf_combine(0.8, 0.9) - 0.98) < 1e-9);
	assert_true(fabs(diagnosis_cf_combine(0.6, -0.4) - 1.0 / 3) < 1e-9);
	assert_true(fabs(diagnosis_cf_combine(-0.5, -0.5) + 0.75) < 1e-9);
	assert_true(diagnosis_cf_combine(1, -1) == 0);
	/* Associative, so firing order cannot change a ranking. */
	assert_true(
		fabs(diagnosis_cf_combine(diagnosis_cf_combine(0.3, 0.5), 0.7) -
		     diagnosis_cf_combine(
			     0.3, diagnosis_cf_combine(0.5, 0.7))) < 1e-12);
}

struct run {
	struct rule_set *rs;
	struct fact_base *fb;
	struct diag *d;
	struct engine *e;
	struct diagnosis_list *dl;
};

static void go(struct run *r, const char *rules)
{
	r->rs = rule_set_new();
	r->d = diag_new();
	if (load_rules(r->rs, rules, r->d)) {
		diag_print(r->d, stderr, "test");
		fail_msg("rules did not load");
	}
	r->e = engine_new(r->rs, r->fb, r->d);
	assert_int_equal(engine_run(r->e), 0);
	r->dl = diagnosis_collect(r->e, r->fb);
}

static void done(struct run *r)
{
	diagnosis_list_free(r->dl);
	engine_free(r->e);
	fact_base_free(r->fb);
	rule_set_free(r->rs);
	diag_free(r->d);
}

static const char ranked[] =
	"language: 1\nrules:\n"
	/* A strong symptom in the verbs layer... */
	"  - id: slow\n    title: Slow\n    layer: verbs\n    severity: critical\n"
	"    confidence: 1\n    when: [perftest: {hca: $d}]\n"
	"    diagnose: {message: \"{d} slow\"}\n"
	/* ...explained by a weaker cause below it, which must rank first. */
	"  - id: old-fw\n    title: Old FW\n    layer: firmware\n    severity: warning\n"
	"    confidence: 0.5\n    when: [hca: {name: $d, fw_ver: {lt: 2.0}}]\n"
	"    diagnose: {message: \"{d} old\", explains: [slow]}\n"
	/* Two rules support one diagnosis: their certainties combine. */
	"  - id: pci-a\n    title: PCIe slow\n    layer: hardware\n    severity: error\n"
	"    confidence: 0.6\n    when: [pcie: {pci: $p, sta_width: 8}]\n"
	"    diagnose: {id: pcie-degraded, about: \"{p}\", message: \"{p} x8\"}\n"
	"  - id: pci-b\n    title: PCIe slow\n    layer: hardware\n    severity: error\n"
	"    confidence: 0.5\n    when: [pcie: {pci: $p, sta_speed_gts: 8}]\n"
	"    diagnose: {id: pcie-degraded, about: \"{p}\", message: \"{p} gen3\"}\n"
	/* Negative evidence lowers that diagnosis. */
	"  - id: pci-benign\n    title: PCIe by design\n    layer: hardware\n"
	"    severity: info\n    confidence: -0.5\n"
	"    when: [pcie: {pci: $p, class: '0207'}]\n"
	"    diagnose: {id: pcie-degraded, about: \"{p}\", message: \"{p} ok\"}\n";

static void test_ranking(void **state)
{
	struct run r = { 0 };
	const struct diagnosis *top, *pci = NULL;
	double both;

	(void)state;
	r.fb = fact_base_new();
	add_fact(r.fb, "perftest", "hca=mlx5_0", "bw_avg_gbps=10", NULL);
	add_fact(r.fb, "hca", "name=mlx5_0", "fw_ver=1.5", NULL);
	add_fact(r.fb, "pcie", "pci=0000:3b:00.0", "sta_width=8",
		 "sta_speed_gts=8", NULL);
	add_fact(r.fb, "pcie", "pci=0000:5e:00.0", "sta_width=8",
		 "sta_speed_gts=8", "class=0207", NULL);
	go(&r, ranked);
	top = r.dl->items[0];
	assert_string_equal(top->id, "old-fw");
	assert_int_equal(top->rank, 1);
	assert_int_equal(top->nexplains, 1);
	assert_string_equal(r.dl->items[top->explains[0]]->id, "slow");
	assert_int_equal(r.dl->items[1]->rank, 2);
	assert_string_equal(r.dl->items[1]->id, "slow");
	both = diagnosis_cf_combine(0.6, 0.5);
	for (size_t i = 0; i < r.dl->n; i++) {
		const struct diagnosis *dg = r.dl->items[i];

		if (strcmp(dg->id, "pcie-degraded"))
			continue;
		if (!strcmp(dg->about, "0000:3b:00.0"))
			pci = dg;
		else
			assert_true(fabs(dg->cf - diagnosis_cf_combine(
							  both, -0.5)) < 1e-9);
	}
	assert_non_null(pci);
	assert_true(fabs(pci->cf - both) < 1e-9);
	assert_int_equal(pci->nfirings, 2);
	/* The strongest firing supplies the message. */
	assert_string_equal(pci->message, "0000:3b:00.0 x8");
	done(&r);
}

/* Evidence against a diagnosis counts even when it fires first. */
static const char against_first[] =
	"language: 1\nrules:\n"
	"  - id: benign\n    title: By design\n    layer: hardware\n"
	"    severity: info\n    confidence: -0.8\n    salience: 10\n"
	"    when: [pcie: {pci: $p, class: '0207'}]\n"
	"    diagnose: {id: degraded, about: \"{p}\", message: \"{p} ok\"}\n"
	"  - id: degraded\n    title: Degraded\n    layer: hardware\n"
	"    severity: error\n    confidence: 0.8\n"
	"    when: [pcie: {pci: $p, sta_width: 8}]\n"
	"    diagnose: {id: degraded, about: \"{p}\", message: \"{p} x8\"}\n";

static void test_negative_evidence_first(void **state)
{
	struct run r = { 0 };

	(void)state;
	r.fb = fact_base_new();
	/* Both rules fire on this one: -0.8 and 0.8 cancel out. */
	add_fact(r.fb, "pcie", "pci=0000:5e:00.0", "sta_width=8", "class=0207",
		 NULL);
	/* Only the positive rule fires on this one. */
	add_fact(r.fb, "pcie", "pci=0000:3b:00.0", "sta_width=8", NULL);
	go(&r, against_first);
	assert_int_equal(r.dl->n, 1);
	assert_string_equal(r.dl->items[0]->about, "0000:3b:00.0");
	assert_string_equal(r.dl->items[0]->message, "0000:3b:00.0 x8");
	assert_true(fabs(r.dl->items[0]->cf - 0.8) < 1e-9);
	done(&r);
}

/* One rule matching two facts is one piece of evidence. */
static const char one_rule[] =
	"language: 1\nrules:\n"
	"  - id: low-memlock\n    title: Low memlock\n    layer: verbs\n"
	"    severity: error\n    confidence: 0.7\n"
	"    when: [limits: {memlock_kb: {lt: 1024}}]\n"
	"    diagnose: {about: host, message: \"memlock is low\"}\n"
	"  - id: also-low\n    title: Low memlock\n    layer: verbs\n"
	"    severity: error\n    confidence: 0.5\n"
	"    when: [verbs: {step: reg_mr, ok: false}]\n"
	"    diagnose: {id: low-memlock, about: host, message: \"reg_mr failed\"}\n";

static void test_one_rule_counts_once(void **state)
{
	struct run r = { 0 };

	(void)state;
	r.fb = fact_base_new();
	add_fact(r.fb, "limits", "scope=limits.conf * soft", "memlock_kb=64",
		 NULL);
	add_fact(r.fb, "limits", "scope=limits.conf * hard", "memlock_kb=64",
		 NULL);
	go(&r, one_rule);
	assert_int_equal(r.dl->n, 1);
	assert_int_equal(r.dl->items[0]->nfirings, 2);
	assert_true(fabs(r.dl->items[0]->cf - 0.7) < 1e-9);
	done(&r);

	/* A second rule does add its weight. */
	r = (struct run){ 0 };
	r.fb = fact_base_new();
	add_fact(r.fb, "limits", "scope=process", "memlock_kb=64", NULL);
	add_fact(r.fb, "verbs", "step=reg_mr", "ok=false", NULL);
	go(&r, one_rule);
	assert_true(fabs(r.dl->items[0]->cf - diagnosis_cf_combine(0.7, 0.5)) <
		    1e-9);
	done(&r);
}

static void test_evidence_through_derived_facts(void **state)
{
	struct run r = { 0 };
	const struct diagnosis *dg;
	uint32_t src;
	struct fact *f;
	bool added;

	(void)state;
	r.fb = fact_base_new();
	src = fact_base_source(r.fb, "sos_commands/infiniband/ibstat");
	f = fact_base_begin(r.fb, sym_intern_cstr("port"), src, 8,
			    "Port 1:", 7);
	fact_put(r.fb, f, sym_intern_cstr("hca"), value_cstr("mlx5_0"), 1,
		 "CA 'mlx5_0'", 11);
	fact_put(r.fb, f, sym_intern_cstr("port"), value_int(1), 8,
		 "Port 1:", 7);
	fact_put(r.fb, f, sym_intern_cstr("state"), value_cstr("DOWN"), 9,
		 "State: Down", 11);
	fact_base_commit(r.fb, f, &added);
	go(&r,
	   "language: 1\nrules:\n"
	   "  - id: mark\n    title: M\n    layer: hardware\n    severity: info\n"
	   "    confidence: 0.8\n    when: [port: {hca: $d, state: DOWN}]\n"
	   "    assert: [down: {hca: $d}]\n"
	   "  - id: say\n    title: S\n    layer: hardware\n    severity: error\n"
	   "    confidence: 0.5\n    when: [down: {hca: $d}]\n"
	   "    diagnose: {message: \"{d} is down\"}\n");
	assert_int_equal(r.dl->n, 1);
	dg = r.dl->items[0];
	/* Certainty carries through the chain: 0.5 x 0.8. */
	assert_true(fabs(dg->cf - 0.4) < 1e-9);
	assert_int_equal(dg->nevidence, 2);
	assert_int_equal(dg->evidence[0].line, 1);
	assert_int_equal(dg->evidence[1].line, 9);
	assert_string_equal(dg->evidence[1].text, "State: Down");
	done(&r);
}

/* One cause explains every diagnosis of an id (two ports here), and is
 * raised above both; two diagnoses that explain each other raise
 * neither. */
static void test_explains_many(void **state)
{
	static const char rules[] =
		"language: 1\nrules:\n"
		"  - id: port-slow\n    title: Slow\n    layer: hardware\n"
		"    severity: critical\n    confidence: 1\n"
		"    when: [port: {hca: $d, port: $p}]\n"
		"    diagnose: {message: \"{d}/{p} slow\"}\n"
		"  - id: fw\n    title: FW\n    layer: firmware\n"
		"    severity: info\n    confidence: 0.5\n"
		"    when: [hca: {name: $d}]\n"
		"    diagnose: {message: \"{d} fw\", explains: [port-slow]}\n"
		"  - id: ping\n    title: Ping\n    layer: verbs\n"
		"    severity: warning\n    confidence: 1\n"
		"    when: [limits: {scope: $s}]\n"
		"    diagnose: {message: \"{s} ping\", explains: [pong]}\n"
		"  - id: pong\n    title: Pong\n    layer: verbs\n"
		"    severity: error\n    confidence: 1\n"
		"    when: [limits: {scope: $s}]\n"
		"    diagnose: {message: \"{s} pong\", explains: [ping]}\n";
	static const char *const order[] = { "fw", "port-slow", "port-slow",
					     "pong", "ping" };
	struct run r = { 0 };
	const struct diagnosis *fw, *pong;

	(void)state;
	r.fb = fact_base_new();
	add_fact(r.fb, "hca", "name=mlx5_0", NULL);
	add_fact(r.fb, "port", "hca=mlx5_0", "port=1", NULL);
	add_fact(r.fb, "port", "hca=mlx5_0", "port=2", NULL);
	add_fact(r.fb, "limits", "scope=process", NULL);
	go(&r, rules);
	assert_int_equal(r.dl->n, 5);
	for (size_t i = 0; i < r.dl->n; i++) {
		assert_string_equal(r.dl->items[i]->id, order[i]);
		assert_int_equal(r.dl->items[i]->rank, (int)i + 1);
	}
	fw = r.dl->items[0];
	assert_int_equal(fw->nexplains, 2);
	assert_int_equal(fw->explains[0], 1);
	assert_int_equal(fw->explains[1], 2);
	for (size_t i = 1; i <= 2; i++) {
		assert_int_equal(r.dl->items[i]->nexplained_by, 1);
		assert_int_equal(r.dl->items[i]->explained_by[0], 0);
	}
	/* Mutual: scores stay as severity gives them, links are listed. */
	pong = r.dl->items[3];
	assert_true(fabs(pong->score - 0.8) < 1e-9);
	assert_true(fabs(r.dl->items[4]->score - 0.5) < 1e-9);
	assert_int_equal(pong->nexplains, 1);
	assert_int_equal(pong->explains[0], 4);
	assert_int_equal(pong->nexplained_by, 1);
	assert_int_equal(pong->explained_by[0], 4);
	done(&r);
}

/* A suspect stands below the symptom until a confirmed diagnosis of its
 * layer raised from the same evidence, or a cause of the symptom it was
 * raised from, answers it; a cause of its layer about something else
 * leaves it standing. */
static void test_suspects_give_way(void **state)
{
	static const char base[] =
		"language: 1\nrules:\n"
		"  - id: sym\n    title: Sym\n    layer: verbs\n"
		"    severity: error\n    confidence: 0.8\n"
		"    when: [tool_error: {tool: $t}]\n"
		"    diagnose: {message: \"{t} sees nothing\"}\n"
		"  - id: sus\n    title: Sus\n    layer: hardware\n"
		"    severity: warning\n    confidence: 0.4\n    tags: [suspect]\n"
		"    when: [tool_error: {tool: $t}]\n"
		"    diagnose: {message: \"check the adapter\"}\n"
		"  - id: hw\n    title: HW\n    layer: hardware\n"
		"    severity: error\n    confidence: 0.9\n"
		"    when: [tool_error: {tool: $t}, pcie: {pci: $p}]\n"
		"    diagnose: {message: \"{p} fault\"}\n"
		"  - id: other\n    title: Other\n    layer: hardware\n"
		"    severity: error\n    confidence: 0.9\n"
		"    when: [port: {hca: $h}]\n"
		"    diagnose: {message: \"{h} down\"}\n"
		"  - id: cause\n    title: Cause\n    layer: kernel_module\n"
		"    severity: error\n    confidence: 0.9\n"
		"    when: [kconfig: {name: $n}]\n"
		"    diagnose: {message: \"{n}\", explains: [sym]}\n";
	struct run r = { 0 };

	(void)state;
	r.fb = fact_base_new();
	add_fact(r.fb, "tool_error", "tool=ibv_devinfo", NULL);
	go(&r, base);
	assert_int_equal(r.dl->n, 2);
	assert_string_equal(r.dl->items[0]->id, "sym");
	assert_string_equal(r.dl->items[1]->id, "sus");
	done(&r);

	memset(&r, 0, sizeof(r));
	r.fb = fact_base_new();
	add_fact(r.fb, "tool_error", "tool=ibv_devinfo", NULL);
	add_fact(r.fb, "pcie", "pci=0000:3b:00.0", NULL);
	go(&r, base);
	assert_int_equal(r.dl->n, 2);
	for (size_t i = 0; i < r.dl->n; i++)
		assert_string_not_equal(r.dl->items[i]->id, "sus");
	done(&r);

	memset(&r, 0, sizeof(r));
	r.fb = fact_base_new();
	add_fact(r.fb, "tool_error", "tool=ibv_devinfo", NULL);
	add_fact(r.fb, "kconfig", "name=CONFIG_INFINIBAND", NULL);
	go(&r, base);
	assert_int_equal(r.dl->n, 2);
	assert_string_equal(r.dl->items[0]->id, "cause");
	assert_string_equal(r.dl->items[1]->id, "sym");
	done(&r);

	memset(&r, 0, sizeof(r));
	r.fb = fact_base_new();
	add_fact(r.fb, "tool_error", "tool=ibv_devinfo", NULL);
	add_fact(r.fb, "port", "hca=mlx5_1", NULL);
	go(&r, base);
	assert_int_equal(r.dl->n, 3);
	assert_string_equal(r.dl->items[2]->id, "sus");
	done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cf_combine),
		cmocka_unit_test(test_ranking),
		cmocka_unit_test(test_negative_evidence_first),
		cmocka_unit_test(test_one_rule_counts_once),
		cmocka_unit_test(test_evidence_through_derived_facts),
		cmocka_unit_test(test_explains_many),
		cmocka_unit_test(test_suspects_give_way),
	};

	return cmocka_run_group_tests_name("diagnosis", tests, NULL, NULL);
}
