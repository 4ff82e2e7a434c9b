/* Every kernel-log signature of kb/signatures.yaml reaches a diagnosis:
 * its example line, parsed alone as a kernel log, yields a log_event of
 * that signature, and the shipped rules turn it into a diagnosis of the
 * signature's layer and severity, or into nothing for a benign one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include "collectors/parsers/logscan.h"
#include "engine/diagnosis.h"
#include "engine/engine.h"
#include "engine/kb.h"
#include "engine/rule_load.h"
#include "engine/xalloc.h"
#include "parsed.h"

static const char *const severities[] = { "critical", "error", "warning",
					  "info", "benign" };

static struct fact_base *kb_base(void)
{
	struct fact_base *fb = fact_base_new();
	struct diag *d = diag_new();

	if (kb_load_dir(fb, "kb", "kb", d) < 0) {
		diag_print(d, stderr, "test");
		fail_msg("kb/ does not load");
	}
	diag_free(d);
	return fb;
}

static struct rule_set *shipped_rules(void)
{
	struct rule_set *rs = rule_set_new();
	struct diag *d = diag_new();

	if (rule_set_load_dir(rs, "rules", "rules", 0, false, d) ||
	    rule_set_check(rs, d)) {
		diag_print(d, stderr, "test");
		fail_msg("rules/ does not load");
	}
	diag_free(d);
	return rs;
}

static bool has_event(const struct parsed *p, const char *sig)
{
	for (size_t i = 0; i < count(p, "log_event"); i++)
		if (!strcmp(text(nth(p, "log_event", i), "signature"), sig))
			return true;
	return false;
}

/* Checks one signature; problems go to out, one line each. */
static void check_signature(const struct rule_set *rs, const struct fact *sig,
			    struct strbuf *out)
{
	const char *id = text(sig, "id");
	const char *example = fact_text(sig, "example");
	const char *severity = fact_text(sig, "severity");
	const char *layer = text(sig, "layer");
	struct parsed p = { kb_base(), 0 };
	struct diag *d = diag_new();
	struct diagnosis_list *dl;
	struct engine *e;
	struct emit em;
	struct logscan *scan = logscan_new(p.fb, d);
	bool known = false, found = false;

	for (size_t i = 0; severity && i < ARRAY_SIZE(severities); i++)
		known |= !strcmp(severity, severities[i]);
	if (!known || !example || layer_from_str(layer) < 0) {
		sb_printf(out, "%s: needs an example, a layer and a severity\n",
			  id);
		goto free_fb;
	}
	emit_init(&em, p.fb, id);
	em.scan = scan;
	p.facts = format_find("dmesg")->parse(&em, example, strlen(example),
					      NULL);
	if (!has_event(&p, id)) {
		sb_printf(out, "%s: its example gives no log_event: %s\n", id,
			  example);
		goto free_fb;
	}
	e = engine_new(rs, p.fb, d);
	if (engine_run(e))
		sb_printf(out, "%s: the engine failed\n", id);
	dl = diagnosis_collect(e, p.fb);
	for (size_t i = 0; i < dl->n; i++) {
		const struct diagnosis *dg = dl->items[i];

		found |= !strcmp(layer_to_str(dg->layer), layer) &&
			 !strcmp(severity_to_str(dg->severity), severity);
	}
	if (!strcmp(severity, "benign") && dl->n)
		sb_printf(out, "%s: benign, but diagnosed as %s (%s)\n", id,
			  dl->items[0]->id, dl->items[0]->message);
	else if (strcmp(severity, "benign") && !found)
		sb_printf(out, "%s: no %s diagnosis in the %s layer%s%s\n", id,
			  severity, layer, dl->n ? "; first: " : "",
			  dl->n ? dl->items[0]->id : "");
	diagnosis_list_free(dl);
	engine_free(e);
free_fb:
	diag_free(d);
	logscan_free(scan);
	fact_base_free(p.fb);
}

static void test_every_signature_is_diagnosed(void **state)
{
	struct fact_base *kb = kb_base();
	struct rule_set *rs = shipped_rules();
	struct strbuf out = STRBUF_INIT;
	size_t n;
	const uint32_t *ids =
		fact_base_of_kind(kb, sym_intern_cstr("signature"), &n);

	(void)state;
	/* 105 from the research table, and those added since. */
	assert_true(n >= 105);
	for (size_t i = 0; i < n; i++)
		check_signature(rs, fact_base_get(kb, ids[i]), &out);
	if (out.len) {
		fprintf(stderr, "%s", sb_str(&out));
		fail_msg(
			"%zu signatures checked, some not as their severity says",
			n);
	}
	sb_release(&out);
	rule_set_free(rs);
	fact_base_free(kb);
}

/* The check itself fails: a benign signature that a rule diagnoses, and
 * one whose example its pattern does not match. */
static void test_the_check_can_fail(void **state)
{
	static const char rules[] =
		"language: 1\nrules:\n"
		"  - id: t\n    title: T\n    layer: firmware\n"
		"    severity: warning\n    confidence: 0.5\n"
		"    when: [log_event: {signature: MLX5-FW-VERSION}]\n"
		"    diagnose: {message: \"m\"}\n";
	struct fact_base *kb = kb_base();
	struct rule_set *rs = rule_set_new();
	struct diag *d = diag_new();
	struct strbuf out = STRBUF_INIT;
	struct value id = value_str("MLX5-FW-VERSION", 15);
	const uint32_t *ids;
	size_t n;

	(void)state;
	assert_int_equal(rule_set_load_string(rs, "t.yaml", rules,
					      strlen(rules), 0, d),
			 0);
	ids = fact_base_lookup(kb, sym_intern_cstr("signature"),
			       sym_intern_cstr("id"), &id, &n);
	assert_int_equal(n, 1);
	check_signature(rs, fact_base_get(kb, ids[0]), &out);
	assert_non_null(strstr(sb_str(&out), "benign, but diagnosed as t"));
	sb_release(&out);
	rule_set_free(rs);
	diag_free(d);
	fact_base_free(kb);
}

/* The signature a line gets: the decoded firmware command statuses of
 * mlx4 (0x3 is not 0x30, and MLNX_OFED 2.x's longer form decodes too),
 * and the specific bnxt_re, rdma_rxe and nvme-rdma signatures standing
 * before the drivers' string fallbacks.  Lines are the format strings of
 * the kb entries' sources, filled in. */
static void test_line_gets_its_signature(void **state)
{
	static const struct {
		const char *line, *sig;
	} cases[] = {
		{ "[ 10.1] mlx4_core 0000:08:00.0: command 0x24 failed: fw status = 0x30",
		  "MLX4-CMD-STATUS-BAD-PKT" },
		{ "[ 10.2] mlx4_core 0000:08:00.0: command 0x24 failed: fw status = 0x3",
		  "MLX4-CMD-STATUS-BAD-PARAM" },
		{ "[ 10.3] mlx4_core 0000:03:00.0: command SET_PORT (0xc) failed: in_param=0x6098b5000, in_mod=0x1, op_mod=0x0, fw status = 0x40",
		  "MLX4-CMD-STATUS-BAD-SIZE" },
		{ "[ 10.4] mlx4_core 0000:03:00.0: command 0x1f failed: fw status = 0xb",
		  "MLX4-CMD-STATUS-BAD-NVMEM" },
		{ "[ 10.5] mlx4_core 0000:03:00.0: command 0x1f failed: fw status = 0x50",
		  "MLX4-CMD-STATUS-MULTI-FUNC-REQ" },
		{ "[  9.0] bnxt_en 0000:18:00.0: bnxt_re: probe error: RoCE is not",
		  "BNXT-RE-ROCE-NOT-SUPPORTED" },
		{ "[  5.0] rdma_rxe: failed to init crc32 algorithm err:-2",
		  "RXE-CRC32-UNAVAILABLE" },
		{ "[  6.0] rdma_rxe: bad ICRC from fe80::1",
		  "RXE-BAD-ICRC" },
		{ "[  7.0] nvme nvme1: failed to initialize PI MR pool sized 256 for QID 3",
		  "NVME-RDMA-MR-POOL" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct parsed p = { kb_base(), 0 };
		struct diag *d = diag_new();
		struct logscan *scan = logscan_new(p.fb, d);
		struct emit em;
		size_t n;

		emit_init(&em, p.fb, "t");
		em.scan = scan;
		p.facts = format_find("dmesg")->parse(
			&em, cases[i].line, strlen(cases[i].line), NULL);
		n = count(&p, "log_event");
		if (n != 1 ||
		    strcmp(text(nth(&p, "log_event", 0), "signature"),
			   cases[i].sig))
			fail_msg("%s: %zu events, first %s, want %s",
				 cases[i].line, n,
				 n ? text(nth(&p, "log_event", 0), "signature")
				   : "none",
				 cases[i].sig);
		logscan_free(scan);
		diag_free(d);
		fact_base_free(p.fb);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_signature_is_diagnosed),
		cmocka_unit_test(test_the_check_can_fail),
		cmocka_unit_test(test_line_gets_its_signature),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
