/* parsers against hostile input: NUL bytes, CR line ends, terminal
 * escapes, very long lines, random bytes and outputs cut anywhere.  Each
 * parser must neither crash nor read out of bounds (the asan target runs
 * this), and line-end or escape noise must not change what a real
 * output yields. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include "engine/xalloc.h"
#include "parsed.h"

#define LONG_LINE (4u << 20)

/* One sample of each format (the formats this file guards). */
static const struct {
	const char *format;
	const char *file;
} samples[] = {
	{ "ibstatus",
	  "ibstatus/ompi-users-2014-mlx4-ddr-port2-init-not-in-sm-old-format.txt" },
	{ "ibv_devinfo",
	  "ibv_devinfo_v/cn-notes-cx6dx-roce-lag-bond-vv-2x-50g.txt" },
	{ "ibv_devinfo",
	  "ibv_devinfo/k8s-rdma-dp-8-cx3-vf-failed-to-open-device-in-container.txt" },
	{ "ibv_devices", "ibv_devices/mooncake-105-mlx5-bond-healthy.txt" },
	{ "rdma",
	  "rdma_link/linux-rdma-old-rdmatool-index-prefix-port2-unknown.txt" },
	{ "ibdev2netdev",
	  "ibdev2netdev/imbue-cluster-health-4-h100-cx7-ib-cx6-eth-annotated.txt" },
	{ "ofed_info", "ofed_info/cn-notes-mofed-5.4-ofed_info-s-and-n.txt" },
	{ "lspci", "lspci/gpu-diag-readme-cx7-ndr-400g-gen5-x16-ok.txt" },
	{ "lspci",
	  "lspci/cx6-ocp3-adapter-gen4-card-downgraded-grep-width.txt" },
	{ "flint_q", "flint_q/netdev-2020-ibm-oem-cx4lx-mstflint-q-fs3.txt" },
	{ "mlxfwmanager",
	  "mlxfwmanager/netdev-2020-ibm-oem-cx4lx-mlxup-no-image-mangled-by-mail.txt" },
	{ "perfquery",
	  "perfquery/infiniband-exporter-fixture-switch-port-xmitdiscards-linkdowned.txt" },
	{ "pingpong",
	  "ibv_rc_pingpong/gpu-rdma-report-cx5-cx6-25g-roce-success.txt" },
	{ "ucx_log", "app_errors/ucx-8746-memlock-64k-ibv_create_cq.txt" },
	{ "transcript",
	  "ibv_devinfo/sriov-cni-348-bnxt-abi-mismatch-in-pod-no-devices.txt" },
};

/* Runs every format's parser and detector over text. */
static void every_format(const char *text, size_t len)
{
	for (size_t i = 0; i < format_count(); i++) {
		const struct format *f = format_at(i);
		struct fact_base *fb;
		struct emit e;
		int score;

		if (!strcmp(f->name, "facts"))
			continue; /* JSON, guarded by its own parser */
		fb = fact_base_new();
		emit_init(&e, fb, "hostile");
		assert_true(f->parse(&e, text, len, NULL) >= 0);
		score = format_score(f, text, len);
		assert_true(score >= 0 && score <= 100);
		fact_base_free(fb);
	}
}

static void test_small_inputs(void **state)
{
	static const char nuls[] =
		"hca_id:\0mlx5_0\n\0port:\0 1\n\tstate:\0PORT_ACTIVE (4)\n"
		"Infiniband device '\0' port 1 status:\nrate: \0 Gb/sec (\n"
		"link mlx5_0/\0 state\n0: \0: node_type\n"
		"mlx5_0 port \0 ==> \0 (\n"
		"19:00.0 \0: x\nLnkCap: Speed \0GT/s, Width x\0\n"
		"Device #1:\nStatus: No\n\0\n# Port counters: Lid \0\n"
		"PortXmitData:....\0\n* - memlock \0\n"
		"[1] x UCX  ERROR (current: \0\n";
	static const char *const odd[] = {
		"",
		"\n",
		":",
		"hca_id:",
		"hca_id:\n\t\tport:\t99999999999999999999\n\t\t\tGID[",
		"\t\t\tGID[  1]:",
		"Infiniband device '",
		"Infiniband device 'x' port",
		"link /1 state",
		"link a/ state ACTIVE",
		"0/1: a/1:",
		"port 1 ==>",
		"==> ib0 (Up)",
		"00:00.0 x:",
		"0000:00:00.0",
		"LnkSta:",
		"LnkCap: Speed 1e308GT/s, Width x99999999999",
		"LnkSta: Speed nanGT/s, Width x-1",
		"FW Version:",
		"Status:",
		"Device #1:\n  Versions: Current Available\n     FW",
		"# Port counters: Lid",
		"PortXmitData:.....18446744073709551615999",
		"* soft memlock -99999999999999999999999",
		"MLNX_OFED_LINUX-",
		"MLNX_OFED_LINUX-1.2-",
		"1-",
		"0 bytes in 0 seconds = 0 Mbit/sec\n0 iters in 0.00 seconds = inf usec/iter",
		"[1] [h:1:0] x UCX  ERROR locked memory (current: 99999999999999999999999 kbytes)",
		"$ ibstat\n$ lspci\n$",
		"[a@b ~]# rdma link\nlink x/1 state ACTIVE\n# lspci\n# ",
		"a@b$ sudo\na@b$ sudo -E X=1\n\xe2\x9e\x9c\n\xe2\x9e\x9c ~ ethtool -i",
		"a@b# modinfo -F\na@b# perfquery -C\na@b# ib_|>\n[x\n]#",
	};

	(void)state;
	every_format(nuls, sizeof(nuls) - 1);
	for (size_t i = 0; i < ARRAY_SIZE(odd); i++)
		every_format(odd[i], strlen(odd[i]));
}

static void test_long_lines(void **state)
{
	static const char *const fills[] = {
		"a",	":", "(", " ", "port 1 ", " ==> ", "Speed Width x",
		"GID[", "0", "\r"
	};
	char *buf = malloc(LONG_LINE + 64);

	(void)state;
	assert_non_null(buf);
	for (size_t i = 0; i < ARRAY_SIZE(fills); i++) {
		size_t n = strlen(fills[i]), len = 0;

		/* A key every parser looks for, then one huge value. */
		len = (size_t)sprintf(buf, "%s",
				      i % 2 ? "hca_id: " : "LnkSta: ");
		while (len + n < LONG_LINE) {
			memcpy(buf + len, fills[i], n);
			len += n;
		}
		every_format(buf, len);
	}
	free(buf);
}

static void test_random_bytes(void **state)
{
	size_t len = 256u << 10;
	char *buf = malloc(len);
	uint32_t x = 2463534242u;

	(void)state;
	assert_non_null(buf);
	for (int round = 0; round < 4; round++) {
		for (size_t i = 0; i < len; i++) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			/* Mostly printable, with newlines, colons and NULs. */
			buf[i] = (char)(x % 7 == 0  ? '\n' :
					x % 11 == 0 ? ':' :
					x % 13 == 0 ? '\0' :
						      ' ' + (x >> 8) % 95);
		}
		every_format(buf, len);
	}
	free(buf);
}

/* Every prefix of every sample (outputs cut anywhere). */
static void test_cut_outputs(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(samples); i++) {
		struct strbuf path = STRBUF_INIT;
		size_t len;
		char *text;

		sb_printf(&path, "%s%s", SAMPLES, samples[i].file);
		text = slurp(sb_str(&path), &len);
		for (size_t cut = 0; cut <= len; cut += 1 + cut / 64) {
			/* A copy of exactly cut bytes, so that asan sees a
			 * read past the end. */
			char *part = malloc(cut ? cut : 1);
			struct parsed p;

			memcpy(part, text, cut);
			p = parse_text(samples[i].format, part, cut, "cut",
				       NULL);
			assert_true(p.facts >= 0);
			fact_base_free(p.fb);
			free(part);
		}
		free(text);
		sb_release(&path);
	}
}

/* The facts a text yields, as "kind field=value ..." lines. */
static void describe(const char *format, const char *text, size_t len,
		     struct strbuf *out)
{
	struct parsed p = parse_text(format, text, len, "x", NULL);

	for (uint32_t id = 1; id <= fact_base_count(p.fb); id++) {
		const struct fact *f = fact_base_get(p.fb, id);

		for (uint32_t k = 0; k < f->nfields; k++) {
			sb_printf(out, "%s ", sym_str(f->fields[k].name));
			value_format(&f->fields[k].v, out);
			sb_putc(out, ' ');
		}
		sb_putc(out, '\n');
	}
	fact_base_free(p.fb);
}

/* CRLF line ends change nothing. */
static void test_line_ends(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(samples); i++) {
		struct strbuf path = STRBUF_INIT, crlf = STRBUF_INIT;
		struct strbuf want = STRBUF_INIT, got = STRBUF_INIT;
		size_t len;
		char *text;

		sb_printf(&path, "%s%s", SAMPLES, samples[i].file);
		text = slurp(sb_str(&path), &len);
		for (size_t k = 0; k < len; k++) {
			if (text[k] == '\n')
				sb_putc(&crlf, '\r');
			sb_putc(&crlf, text[k]);
		}
		describe(samples[i].format, text, len, &want);
		describe(samples[i].format, crlf.buf, crlf.len, &got);
		assert_true(want.len > 0);
		assert_string_equal(sb_str(&got), sb_str(&want));
		free(text);
		sb_release(&path);
		sb_release(&crlf);
		sb_release(&want);
		sb_release(&got);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_inputs),
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_random_bytes),
		cmocka_unit_test(test_cut_outputs),
		cmocka_unit_test(test_line_ends),
	};

	return cmocka_run_group_tests_name("parsers (hostile input)", tests,
					   NULL, NULL);
}
