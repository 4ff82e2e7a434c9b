/* rule loader: every class of mistake is rejected with file:line:col and
 * a plain message; a valid file loads into the rule model. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include "engine/rule.h"
#include "engine/rule_load.h"
#include "engine/strbuf.h"
#include "engine/vocab.h"
#include "helpers.h"

struct bad_case {
	const char *name;
	const char *yaml;
	int line, col;
	enum diag_level level;
	const char *message;
};

static const struct bad_case cases[] = {
	{ "yaml-syntax",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: [unclosed\n",
	  5, 1, DIAG_ERROR,
	  "invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence at 4:12)" },
	{ "no-language", "rules: []\n", 1, 1, DIAG_ERROR,
	  "rule file does not say which rule language it needs; add 'language: 1'" },
	{ "newer-language",
	  "language: 2\n"
	  "rules: []\n",
	  1, 11, DIAG_ERROR,
	  "file needs rule language 2, but this rdmadoctor understands 1; upgrade rdmadoctor" },
	{ "huge-language",
	  "language: 1e300\n"
	  "rules: []\n",
	  1, 11, DIAG_ERROR, "'language' must be a whole number such as 1" },
	{ "top-key",
	  "language: 1\n"
	  "rulez: []\n",
	  2, 1, DIAG_ERROR,
	  "unknown key 'rulez' in rule file; did you mean 'rules'?" },
	{ "rule-not-map",
	  "language: 1\n"
	  "rules:\n"
	  "  - just a string\n",
	  3, 5, DIAG_ERROR, "a rule must be a mapping, not a scalar" },
	{ "unknown-rule-key",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    titel: T\n",
	  4, 5, DIAG_ERROR,
	  "unknown key 'titel' in rule; did you mean 'title'?" },
	{ "duplicate-key",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    id: r2\n",
	  4, 5, DIAG_ERROR, "key 'id' given twice in rule" },
	{ "missing-title",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    layer: hardware\n",
	  3, 5, DIAG_ERROR, "rule has no 'title'" },
	{ "bad-id",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: \"r 1\"\n",
	  3, 9, DIAG_ERROR,
	  "rule id 'r 1' may hold only letters, digits, '-', '_' and '.' (at most 64)" },
	{ "unknown-layer",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardwear\n",
	  5, 12, DIAG_ERROR,
	  "unknown layer 'hardwear'; layers are hardware, firmware, driver, kernel_module and verbs; did you mean 'hardware'?" },
	{ "unknown-severity",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: fatal\n",
	  6, 15, DIAG_ERROR,
	  "unknown severity 'fatal'; severities are critical, error, warning and info" },
	{ "confidence-range",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 1.5\n",
	  7, 17, DIAG_ERROR,
	  "confidence must be a number in [-1, 1] other than 0" },
	{ "salience-range",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    salience: 20000\n",
	  8, 15, DIAG_ERROR,
	  "salience must be a whole number from -10000 to 10000" },
	{ "huge-salience",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    salience: -1e300\n",
	  8, 15, DIAG_ERROR,
	  "salience must be a whole number from -10000 to 10000" },
	{ "bad-choice",
	  "language: 1\n"
	  "questions:\n"
	  "  - id: q\n"
	  "    prompt: P\n"
	  "    choices: [a, \"b c\"]\n",
	  5, 18, DIAG_ERROR,
	  "choice 'b c' may hold only letters, digits, '-', '_' and '.'" },
	{ "when-empty",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when: []\n",
	  8, 11, DIAG_ERROR, "'when' must be a non-empty list of conditions" },
	{ "condition-shape",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - port: {state: DOWN}\n"
	  "        hca: {name: x}\n",
	  9, 9, DIAG_ERROR, "a condition is one 'kind: {field: test}' entry" },
	{ "unknown-field",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - port: {rate: 100}\n",
	  9, 16, DIAG_ERROR,
	  "kind 'port' has no field 'rate'; did you mean 'rate_gbps'?" },
	{ "unknown-operator",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - port: {rate_gbps: {lte: 100}}\n",
	  9, 28, DIAG_ERROR, "unknown operator 'lte'; did you mean 'ne'?" },
	{ "wrong-type",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - port: {rate_gbps: fast}\n",
	  9, 27, DIAG_ERROR,
	  "'fast' is not a number (field 'rate_gbps' holds numbers)" },
	{ "bad-regex",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - log: {text: {match: 'mlx5_core (\\S+'}}\n",
	  9, 44, DIAG_ERROR,
	  "regex does not compile: missing closing parenthesis at offset 14" },
	{ "compared-before-bound",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - port: {rate_gbps: {lt: $max}}\n"
	  "    diagnose:\n"
	  "      message: slow\n",
	  9, 28, DIAG_ERROR,
	  "variable $max is compared before any condition binds it" },
	{ "template-unbound",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - port: {hca: $d, state: DOWN}\n"
	  "    diagnose:\n"
	  "      message: \"{dev} is down\"\n",
	  11, 17, DIAG_ERROR,
	  "template uses '{dev}', but no condition binds $dev; did you mean '{d}'?" },
	/* A variable first named in an assertion (the fuzz target found it
	 * read past the table of bound variables). */
	{ "assert-unbound",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - port: {hca: $d}\n"
	  "    assert:\n"
	  "      - hca: {name: $zz}\n",
	  11, 21, DIAG_ERROR, "no condition binds $zz" },
	{ "template-brace",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - port: {hca: $d, state: DOWN}\n"
	  "    diagnose:\n"
	  "      message: \"{d is down\"\n",
	  11, 17, DIAG_ERROR,
	  "expected '{name}' (write '{{' for a literal brace)" },
	{ "no-action",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - port: {hca: $d, state: DOWN}\n",
	  3, 5, DIAG_ERROR,
	  "rule 'r1' neither diagnoses nor asserts anything" },
	{ "only-not",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - not: {port: {state: ACTIVE}}\n"
	  "    diagnose:\n"
	  "      message: x\n",
	  9, 7, DIAG_ERROR,
	  "a rule needs at least one condition that is not 'not'" },
	{ "list-field-eq",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: kernel_module\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - module: {used_by: mlx5_ib}\n"
	  "    diagnose:\n"
	  "      message: x\n",
	  9, 27, DIAG_ERROR,
	  "field 'used_by' is a list; use {contains: value}" },
	{ "duplicate-id",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - port: {state: DOWN}\n"
	  "    diagnose:\n"
	  "      message: x\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - port: {state: DOWN}\n"
	  "    diagnose:\n"
	  "      message: x\n",
	  12, 5, DIAG_ERROR,
	  "duplicate rule id 'r1' (first defined at t.yaml:3)" },
	{ "explains-unknown",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - port: {state: DOWN}\n"
	  "    diagnose:\n"
	  "      message: x\n"
	  "      explains: [no-such-thing]\n",
	  12, 18, DIAG_ERROR,
	  "rule 'r1' explains unknown diagnosis 'no-such-thing'" },
	{ "ask-unknown",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    ask: [symptom]\n"
	  "    when:\n"
	  "      - port: {state: DOWN}\n"
	  "    diagnose:\n"
	  "      message: x\n",
	  8, 11, DIAG_ERROR, "rule 'r1' asks unknown question 'symptom'" },
	{ "never-produced",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - prot: {state: DOWN}\n"
	  "    diagnose:\n"
	  "      message: x\n",
	  9, 9, DIAG_ERROR,
	  "rule 'r1' can never fire: no collector, kb entry or rule produces 'prot' facts; did you mean 'port'?" },
	{ "derived-field",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: info\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - port: {hca: $d, state: DOWN}\n"
	  "    assert:\n"
	  "      - port_down: {hca: $d}\n"
	  "  - id: r2\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - port_down: {device: $d}\n"
	  "    diagnose:\n"
	  "      message: \"{d}\"\n",
	  18, 29, DIAG_ERROR,
	  "no rule asserts 'port_down' facts with a 'device' field" },
	{ "assert-kb-kind",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - port: {state: DOWN}\n"
	  "    assert:\n"
	  "      - adapter: {family: X}\n",
	  11, 9, DIAG_ERROR,
	  "rules may not assert 'adapter' facts; they come from kb" },
	{ "negative-assert",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: -0.5\n"
	  "    when:\n"
	  "      - port: {hca: $d, state: DOWN}\n"
	  "    assert:\n"
	  "      - seen: {hca: $d}\n",
	  3, 5, DIAG_ERROR,
	  "rule 'r1' has negative confidence: it may only lower a diagnosis, not assert facts" },
	{ "alias",
	  "language: 1\n"
	  "rules:\n"
	  "  - &r\n"
	  "    id: r1\n",
	  3, 5, DIAG_ERROR, "YAML anchors ('&name') are not supported" },
	{ "question-default",
	  "language: 1\n"
	  "questions:\n"
	  "  - id: symptom\n"
	  "    prompt: What?\n"
	  "    choices: [slow, broken]\n"
	  "    default: fine\n",
	  6, 14, DIAG_ERROR, "default 'fine' is not one of the choices" },
	{ "question-first",
	  "language: 1\n"
	  "questions:\n"
	  "  - id: symptom\n"
	  "    prompt: What?\n"
	  "    choices: [slow, broken]\n"
	  "    first: maybe\n",
	  6, 12, DIAG_ERROR, "'first' takes true or false" },
	{ "unused-variable",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - port: {hca: $d, state: DOWN, port: $p}\n"
	  "    diagnose:\n"
	  "      message: \"{d} is down\"\n",
	  9, 44, DIAG_WARNING,
	  "variable $p is bound but never used (name it $_p to keep it)" },
	{ "kinds-vocabulary",
	  "language: 1\n"
	  "kinds:\n"
	  "  port: [host]\n"
	  "rules: []\n",
	  3, 3, DIAG_ERROR,
	  "kind 'port' is in the vocabulary; declare only kinds outside it" },
	{ "kinds-not-list",
	  "language: 1\n"
	  "kinds:\n"
	  "  kmod: host\n"
	  "rules: []\n",
	  3, 9, DIAG_ERROR, "the fields of kind 'kmod' must be a list" },
	{ "kinds-not-map",
	  "language: 1\n"
	  "kinds: [kmod]\n"
	  "rules: []\n",
	  2, 8, DIAG_ERROR,
	  "'kinds' maps each kind to the list of its fields" },
	{ "kinds-field",
	  "language: 1\n"
	  "kinds:\n"
	  "  kmod: [host, name]\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: driver\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - kmod: {host: $h, ver: 1}\n"
	  "    diagnose:\n"
	  "      message: \"{h}\"\n",
	  11, 31, DIAG_ERROR, "kind 'kmod' is declared without a 'ver' field" },
	{ "exists-value",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - port: {lid: {exists: maybe}}\n"
	  "    diagnose:\n"
	  "      message: x\n",
	  9, 30, DIAG_ERROR, "'exists' takes true or false" },
	{ "arith-eq",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - port: {rate_gbps: $r}\n"
	  "      - perftest: {bw_avg_gbps: {ne: $r * 0.9}}\n"
	  "    diagnose:\n"
	  "      message: x\n",
	  10, 38, DIAG_ERROR,
	  "unexpected '* 0.9' after the variable (arithmetic works only with lt, le, gt and ge)" },
	{ "value-outside-set",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - port: {hca: $d, state: down}\n"
	  "    diagnose:\n"
	  "      message: x\n",
	  9, 32, DIAG_ERROR,
	  "'down' is not a value of field 'state', which holds DOWN, INIT, ARMED or ACTIVE; did you mean 'DOWN'?" },
	{ "value-outside-set-in-list",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - port: {hca: $d, phys_state: [POLLING, LinkUp]}\n"
	  "    diagnose:\n"
	  "      message: x\n",
	  9, 47, DIAG_ERROR,
	  "'LinkUp' is not a value of field 'phys_state', which holds SLEEP, POLLING, DISABLED, TRAINING, LINKUP, ERROR_RECOVERY or PHY_TEST; did you mean 'LINKUP'?" },
	{ "layer-value-outside-set",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - log_event: {signature: $s, layer: hw}\n"
	  "    diagnose:\n"
	  "      message: x\n",
	  9, 43, DIAG_ERROR,
	  "'hw' is not a value of field 'layer', which holds hardware, firmware, driver, kernel_module or verbs" },
	{ "variable-typo",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "    layer: hardware\n"
	  "    severity: error\n"
	  "    confidence: 0.9\n"
	  "    when:\n"
	  "      - port: {hca: $dev, rate_gbps: $rate}\n"
	  "      - perftest: {hca: $dev, bw_avg_gbps: {lt: $rat}}\n"
	  "    diagnose:\n"
	  "      message: x\n",
	  10, 45, DIAG_ERROR,
	  "variable $rat is compared before any condition binds it; did you mean $rate?" },
	{ "indentation",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    title: T\n"
	  "     layer: hardware\n",
	  5, 11, DIAG_ERROR,
	  "invalid YAML: mapping values are not allowed in this context; line 5 starts at column 6, but line 4 above it starts its keys at column 5: the keys of one mapping line up" },
	{ "indentation-list-item",
	  "language: 1\n"
	  "rules:\n"
	  "  - id: r1\n"
	  "    when:\n"
	  "      - port: {hca: $d}\n"
	  "        - hca: {name: $d}\n",
	  6, 9, DIAG_ERROR,
	  "invalid YAML: did not find expected key (while parsing a block mapping at 5:9); line 6's '-' lines up with the keys of the list item at line 5: the items of one list line up their '-' (column 7)" },
};

static void test_each_mistake(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		const struct bad_case *c = &cases[i];
		struct rule_set *rs = rule_set_new();
		struct diag *d = diag_new();
		const struct diag_entry *e;
		int rc = load_rules(rs, c->yaml, d);

		e = diag_get(d, 0);
		if (!e)
			fail_msg("%s: no message", c->name);
		if (c->level == DIAG_ERROR && rc == 0)
			fail_msg("%s: loaded although it is wrong", c->name);
		if (e->level != c->level || e->line != c->line ||
		    e->col != c->col || strcmp(e->message, c->message))
			fail_msg("%s: got %d:%d '%s', want %d:%d '%s'", c->name,
				 e->line, e->col, e->message, c->line, c->col,
				 c->message);
		assert_string_equal(e->file, "t.yaml");
		diag_free(d);
		rule_set_free(rs);
	}
}

/* The closed value sets are the vocabulary's: each word is one its doc
 * names (the layer sets are the rule model's layers), and a constant in
 * the set loads. */
static void test_value_sets(void **state)
{
	size_t sets = 0;

	(void)state;
	for (size_t i = 0; i < vocab_kind_count(); i++) {
		const struct vocab_kind *k = vocab_kind_at(i);

		for (size_t j = 0; j < k->nfields; j++) {
			const struct vocab_field *f = &k->fields[j];
			const char *words[16];
			size_t lens[16], n;
			bool layers;

			if (!f->values)
				continue;
			sets++;
			n = vocab_value_words(f, words, lens, 16);
			assert_true(n >= 2);
			layers = layer_from_str("hardware") >= 0 &&
				 !strncmp(f->values, "hardware ", 9);
			for (size_t w = 0; w < n; w++) {
				char word[64];

				snprintf(word, sizeof(word), "%.*s",
					 (int)lens[w], words[w]);
				if (layers)
					assert_true(layer_from_str(word) >= 0);
				else if (!strstr(f->doc, word))
					fail_msg("%s.%s: value '%s' is not in its doc",
						 k->name, f->name, word);
				assert_true(vocab_value_known(f, words[w],
							      lens[w]));
			}
			assert_false(vocab_value_known(f, "no-such-value", 13));
		}
	}
	assert_true(sets >= 10);
}

static void test_deep_nesting(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct rule_set *rs = rule_set_new();
	struct diag *d = diag_new();

	(void)state;
	sb_puts(&sb, "language: 1\nrules: ");
	for (int i = 0; i < 200; i++)
		sb_putc(&sb, '[');
	assert_int_equal(rule_set_load_string(rs, "t.yaml", sb.buf, sb.len, 0,
					      d),
			 -EINVAL);
	assert_string_equal(diag_get(d, 0)->message,
			    "nesting deeper than 64 levels");
	sb_release(&sb);
	diag_free(d);
	rule_set_free(rs);
}

static const char good[] =
	"language: 1\n"
	"questions:\n"
	"  - id: symptom\n"
	"    prompt: What do you see?\n"
	"    choices:\n"
	"      - slow: Bandwidth lower than expected\n"
	"      - broken: Nothing works\n"
	"    default: slow\n"
	"    first: true\n"
	"  - id: later\n"
	"    prompt: And then?\n"
	"    choices: [a, b]\n"
	"rules:\n"
	"  - id: r1\n"
	"    title: Port down\n"
	"    layer: hardware\n"
	"    severity: error\n"
	"    confidence: 0.9\n"
	"    salience: 5\n"
	"    ask: [symptom]\n"
	"    sources: [somewhere]\n"
	"    when:\n"
	"      - port: {hca: $d, port: $p, state: {in: [DOWN, INIT]}}\n"
	"      - not: {port: {hca: $d, state: ACTIVE}}\n"
	"      - answer: {question: symptom, value: broken}\n"
	"    diagnose:\n"
	"      message: \"{d} port {p} is down\"\n"
	"      remediation: [\"plug {d} in\"]\n";

static void test_model(void **state)
{
	struct rule_set *rs = rule_set_new();
	struct diag *d = diag_new();
	const struct rule *r;
	const struct question *q;

	(void)state;
	assert_int_equal(load_rules(rs, good, d), 0);
	assert_int_equal(diag_count(d), 0);
	r = rule_set_find(rs, "r1");
	assert_non_null(r);
	assert_int_equal(r->layer, LAYER_HARDWARE);
	assert_int_equal(r->severity, SEVERITY_ERROR);
	assert_int_equal(r->salience, 5);
	assert_int_equal(r->npatterns, 3);
	assert_int_equal(r->npositive, 2);
	assert_int_equal(r->patterns[1].type, PATTERN_NOT);
	assert_int_equal(r->patterns[0].tests[2].op, OP_IN);
	assert_int_equal(r->nvars, 2);
	assert_string_equal(r->diag_id, "r1");
	assert_int_equal(r->line, 14);
	q = rule_set_question(rs, "symptom");
	assert_non_null(q);
	assert_int_equal(q->nchoices, 2);
	assert_string_equal(q->choices[0].label,
			    "Bandwidth lower than expected");
	assert_string_equal(q->def, "slow");
	assert_true(q->first);
	assert_false(rule_set_question(rs, "later")->first);
	diag_free(d);
	rule_set_free(rs);
}

static void test_overlay(void **state)
{
	static const char base[] =
		"language: 1\nrules:\n"
		"  - {id: a, title: A, layer: verbs, severity: info, confidence: 1,"
		" when: [port: {state: DOWN}], diagnose: {message: a}}\n"
		"  - {id: b, title: B, layer: verbs, severity: info, confidence: 1,"
		" when: [port: {state: DOWN}], diagnose: {message: b}}\n";
	static const char site[] =
		"language: 1\nrules:\n"
		"  - {id: a, title: A2, layer: verbs, severity: error, confidence: 1,"
		" when: [port: {state: DOWN}], diagnose: {message: a2}}\n"
		"  - {id: b, disabled: true}\n";
	struct rule_set *rs = rule_set_new();
	struct diag *d = diag_new();
	const char *where;

	(void)state;
	assert_int_equal(rule_set_load_string(rs, "base.yaml", base,
					      sizeof(base) - 1, 0, d),
			 0);
	assert_int_equal(rule_set_load_string(rs, "site.yaml", site,
					      sizeof(site) - 1, 1, d),
			 0);
	assert_int_equal(rule_set_count(rs), 1);
	assert_string_equal(rule_set_find(rs, "a")->title, "A2");
	assert_null(rule_set_find(rs, "b"));
	assert_string_equal(rule_set_disabled_at(rs, 0, &where), "b");
	assert_string_equal(where, "site.yaml:4");
	/* The same id twice at one level is a mistake. */
	assert_int_equal(rule_set_load_string(rs, "site2.yaml", site,
					      sizeof(site) - 1, 1, d),
			 -EINVAL);
	diag_free(d);
	rule_set_free(rs);
}

/* Many rules: each found by its id, a duplicate caught, and the ids
 * still found after a rule in the middle is disabled (the index is
 * rebuilt). */
static void test_many_rules(void **state)
{
	struct rule_set *rs = rule_set_new();
	struct diag *d = diag_new();
	struct strbuf y = STRBUF_INIT;
	enum { N = 3000 };

	(void)state;
	sb_puts(&y, "language: 1\nrules:\n");
	for (int i = 0; i < N; i++)
		sb_printf(
			&y,
			"  - {id: r%d, title: T%d, layer: verbs, severity: info,"
			" confidence: 1, when: [port: {state: DOWN}],"
			" diagnose: {message: m}}\n",
			i, i);
	assert_int_equal(rule_set_load_string(rs, "many.yaml", sb_str(&y),
					      y.len, 0, d),
			 0);
	assert_int_equal(rule_set_count(rs), N);
	assert_string_equal(rule_set_find(rs, "r2999")->title, "T2999");
	assert_int_equal(rule_set_index(rs, "r1234"), 1234);
	assert_null(rule_set_find(rs, "r3000"));
	rule_set_disable(rs, "r10", 1, "site.yaml:1");
	assert_null(rule_set_find(rs, "r10"));
	assert_int_equal(rule_set_index(rs, "r11"), 10);
	assert_string_equal(rule_set_find(rs, "r2999")->title, "T2999");
	assert_string_equal(rule_set_at(rs, 10)->id, "r11");
	sb_release(&y);
	sb_puts(&y, "language: 1\nrules:\n"
		    "  - {id: r5, title: D, layer: verbs, severity: info,"
		    " confidence: 1, when: [port: {state: DOWN}],"
		    " diagnose: {message: m}}\n");
	assert_int_equal(rule_set_load_string(rs, "dup.yaml", sb_str(&y), y.len,
					      0, d),
			 -EINVAL);
	sb_release(&y);
	diag_free(d);
	rule_set_free(rs);
}

/* A kind that fact files supply, once declared, may be tested by rules
 * although no rule asserts it; the declaration holds across files. */
static void test_declared_kinds(void **state)
{
	static const char decl[] = "language: 1\n"
				   "kinds:\n"
				   "  kmod: [host, name]\n"
				   "  link: [host, state]\n";
	static const char rules[] = "language: 1\n"
				    "rules:\n"
				    "  - id: r1\n"
				    "    title: T\n"
				    "    layer: driver\n"
				    "    severity: error\n"
				    "    confidence: 0.9\n"
				    "    when:\n"
				    "      - kmod: {host: $h, name: m0}\n"
				    "      - link: {host: $h, state: down}\n"
				    "    diagnose:\n"
				    "      message: \"{h}\"\n";
	struct rule_set *rs = rule_set_new();
	struct diag *d = diag_new();

	(void)state;
	assert_int_equal(rule_set_load_string(rs, "a.yaml", decl, strlen(decl),
					      0, d),
			 0);
	assert_int_equal(rule_set_load_string(rs, "b.yaml", rules,
					      strlen(rules), 0, d),
			 0);
	assert_int_equal(rule_set_check(rs, d), 0);
	assert_int_equal(diag_count(d), 0);
	diag_free(d);
	rule_set_free(rs);

	/* Without the declaration, the same rule can never fire. */
	rs = rule_set_new();
	d = diag_new();
	assert_int_equal(load_rules(rs, rules, d), -EINVAL);
	assert_non_null(strstr(diag_get(d, 0)->message, "can never fire"));
	diag_free(d);
	rule_set_free(rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_mistake),
		cmocka_unit_test(test_value_sets),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_model),
		cmocka_unit_test(test_overlay),
		cmocka_unit_test(test_declared_kinds),
		cmocka_unit_test(test_many_rules),
	};

	return cmocka_run_group_tests_name("rule_load", tests, NULL, NULL);
}
