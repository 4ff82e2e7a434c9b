/* parsers: each on real outputs people posted (tests/fixtures/samples),
 * checked against the values a person reads off them. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include "parsed.h"

static void test_ibstat(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* Indentation lost in a web page; still a CA with one port. */
	p = parse("ibstat",
		  SAMPLES
		  "ibstat/advancedclustering-kb-cx3-qdr-healthy-noindent.txt",
		  NULL);
	f = find(&p, "hca", "name", "mlx4_0");
	assert_string_equal(fact_text(f, "model"), "MT4099");
	assert_string_equal(fact_text(f, "fw_ver"), "2.10.0");
	f = port(&p, "mlx4_0", 1);
	assert_string_equal(fact_text(f, "state"), "ACTIVE");
	assert_string_equal(fact_text(f, "phys_state"), "LINKUP");
	assert_true(num(f, "rate_gbps") == 40);
	assert_true(num(f, "lid") == 1);
	assert_string_equal(fact_text(f, "link_layer"), "InfiniBand");
	fact_base_free(p.fb);

	/* A ConnectX-3 VPI in Ethernet mode, pasted with its prompt: both
	 * ports Active at 40, LID 0 as on any RoCE port. */
	p = parse_file("ibstat",
		       SAMPLES
		       "ibstat/cx3-vpi-eth-mode-two-ports-40g-active.txt",
		       NULL);
	f = find(&p, "hca", "name", "mlx4_0");
	assert_string_equal(fact_text(f, "fw_ver"), "2.40.7000");
	assert_int_equal(count(&p, "port"), 2);
	for (int i = 1; i <= 2; i++) {
		f = port(&p, "mlx4_0", i);
		assert_string_equal(fact_text(f, "state"), "ACTIVE");
		assert_string_equal(fact_text(f, "link_layer"), "Ethernet");
		assert_true(num(f, "rate_gbps") == 40);
		assert_true(num(f, "lid") == 0);
	}
	fact_base_free(p.fb);

	/* Eleven CAs without blank lines between them; two ports down. */
	p = parse(
		"ibstat",
		SAMPLES
		"ibstat/gpud-testdata-h100-cx7-roce-400g-one-polling-one-disabled.txt",
		NULL);
	assert_int_equal(count(&p, "hca"), 12);
	assert_int_equal(count(&p, "port"), 12);
	assert_string_equal(fact_text(find(&p, "hca", "name", "mlx5_1"),
				      "model"),
			    "MT4125");
	f = port(&p, "mlx5_11", 1);
	assert_string_equal(fact_text(f, "state"), "DOWN");
	assert_string_equal(fact_text(f, "phys_state"), "POLLING");
	assert_string_equal(fact_text(port(&p, "mlx5_5", 1), "phys_state"),
			    "DISABLED");
	assert_true(num(port(&p, "mlx5_0", 1), "rate_gbps") == 400);
	assert_string_equal(fact_text(port(&p, "mlx5_0", 1), "link_layer"),
			    "Ethernet");
	fact_base_free(p.fb);

	/* Two ports, two link layers. */
	p = parse(
		"ibstat",
		SAMPLES
		"ibstat/linux-rdma-ml-2020-02-cx3-port1-polling-port2-eth-disabled.txt",
		NULL);
	assert_string_equal(fact_text(port(&p, "mlx4_0", 1), "link_layer"),
			    "InfiniBand");
	assert_string_equal(fact_text(port(&p, "mlx4_0", 2), "link_layer"),
			    "Ethernet");
	assert_string_equal(fact_text(find(&p, "hca", "name", "mlx4_0"),
				      "fw_ver"),
			    "2.42.5000");
	fact_base_free(p.fb);

	/* Elided values are left out, and the panic that cut it short is kept. */
	p = parse("ibstat",
		  SAMPLES
		  "ibstat/gpud-pr752-partial-output-ibpanic-missing-dev.txt",
		  NULL);
	f = find(&p, "hca", "name", "mlx5_7");
	assert_null(fact_text(f, "model"));
	assert_null(fact_text(f, "fw_ver"));
	assert_true(num(port(&p, "mlx5_7", 1), "lid") == 13305);
	assert_non_null(strstr(fact_text(nth(&p, "tool_error", 0), "message"),
			       "stat of IB device 'mlx5_8' failed"));
	fact_base_free(p.fb);

	/* No device at all: only the umad errors. */
	p = parse("ibstat",
		  SAMPLES
		  "ibstat/ompi-users-2010-ib_umad-not-loaded-ibpanic.txt",
		  NULL);
	assert_int_equal(count(&p, "hca"), 0);
	assert_int_equal(count(&p, "tool_error"), 2);
	assert_non_null(strstr(fact_text(nth(&p, "tool_error", 0), "message"),
			       "is ib_umad module loaded?"));
	fact_base_free(p.fb);
}

static void test_lsmod(void **state)
{
	struct parsed p;
	const struct fact *f;
	const struct value *users;

	(void)state;
	p = parse("lsmod",
		  SAMPLES "lsmod/moc-notes-inbox-mlx5-rhel-hyperv-intf.txt",
		  NULL);
	f = find(&p, "module", "name", "ib_core");
	assert_true(num(f, "refcount") == 2);
	users = fact_get(f, sym_intern_cstr("used_by"));
	assert_int_equal(users->type, VALUE_LIST);
	assert_int_equal(users->list->n, 2);
	assert_string_equal(value_text(&users->list->items[0]), "ib_uverbs");
	assert_string_equal(value_text(&users->list->items[1]), "mlx5_ib");
	assert_true(num(find(&p, "module", "name", "mlx5_core"), "size") ==
		    2469888);
	/* The prompt line before the grep'ed rows is not a module. */
	assert_int_equal(count(&p, "module"), 8);
	fact_base_free(p.fb);
}

static void test_ethtool(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	p = parse("ethtool_i",
		  SAMPLES "ethtool_i/ethq-8-cx4lx-inbox-mlx5_core.txt", "p3p1");
	f = find(&p, "driver", "name", "mlx5_core");
	assert_string_equal(fact_text(f, "version"), "3.0-1 (January 2015)");
	assert_string_equal(fact_text(f, "origin"), "inbox");
	f = find(&p, "netdev", "name", "p3p1");
	assert_string_equal(fact_text(f, "fw_ver"), "14.23.1020");
	assert_string_equal(fact_text(f, "pci"), "0000:af:00.0");
	fact_base_free(p.fb);

	p = parse("ethtool_i",
		  SAMPLES "ethtool_i/cx3-vpi-eth-mode-mlx4_en-mofed-4.2.txt",
		  NULL);
	f = find(&p, "driver", "name", "mlx4_en");
	assert_string_equal(fact_text(f, "version"), "4.2-1.2.0");
	assert_string_equal(fact_text(f, "origin"), "mlnx_ofed");
	/* no interface named: the unnamed interface still carries the
	 * adapter's firmware and PCI address */
	f = find(&p, "netdev", "driver", "mlx4_en");
	assert_null(fact_text(f, "name"));
	assert_non_null(fact_text(f, "fw_ver"));
	assert_non_null(fact_text(f, "pci"));
	fact_base_free(p.fb);

	/* the in-tree driver's fixed "5.0-0" (4.0-0 for mlx4) is inbox */
	p = parse("ethtool_i",
		  SAMPLES "ethtool_i/netdev-2019-net-next-5.5-rc1-mlx5_core-"
			  "5.0-0-inbox.txt",
		  "eth0");
	f = find(&p, "driver", "name", "mlx5_core");
	assert_string_equal(fact_text(f, "version"), "5.0-0");
	assert_string_equal(fact_text(f, "origin"), "inbox");
	fact_base_free(p.fb);
	assert_string_equal(driver_origin_of("4.0-0", 5), "inbox");
	assert_string_equal(driver_origin_of("4.0-10", 6), "unknown");
	assert_string_equal(driver_origin_of("5.8-1.0.1", 9), "mlnx_ofed");
}

static void test_modinfo(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* A grep'ed paste: the module is named by the caller. */
	p = parse(
		"modinfo",
		SAMPLES
		"modinfo/starlingx-arm64-cx6lx-modinfo-mlx5_core-version-5.8.txt",
		"mlx5_core");
	f = find(&p, "driver", "name", "mlx5_core");
	assert_string_equal(fact_text(f, "version"), "5.8-1.0.1");
	assert_string_equal(fact_text(f, "srcversion"),
			    "C3E7649BC96C0107F0AD6A6");
	assert_string_equal(fact_text(f, "origin"), "mlnx_ofed");
	fact_base_free(p.fb);
	/* Re-flowed by a mail client: several pairs to a line, a path
	 * below its key, quoted; read as a paste and as modinfo. */
	for (int i = 0; i < 2; i++) {
		static const char file[] =
			SAMPLES "modinfo/"
				"unix-se-238167-i915-reflowed-fmt72-quoted.txt";

		p = i ? parse("transcript", file, NULL) :
			parse("modinfo", file, NULL);
		f = find(&p, "driver", "name", "i915");
		assert_string_equal(
			fact_text(f, "filename"),
			"/lib/modules/4.2.0-1-amd64/kernel/drivers/gpu/drm/"
			"i915/i915.ko");
		assert_string_equal(fact_text(f, "origin"), "inbox");
		assert_null(fact_text(f, "version"));
		f = find(&p, "host", "kernel", "4.2.0-1-amd64");
		assert_non_null(f);
		fact_base_free(p.fb);
	}
}

static void test_perftest(void **state)
{
	static const char cut[] =
		"                    RDMA_Write BW Test\n"
		" Dual-port       : OFF          Device         : rocep1s0f0\n"
		" Link type       : IB\n"
		" local address: LID 0000 QPN 0x066e PSN 0xf840\n";
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* A CPU frequency warning inside the result table. */
	p = parse(
		"perftest",
		SAMPLES
		"perftest/cn-blog-cx5-roce-ib_write_bw-bidir-98gbps-healthy.txt",
		NULL);
	f = nth(&p, "perftest", 0);
	assert_string_equal(fact_text(f, "test"), "ib_write_bw");
	assert_string_equal(fact_text(f, "hca"), "mlx5_0");
	assert_string_equal(fact_text(f, "link_type"), "Ethernet");
	assert_true(num(f, "msg_size") == 65536);
	assert_true(num(f, "bw_avg_gbps") == 98.02);
	assert_non_null(
		strstr(fact_text(f, "warning"), "Conflicting CPU frequency"));
	fact_base_free(p.fb);

	/* Only the result rows, with a tab inside. */
	p = parse(
		"perftest",
		SAMPLES
		"perftest/dgx-spark-cx7-ib_write_bw-13gbps-degraded-result-only.txt",
		NULL);
	f = nth(&p, "perftest", 0);
	assert_true(num(f, "bw_avg_gbps") == 13.22);
	assert_true(num(f, "msg_size") == 1048576);
	fact_base_free(p.fb);

	/* Failures. */
	p = parse("perftest",
		  SAMPLES
		  "perftest/perftest-393-grh-required-modify-qp-rtr.txt",
		  NULL);
	assert_string_equal(fact_text(nth(&p, "perftest", 0), "error"),
			    "Failed to modify QP 122273 to RTR");
	fact_base_free(p.fb);
	p = parse(
		"perftest",
		SAMPLES
		"perftest/k8s-rdma-shared-dp-169-did-not-detect-devices-in-pod.txt",
		NULL);
	f = nth(&p, "perftest", 0);
	assert_string_equal(fact_text(f, "test"), "ib_write_bw");
	assert_string_equal(fact_text(f, "error"), "Did not detect devices");
	/* no header, no device opened: no adapter */
	assert_int_equal(count(&p, "hca"), 0);
	fact_base_free(p.fb);

	/* every row is kept in order; the local LID of an InfiniBand run
	 * is the port's (perftest's default port 1, which -i 1 names) */
	p = parse_file("transcript",
		       SAMPLES "perftest/cn-notes-ib_send_bw-a-ud-mlx4_0-ib-"
			       "lid-4.txt",
		       NULL);
	assert_int_equal(count(&p, "perftest_row"), 6);
	f = nth(&p, "perftest_row", 1);
	assert_int_equal(num(f, "msg_size"), 4);
	assert_string_equal(fact_text(f, "test"), "ib_send_bw");
	f = nth(&p, "perftest", 0);
	assert_int_equal(num(f, "msg_size"), 64);
	f = port(&p, "mlx4_0", 1);
	assert_int_equal(num(f, "lid"), 4);
	assert_int_equal(line_of(f, "lid"), 20);
	fact_base_free(p.fb);

	/* a header cut before the table still names test, device, link;
	 * a RoCE run's LID 0000 (or one forced to IB) is no port's LID */
	p = parse_text("perftest", cut, strlen(cut), "t.txt", NULL);
	f = nth(&p, "perftest", 0);
	assert_string_equal(fact_text(f, "hca"), "rocep1s0f0");
	assert_string_equal(fact_text(f, "link_type"), "IB");
	assert_int_equal(count(&p, "port"), 0);
	fact_base_free(p.fb);

	/* the warning perftest prints for a device its table does not know
	 * (ctx_set_max_inline()), above a normal result */
	p = parse("perftest",
		  SAMPLES "perftest/rxe-lab-ib_read_bw-inline-feature-"
			  "disabled.txt",
		  NULL);
	f = nth(&p, "perftest", 0);
	assert_string_equal(fact_text(f, "warning"),
			    "Device not recognized to implement inline "
			    "feature. Disabling it");
	assert_null(fact_get(f, sym_intern_cstr("error")));
	assert_string_equal(fact_text(f, "hca"), "rxe0");
	/* the header perftest prints once it opened the device names an
	 * adapter, cited from its Device line */
	f = find(&p, "hca", "name", "rxe0");
	assert_int_equal(line_of(f, "name"), 8);
	assert_int_equal(count(&p, "hca"), 1);
	fact_base_free(p.fb);
}

/* Two tools that say different things of one port: the fact keeps the
 * first, a disagreement keeps the second; GUIDs spelled differently by
 * two tools are one value. */
static void test_disagreement(void **state)
{
	static const char paste[] =
		"$ ibstat mlx5_0\n"
		"CA 'mlx5_0'\n"
		"\tCA type: MT4119\n"
		"\tNode GUID: 0x0c42a10300d9e4a0\n"
		"\tPort 1:\n"
		"\t\tState: Active\n"
		"\t\tPhysical state: LinkUp\n"
		"$ ibv_devinfo\n"
		"hca_id:\tmlx5_0\n"
		"\tnode_guid:\t\t\t0c42:a103:00d9:e4a0\n"
		"\tphys_port_cnt:\t\t\t1\n"
		"\t\tport:\t1\n"
		"\t\t\tstate:\t\t\tPORT_DOWN (1)\n";
	struct parsed p;
	const struct fact *f;

	(void)state;
	p = parse_text("transcript", paste, strlen(paste), "t.txt", NULL);
	assert_string_equal(text(port(&p, "mlx5_0", 1), "state"), "ACTIVE");
	assert_int_equal(count(&p, "disagreement"), 1);
	f = nth(&p, "disagreement", 0);
	assert_string_equal(text(f, "kind"), "port");
	assert_string_equal(text(f, "entity"), "mlx5_0/1");
	assert_string_equal(text(f, "field"), "state");
	assert_string_equal(text(f, "value"), "ACTIVE");
	assert_string_equal(text(f, "other"), "DOWN");
	assert_int_equal(line_of(f, "value"), 6);
	assert_int_equal(line_of(f, "other"), 13);
	fact_base_free(p.fb);
}

static void test_kconfig_and_modules(void **state)
{
	static const char config[] =
		"# CONFIG_INFINIBAND is not set\nCONFIG_NET=y\nCONFIG_MLX5_CORE=m\n"
		"CONFIG_LOCALVERSION=\"-x\"\n";
	static const char modules[] =
		"mlx5_ib 454656 0 - Live 0xffffffffc0a00000 (OE)\n"
		"ib_core 438272 2 mlx5_ib,ib_uverbs, Live 0xffffffffc0900000 (OE)\n";
	struct fact_base *fb = fact_base_new();
	struct emit e;
	struct value v = value_cstr("CONFIG_INFINIBAND");
	const uint32_t *ids;
	size_t n;

	(void)state;
	emit_init(&e, fb, "config");
	assert_int_equal(parse_kconfig(&e, config, sizeof(config) - 1, NULL),
			 4);
	ids = fact_base_lookup(fb, sym_intern_cstr("kconfig"),
			       sym_intern_cstr("name"), &v, &n);
	assert_int_equal(n, 1);
	assert_string_equal(fact_text(fact_base_get(fb, ids[0]), "value"), "n");
	emit_init(&e, fb, "proc/modules");
	assert_int_equal(
		parse_proc_modules(&e, modules, sizeof(modules) - 1, NULL), 2);
	v = value_cstr("ib_core");
	ids = fact_base_lookup(fb, sym_intern_cstr("module"),
			       sym_intern_cstr("name"), &v, &n);
	assert_string_equal(fact_text(fact_base_get(fb, ids[0]), "state"),
			    "Live");
	fact_base_free(fb);
}

/* Fact files: members in any order, field provenance, lists, and what is
 * left out (kb kinds, facts without kind or fields, values that are not
 * fact values); a file that is not JSON gives no facts at all. */
static void test_fact_file(void **state)
{
	static const char text[] =
		"{\"version\": \"0.1.0\", \"facts\": [\n"
		" {\"fields\": {\"name\": \"mlx5_core\", \"version\": \"5.7-1.0.2\","
		"   \"srcversion\": null, \"filename\": {\"x\": 1}},\n"
		"  \"kind\": \"driver\", \"source\": \"sys/module/mlx5_core/version\","
		"  \"line\": 1, \"text\": \"5.7-1.0.2\",\n"
		"  \"prov\": {\"version\": {\"source\": \"modinfo\", \"line\": 3,"
		"   \"text\": \"version: 5.7-1.0.2\"}, \"name\": \"no object\"}},\n"
		" {\"kind\": \"adapter\", \"fields\": {\"family\": \"X\"}},\n"
		" {\"kind\": \"\", \"fields\": {\"a\": 1}},\n"
		" {\"kind\": \"kmod\", \"fields\": {}},\n"
		" \"not a fact\",\n"
		" {\"kind\": \"kmod\", \"fields\": {\"host\": \"h\\u00e9\", \"ver\": 3,"
		"   \"rate\": 2.5, \"ok\": true, \"tags\": [\"a\", [1]]}}\n"
		"]}\n";
	const struct format *ff = format_find("facts");
	struct parsed p = { fact_base_new(), 0 };
	const struct fact *drv, *km;
	const struct field *fl;
	const struct value *v;
	struct emit e;
	int score;

	(void)state;
	assert_ptr_equal(format_detect(text, strlen(text), &score), ff);
	emit_init(&e, p.fb, "f.json");
	p.facts = ff->parse(&e, text, strlen(text), NULL);
	assert_int_equal(p.facts, 2);
	assert_int_equal(count(&p, "adapter"), 0);

	drv = find(&p, "driver", "name", "mlx5_core");
	assert_int_equal(drv->nfields, 2);
	assert_string_equal(fact_base_source_name(p.fb, drv->prov.src),
			    "sys/module/mlx5_core/version");
	assert_int_equal(drv->prov.line, 1);
	assert_string_equal(drv->prov.text, "5.7-1.0.2");
	fl = fact_field(drv, sym_intern_cstr("version"));
	assert_int_equal(fl->v.type, VALUE_VERSION);
	assert_string_equal(fact_base_source_name(p.fb, fl->prov.src),
			    "modinfo");
	assert_int_equal(fl->prov.line, 3);
	assert_string_equal(fl->prov.text, "version: 5.7-1.0.2");
	fl = fact_field(drv, sym_intern_cstr("name"));
	assert_string_equal(fact_base_source_name(p.fb, fl->prov.src),
			    "f.json");
	assert_int_equal(fl->prov.line, 0);

	km = nth(&p, "kmod", 0);
	assert_string_equal(fact_text(km, "host"), "h\xc3\xa9");
	v = fact_get(km, sym_intern_cstr("ver"));
	assert_int_equal(v->type, VALUE_INT);
	assert_int_equal(v->i, 3);
	assert_true(num(km, "rate") == 2.5);
	assert_true(fact_get(km, sym_intern_cstr("ok"))->b);
	v = fact_get(km, sym_intern_cstr("tags"));
	assert_int_equal(v->type, VALUE_LIST);
	assert_int_equal(v->list->n, 2);
	assert_int_equal(v->list->items[1].type, VALUE_LIST);
	assert_int_equal(v->list->items[1].list->items[0].i, 1);
	fact_base_free(p.fb);

	/* Cut short: nothing, not the facts before the cut. */
	p.fb = fact_base_new();
	emit_init(&e, p.fb, "f.json");
	assert_int_equal(ff->parse(&e, text, strlen(text) - 5, NULL), 0);
	assert_int_equal(fact_base_count(p.fb), 0);
	fact_base_free(p.fb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ibstat),
		cmocka_unit_test(test_lsmod),
		cmocka_unit_test(test_ethtool),
		cmocka_unit_test(test_modinfo),
		cmocka_unit_test(test_perftest),
		cmocka_unit_test(test_disagreement),
		cmocka_unit_test(test_kconfig_and_modules),
		cmocka_unit_test(test_fact_file),
	};

	return cmocka_run_group_tests_name("parsers", tests, NULL, NULL);
}
