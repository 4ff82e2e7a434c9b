/* The kernel-log parser on the real logs in tests/fixtures/samples/dmesg,
 * each checked against what a person reads off it: the signatures hit,
 * the device and host each line names, counts and times. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include "collectors/parsers/logscan.h"
#include "engine/kb.h"
#include "parsed.h"

#define DMESG SAMPLES "dmesg/"

/* Parses a log with the signature table of kb/ loaded. */
static struct parsed parse_log(const char *file)
{
	struct parsed p = { fact_base_new(), 0 };
	struct diag *d = diag_new();
	const struct format *f = format_find("dmesg");
	size_t len;
	char *text = slurp(file, &len);
	struct emit e;
	int score;

	if (kb_load_dir(p.fb, "kb", "kb", d) < 0)
		fail_msg("kb/ does not load");
	emit_init(&e, p.fb, file);
	e.scan = logscan_new(p.fb, d);
	diag_free(d);
	p.facts = f->parse(&e, text, len, NULL);
	logscan_free(e.scan);
	if (format_detect(text, len, &score) != f)
		fail_msg("%s is not detected as a kernel log", file);
	free(text);
	return p;
}

/* Parses log text with the signature table of kb/ loaded. */
static struct parsed parse_log_text(const char *log)
{
	struct parsed p = { fact_base_new(), 0 };
	struct diag *d = diag_new();
	struct emit e;

	if (kb_load_dir(p.fb, "kb", "kb", d) < 0)
		fail_msg("kb/ does not load");
	emit_init(&e, p.fb, "log");
	e.scan = logscan_new(p.fb, d);
	diag_free(d);
	p.facts = format_find("dmesg")->parse(&e, log, strlen(log), NULL);
	logscan_free(e.scan);
	return p;
}

/* The event of a signature (and host, when not NULL). */
static const struct fact *event(const struct parsed *p, const char *sig,
				const char *host)
{
	for (size_t i = 0; i < count(p, "log_event"); i++) {
		const struct fact *f = nth(p, "log_event", i);
		const char *h = fact_text(f, "host");

		if (!strcmp(text(f, "signature"), sig) &&
		    (!host || (h && !strcmp(h, host))))
			return f;
	}
	fail_msg("no log_event %s%s%s", sig, host ? " on " : "",
		 host ? host : "");
	return NULL;
}

static void test_dmesg_brackets(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* ConnectX-6 OCP3 card trained at 8 GT/s: PCIe bandwidth limited. */
	p = parse_log(
		DMESG
		"cx6-ocp3-adapter-x16-slot-gen3-limited-sufficient-power-75w.txt");
	f = event(&p, "PCI-BW-LIMITED", NULL);
	assert_string_equal(text(f, "device"), "0000:01:00.0");
	assert_string_equal(text(f, "detail"), "126.016");
	assert_string_equal(text(f, "first"), "[    1.445026]");
	f = event(&p, "MLX5-FW-VERSION", NULL);
	assert_string_equal(text(f, "device"), "0000:01:00.0");
	assert_int_equal(num(event(&p, "MLX5E-LINK-DOWN", NULL), "count"), 1);
	assert_int_equal(num(event(&p, "MLX5E-LINK-UP", NULL), "count"), 1);
	fact_base_free(p.fb);

	/* A VF's "fw query isn't supported": one log line naming the VF. */
	p = parse_log(DMESG "netdev-2025-vf-fw-query-not-supported-benign.txt");
	f = find(&p, "log", "device", "0000:08:00.2");
	assert_string_equal(text(f, "time"), "[  188.590344]");
	assert_non_null(strstr(text(f, "text"), "fw query isn't supported"));
	fact_base_free(p.fb);
}

static void test_dmesg_probe_failures(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* ConnectX-4 Lx probe fails with -22 after handle_hca_cap; the
	 * comment lines of the paste are not log lines.  Four events: the
	 * firmware version, the failed step, the driver's "load failed"
	 * and the driver core's "probe of ... failed". */
	p = parse_log(DMESG
		      "pocopico-rp-ext-129-cx4lx-handle-hca-cap-failed.txt");
	assert_int_equal(count(&p, "log_event"), 4);
	f = event(&p, "MLX5-INIT-ONE-FAIL", NULL);
	assert_string_equal(text(f, "device"), "0000:01:00.0");
	assert_string_equal(text(f, "detail"), "-22");
	assert_int_equal(line_of(f, "signature"), 6);
	f = event(&p, "MLX5-INIT-STEP-FAIL", NULL);
	assert_string_equal(text(f, "detail"), "handle_hca_cap failed");
	f = event(&p, "DRV-PROBE-FAILED", NULL);
	assert_string_equal(text(f, "device"), "0000:01:00.0");
	assert_string_equal(text(f, "detail"), "mlx5_core");
	/* One log, no host: the host is there, empty, for rules to join. */
	assert_string_equal(text(f, "host"), "");
	assert_string_equal(text(f, "clock"), "boot");
	assert_true(num(f, "first_s") > 5.662 && num(f, "first_s") < 5.664);
	find(&p, "log", "text",
	     "mlx5_core: probe of 0000:01:00.0 failed with error -22");
	assert_int_equal(count(&p, "log"), 4);
	fact_base_free(p.fb);

	p = parse_log(DMESG
		      "tinycore-redpill-9-cx4lx-log-max-qp-handle-hca-cap.txt");
	f = event(&p, "MLX5-INIT-ONE-FAIL", NULL);
	assert_string_equal(text(f, "device"), "0000:03:00.0");
	assert_string_equal(text(f, "first"), "[   14.059052]");
	/* The profile line names its function twice; the first counts. */
	f = event(&p, "MLX5-LOG-MAX-QP", NULL);
	assert_string_equal(text(f, "device"), "0000:03:00.0");
	assert_string_equal(text(f, "detail"), "18");
	fact_base_free(p.fb);

	/* mlx5_ib's auxiliary driver fails: the device is the auxiliary
	 * device, and the driver core's line is a probe failure. */
	p = parse_log_text("[    9.100200] mlx5_ib.rdma: probe of "
			   "mlx5_core.rdma.0 failed with error -12\n");
	f = event(&p, "DRV-PROBE-FAILED", NULL);
	assert_string_equal(text(f, "device"), "mlx5_core.rdma.0");
	assert_string_equal(text(f, "detail"), "mlx5_ib.rdma");
	fact_base_free(p.fb);
}

static void test_dmesg_firmware_health(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* IBM OEM ConnectX-4 Lx: assert dump lines wrapped by a mail
	 * client, then health syndrome 0x7 (irisc not responding). */
	p = parse_log(
		DMESG
		"netdev-2020-ibm-oem-cx4lx-power9-irisc-not-responding-wrapped.txt");
	f = event(&p, "MLX5-HEALTH-SYND", NULL);
	assert_string_equal(text(f, "device"), "0001:19:00.0");
	assert_string_equal(text(f, "detail"), "0x7");
	f = event(&p, "MLX5-ASSERT-VAR", NULL);
	assert_int_equal(num(f, "count"), 5);
	assert_string_equal(text(f, "first"), "[   13.283418]");
	assert_string_equal(text(f, "last"), "[   13.283588]");
	fact_base_free(p.fb);
}

static void test_dmesg_without_timestamps(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* GX10: 27 W slot power, the message's rest indented on the next
	 * line as the author pasted it. */
	p = parse_log(DMESG
		      "asus-gx10-cx7-insufficient-power-27w-and-pcie-x4.txt");
	f = event(&p, "MLX5-PCI-POWER-INSUFF", NULL);
	assert_string_equal(text(f, "device"), "0002:01:00.0");
	assert_string_equal(text(f, "detail"), "27");
	assert_int_equal(num(f, "count"), 1);
	assert_null(fact_text(f, "first"));
	fact_base_free(p.fb);

	/* AOC module over temperature, then the link goes down. */
	p = parse_log(DMESG "gx10-aoc-module-high-temperature-link-down.txt");
	assert_string_equal(
		text(event(&p, "MLX5-PME-HIGH-TEMP", NULL), "detail"), "0");
	assert_string_equal(text(event(&p, "MLX5E-LINK-DOWN", NULL), "device"),
			    "enp1s0f0np0");
	fact_base_free(p.fb);

	/* Cable hot-plugged into a running DGX Spark: plugged, link up. */
	p = parse_log(DMESG "dgx-spark-cx7-cable-hotplug-no-timestamps.txt");
	assert_string_equal(text(event(&p, "MLX5-PME-PLUGGED", NULL), "device"),
			    "0000:01:00.0");
	assert_string_equal(text(event(&p, "MLX5E-LINK-UP", NULL), "device"),
			    "0000:01:00.0");
	fact_base_free(p.fb);

	/* mlx5_ib's "Create QP type 2 failed" names the RDMA device. */
	p = parse_log(DMESG "cn-blog-pve-create-qp-type2-failed-doca-dkms.txt");
	f = find(&p, "log", "device", "mlx5_0");
	assert_non_null(strstr(text(f, "text"), "Create QP type 2 failed"));
	fact_base_free(p.fb);
}

static void test_dmesg_other_forms(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* journalctl short-iso from three nodes: one event per host. */
	p = parse_log(DMESG
		      "journal-short-iso-3nodes-switch-reboot-link-flap.txt");
	for (int i = 4; i <= 6; i++) {
		char host[16];

		snprintf(host, sizeof(host), "node%d", i);
		f = event(&p, "MLX5E-LINK-DOWN", host);
		assert_int_equal(num(f, "count"), 1);
		assert_string_equal(text(f, "first"), "2026-08-07T09:24:35Z");
		assert_string_equal(text(f, "device"), "0000:01:00.0");
		/* Wall-clock seconds, comparable across the hosts. */
		assert_string_equal(text(f, "clock"), "wall");
		assert_true(num(f, "first_s") == 1786094675);
	}
	f = event(&p, "MLX5E-LINK-UP", NULL);
	assert_string_equal(text(f, "first"), "2026-08-07T09:28:15Z");
	fact_base_free(p.fb);

	/* dmesg -T: human-readable times. */
	p = parse_log(
		DMESG
		"linux-block-2023-cx5-link-down-nvme-rdma-null-deref-dmesg-T.txt");
	f = event(&p, "MLX5E-LINK-DOWN", NULL);
	assert_string_equal(text(f, "device"), "0000:02:00.0");
	assert_string_equal(text(f, "first"), "Tue Feb 14 18:48:25 2023");
	assert_string_equal(text(f, "clock"), "wall");
	/* The oops line names no device ("BUG:" is not an interface), and
	 * the one reliable frame in an RDMA module is nvme_rdma's. */
	assert_string_equal(text(event(&p, "KERNEL-OOPS", NULL), "device"), "");
	f = event(&p, "KERNEL-TRACE-RDMA-ULP", NULL);
	assert_string_equal(text(f, "detail"),
			    "nvme_rdma_queue_rq+0x194/0xa20 [nvme_rdma]");
	assert_int_equal(num(f, "count"), 1);
	fact_base_free(p.fb);

	/* /var/log/messages: an oops whose call trace runs through ib_core
	 * on host T630. */
	p = parse_log(
		DMESG
		"linux-rdma-ml-2020-02-ib-core-null-deref-syslog-format.txt");
	f = find(&p, "log", "text",
		 "port_pkey_list_insert+0x30/0x1a0 [ib_core]");
	assert_string_equal(text(f, "host"), "T630");
	assert_string_equal(text(f, "time"), "Feb 20 23:49:53");
	/* Seven reliable frames in ib_core and ib_ipoib; the "? " frames
	 * (ib_find_pkey, __mlx4_ib_query_pkey) are guesses and do not
	 * count, so no driver frame either.  A syslog stamp without a year
	 * still gives times. */
	f = event(&p, "KERNEL-TRACE-RDMA-CORE", "T630");
	assert_int_equal(num(f, "count"), 7);
	assert_string_equal(text(f, "detail"),
			    "port_pkey_list_insert+0x30/0x1a0 [ib_core]");
	assert_true(num(f, "span_s") == 0);
	assert_string_equal(text(f, "clock"), "wall");
	for (size_t i = 0; i < count(&p, "log_event"); i++)
		assert_string_not_equal(text(nth(&p, "log_event", i),
					     "signature"),
					"KERNEL-TRACE-RDMA-DRIVER");
	fact_base_free(p.fb);
}

/* journalctl -o short-monotonic, as sysinfo-snapshot saves it. */
static void test_short_monotonic(void **state)
{
	struct parsed p = parse_log_text(
		"[    2.345678] node9 kernel: mlx5_core 0000:b3:00.0: firmware version: 16.26.1040\n");
	const struct fact *f;

	(void)state;
	f = event(&p, "MLX5-FW-VERSION", "node9");
	assert_string_equal(text(f, "device"), "0000:b3:00.0");
	assert_string_equal(text(f, "first"), "[    2.345678]");
	fact_base_free(p.fb);
}

/* What the kernel's formats say beside the message: modules from
 * call-trace frames ("sym+0x../0x.. [mod]"), print_modules()' list and
 * the prefixes kb/log_sources.yaml marks as modules; the running kernel
 * from dump_stack's line and the boot banner; an interface from its
 * rename; the host of a syslog that names one host only. */
static void test_dmesg_inventory(void **state)
{
	struct parsed p;

	(void)state;
	/* syslog of one host (T630), an oops in ib_core over mlx4_ib. */
	p = parse_log(DMESG "linux-rdma-ml-2020-02-ib-core-null-deref-syslog-format.txt");
	find(&p, "module", "name", "ib_core");
	find(&p, "module", "name", "mlx4_ib");
	assert_string_equal(text(nth(&p, "host", 0), "hostname"), "T630");
	fact_base_free(p.fb);

	/* dmesg -T: "CPU: 17 PID: 518 Comm: kworker/17:1H Tainted: G S
	 * E 6.2.0-rc4+ #224", frames in nvme_rdma and nvme_core; the
	 * "Workqueue: ... [nvme_core]" line is no frame, but a frame names
	 * nvme_core too. */
	p = parse_log(DMESG "linux-block-2023-cx5-link-down-nvme-rdma-null-deref-dmesg-T.txt");
	assert_int_equal(count(&p, "host"), 1);
	assert_string_equal(text(nth(&p, "host", 0), "kernel"), "6.2.0-rc4+");
	find(&p, "module", "name", "nvme_rdma");
	find(&p, "module", "name", "mlx5_core");
	fact_base_free(p.fb);

	/* Three hosts in one journal: no host is the host. */
	p = parse_log(DMESG "journal-short-iso-3nodes-switch-reboot-link-flap.txt");
	assert_int_equal(count(&p, "host"), 0);
	fact_base_free(p.fb);

	p = parse_log_text("[    0.000000] Linux version 5.14.0-362.8.1.el9_3.x86_64 (mockbuild@x86-vm-08.build.eng.bos.redhat.com) (gcc (GCC) 11.4.1) #1 SMP PREEMPT_DYNAMIC\n");
	assert_string_equal(text(nth(&p, "host", 0), "kernel"),
			    "5.14.0-362.8.1.el9_3.x86_64");
	fact_base_free(p.fb);

	p = parse_log_text(
		"[    0.000000] Linux version 5.14.0-362.8.1.el9_3.x86_64 (mockbuild@x86-vm-08.build.eng.bos.redhat.com) (gcc (GCC) 11.4.1) #1 SMP PREEMPT_DYNAMIC\n"
		"[    3.011390] bnxt_en 0000:18:00.0 eno2np0: renamed from eth1\n"
		"[   12.000000] infiniband mlx5_0: ib_query_port failed (-110)\n"
		"[   40.100000] Modules linked in: rdma_ucm(OE) ib_uverbs(OE) mlx5_ib(OE) mlx5_core(OE) mlxfw [last unloaded: mlx_compat]\n"
		"[   40.100001] CPU: 3 PID: 77 Comm: kworker/3:1 Not tainted 6.8.0-31-generic #31-Ubuntu\n");
	/* Two releases (a banner, then an oops of another boot): which
	 * one runs now the log cannot tell. */
	assert_int_equal(count(&p, "host"), 0);
	assert_string_equal(text(find(&p, "netdev", "name", "eno2np0"), "pci"),
			    "0000:18:00.0");
	assert_string_equal(
		text(find(&p, "netdev", "name", "eno2np0"), "driver"),
		"bnxt_en");
	find(&p, "module", "name", "rdma_ucm");
	find(&p, "module", "name", "mlxfw");
	for (size_t i = 0; i < count(&p, "module"); i++) {
		const char *name = text(nth(&p, "module", i), "name");

		/* a class, and a module the list says was unloaded */
		assert_string_not_equal(name, "infiniband");
		assert_string_not_equal(name, "mlx_compat");
	}
	/* bnxt_en's dev_printk shows it loaded (kb/log_sources.yaml) */
	find(&p, "module", "name", "bnxt_en");
	assert_int_equal(count(&p, "module"), 6);
	fact_base_free(p.fb);
}

/* The PCI core's enumeration line is the function's pcie fact (network
 * and InfiniBand classes only), and an indented line keeps its time and
 * device. */
static void test_dmesg_pci_enumeration(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	p = parse_log(DMESG "boot-log-cx5-18-00-pci-enumeration-intel-"
			    "bridges.txt");
	assert_int_equal(count(&p, "pcie"), 2);
	f = find(&p, "pcie", "pci", "0000:18:00.1");
	assert_string_equal(text(f, "vendor_id"), "15b3");
	assert_string_equal(text(f, "device_id"), "1017");
	assert_string_equal(text(f, "class"), "0200");
	assert_int_equal(line_of(f, "device_id"), 13);
	fact_base_free(p.fb);
	p = parse_log_text(
		"\t[    0.684013] pci 0000:04:00.1: [15b3:1015] type 00 class "
		"0x020000\n"
		"    [    5.710024] mlx5_core 0000:04:00.0: firmware version: "
		"14.32.1010\n");
	f = find(&p, "log", "device", "0000:04:00.0");
	assert_string_equal(text(f, "time"), "[    5.710024]");
	assert_string_equal(text(f, "text"),
			    "mlx5_core 0000:04:00.0: firmware version: "
			    "14.32.1010");
	assert_string_equal(text(find(&p, "pcie", "pci", "0000:04:00.1"),
				 "device_id"),
			    "1015");
	fact_base_free(p.fb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dmesg_brackets),
		cmocka_unit_test(test_dmesg_probe_failures),
		cmocka_unit_test(test_dmesg_firmware_health),
		cmocka_unit_test(test_dmesg_without_timestamps),
		cmocka_unit_test(test_dmesg_other_forms),
		cmocka_unit_test(test_short_monotonic),
		cmocka_unit_test(test_dmesg_inventory),
		cmocka_unit_test(test_dmesg_pci_enumeration),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
