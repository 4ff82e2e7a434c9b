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
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

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

	/* A module list longer than a printk record goes on in the next
	 * record, one blank further in (the kernel's own split, as
	 * https://github.com/spdk/spdk/issues/3671 and
	 * https://github.com/Open-CAS/ocf/issues/408 show it). */
	p = parse_log(DMESG "spdk-3671-nvme-rdma-map-data-warning.txt");
	find(&p, "module", "name", "drm_kms_helper");
	find(&p, "module", "name", "nvme_core");
	fact_base_free(p.fb);
	p = parse_log(DMESG "ocf-408-soft-lockup-atop-mlx5-linked.txt");
	find(&p, "module", "name", "ib_core");
	find(&p, "module", "name", "mlx4_ib");
	/* module_flags(): taint letters in parentheses, none without */
	assert_string_equal(text(find(&p, "module", "name", "mlx5_ib"),
				 "flags"), "OE");
	assert_null(fact_get(find(&p, "module", "name", "macvlan"),
			     sym_intern_cstr("flags")));
	fact_base_free(p.fb);
	/* '+': a module still loading when the kernel died
	 * (https://github.com/siderolabs/talos/issues/8624) */
	p = parse_log(DMESG "talos-8624-mlx5-core-esw-panic-console-retyped.txt");
	assert_string_equal(text(find(&p, "module", "name", "mlx5_core"),
				 "flags"), "+");
	fact_base_free(p.fb);
	/* ... but a call trace under a closed list, or an indented line
	 * under any other, is no list */
	p = parse_log_text(
		"[   40.100000] Modules linked in: mlx5_ib mlx5_core [last unloaded: mlxfw]\n"
		"[   40.100001]  ib_core_fake_name\n"
		"[   40.100002] Call Trace:\n"
		"[   40.100003]  schedule\n");
	assert_int_equal(count(&p, "module"), 2);
	fact_base_free(p.fb);

	/* a serial console of MLNX_OFED 2.0 (linux-rdma list): the load
	 * banners tell the drivers' versions, and old mlx4_ib's pr_fmt
	 * "<mlx4_ib> %s: " shows it loaded */
	p = parse_log_text(
		"mlx4_core: Mellanox ConnectX core driver v1.1 (Jan 23 2014)\n"
		"mlx4_core: Initializing 0000:03:00.0\n"
		"<mlx4_ib> mlx4_ib_add: mlx4_ib: Mellanox ConnectX InfiniBand "
		"driver v1.0 (Jan 23\n"
		"mlx4_en: Mellanox ConnectX HCA Ethernet driver v2.1.6 (Jan 23 "
		"2014)\n");
	find(&p, "module", "name", "mlx4_ib");
	assert_string_equal(text(find(&p, "driver", "name", "mlx4_en"),
				 "version"),
			    "2.1.6");
	assert_string_equal(text(find(&p, "driver", "name", "mlx4_en"),
				 "evidence"),
			    "kernel_log");
	assert_string_equal(text(find(&p, "driver", "name", "mlx4_core"),
				 "version"),
			    "1.1");
	/* a line of the driver that is no banner gives no version */
	assert_int_equal(count(&p, "driver"), 2);
	fact_base_free(p.fb);

	/* /var/log/messages over two boots, before and after an MLNX_OFED
	 * install: the latest banner is the driver that runs, not a
	 * disagreement with the first */
	p = parse_log_text(
		"Jan 10 10:00:01 node07 kernel: mlx4_core: Mellanox ConnectX "
		"core driver v4.0-0 (Jan 23 2017)\n"
		"Feb 20 11:00:01 node07 kernel: mlx4_core: Mellanox ConnectX "
		"core driver v4.9-4.1.7 (03 Jul 2022)\n"
		"Feb 20 11:00:01 node07 kernel: mlx4_en: Mellanox ConnectX HCA "
		"Ethernet driver v4.9-4.1.7 (03 Jul 2022)\n");
	assert_int_equal(count(&p, "driver"), 2);
	assert_string_equal(text(find(&p, "driver", "name", "mlx4_core"),
				 "version"),
			    "4.9-4.1.7");
	assert_int_equal(count(&p, "disagreement"), 0);
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


/* The prefixes of the tools that show a kernel log, each rendered before
 * the real lines of pocopico/rp-ext#129 (a ConnectX-4 Lx probe failure;
 * tests/fixtures/samples/dmesg): the same events, devices and messages in
 * every form.  The forms: util-linux sys-utils/dmesg.c -x ("%-6s:%-6s: "
 * of facility and level), -r ("<%d>" of facility * 8 + level) and
 * --time-format iso ("%Y-%m-%dT%H:%M:%S,%06ld" and the zone), the
 * /dev/kmsg record ("prio,seq,usec,flag;" and its " KEY=value"
 * dictionary lines, Documentation/ABI/testing/dev-kmsg), journalctl -o
 * short-precise, pdsh's "host: " before a stamp or a syslog line, and a
 * stamp whose start the paste cut off. */
static const char *const rp_ext_129[] = {
	"mlx5_core 0000:01:00.0: firmware version: 14.32.1010",
	"mlx5_core 0000:01:00.0: handle_hca_cap failed",
	"mlx5_core 0000:01:00.0: mlx5_load_one failed with error code -22",
	"mlx5_core: probe of 0000:01:00.0 failed with error -22",
};
static const double rp_ext_129_s[] = { 5.376443, 5.502207, 5.662202,
				       5.663152 };
static const int rp_ext_129_level[] = { 6, 3, 3, 4 };

enum prefix_form {
	FORM_PLAIN,
	FORM_DECODED,
	FORM_RAW,
	FORM_KMSG,
	FORM_ISO,
	FORM_PRECISE,
	FORM_PDSH_STAMP,
	FORM_PDSH_SYSLOG,
	FORM_PDSH_BARE,
	FORM_CUT,
	FORM_COUNT
};

static void render(enum prefix_form form, char *out, size_t size)
{
	static const char *const level_word[] = { "emerg", "alert", "crit",
						  "err",   "warn",  "notice",
						  "info",  "debug" };
	size_t at = 0;

	out[0] = '\0';
	for (size_t i = 0; i < NELEM(rp_ext_129); i++) {
		const char *m = rp_ext_129[i];
		double t = rp_ext_129_s[i];
		int lev = rp_ext_129_level[i];
		long us = (long)(t * 1e6 + 0.5);

		switch (form) {
		case FORM_PLAIN:
			at += snprintf(out + at, size - at, "[%12.6f] %s\n", t, m);
			break;
		case FORM_DECODED:
			at += snprintf(out + at, size - at,
				       "%-6s:%-6s: [%12.6f] %s\n", "kern",
				       level_word[lev], t, m);
			break;
		case FORM_RAW:
			at += snprintf(out + at, size - at, "<%d>[%12.6f] %s\n",
				       lev, t, m);
			break;
		case FORM_KMSG:
			at += snprintf(out + at, size - at,
				       "%d,%zu,%ld,-;%s\n SUBSYSTEM=pci\n DEVICE=+pci:0000:01:00.0\n",
				       lev, 812 + i, us, m);
			break;
		case FORM_ISO:
			at += snprintf(out + at, size - at,
				       "2022-07-06T10:02:%02d,%06ld+02:00 %s\n",
				       (int)t, us % 1000000, m);
			break;
		case FORM_PRECISE:
			at += snprintf(out + at, size - at,
				       "Jul 06 10:02:%02d.%06ld ds918 kernel: %s\n",
				       (int)t, us % 1000000, m);
			break;
		case FORM_PDSH_STAMP:
			at += snprintf(out + at, size - at,
				       "ds918: [%12.6f] %s\n", t, m);
			break;
		case FORM_PDSH_SYSLOG:
			at += snprintf(out + at, size - at,
				       "ds918: Jul  6 10:02:%02d ds918 kernel: %s\n",
				       (int)t, m);
			break;
		case FORM_PDSH_BARE:
			at += snprintf(out + at, size - at, "ds918: %s\n", m);
			break;
		case FORM_CUT:
			/* the first line's stamp cut to its last digits */
			at += snprintf(out + at, size - at,
				       i ? "[%12.6f] %s\n" : "%.0f443] %s\n",
				       i ? t : 0.0, m);
			break;
		case FORM_COUNT:
			break;
		}
		assert_true(at < size);
	}
}

/* "signature@device*count;" of every event, in order. */
static void events_of(const struct parsed *p, char *out, size_t size)
{
	size_t at = 0;

	out[0] = '\0';
	for (size_t i = 0; i < count(p, "log_event"); i++) {
		const struct fact *f = nth(p, "log_event", i);

		at += snprintf(out + at, size - at, "%s@%s*%g;",
			       text(f, "signature"), text(f, "device"),
			       num(f, "count"));
		assert_true(at < size);
	}
}

static void test_prefix_forms(void **state)
{
	static const char *const level_want[] = { "info", "err", "err",
						  "warn" };
	char log[4096], want[512], got[512];
	struct parsed p;

	(void)state;
	render(FORM_PLAIN, log, sizeof(log));
	p = parse_log_text(log);
	events_of(&p, want, sizeof(want));
	assert_non_null(strstr(want, "MLX5-FW-VERSION@0000:01:00.0*1;"));
	assert_non_null(strstr(want, "@0000:01:00.0*1;"));
	fact_base_free(p.fb);
	for (int form = FORM_DECODED; form < FORM_COUNT; form++) {
		const struct fact *f;

		render((enum prefix_form)form, log, sizeof(log));
		p = parse_log_text(log);
		events_of(&p, got, sizeof(got));
		if (strcmp(got, want))
			fail_msg("form %d: events %s, not %s", form, got, want);
		assert_int_equal(count(&p, "log"), 4);
		for (size_t i = 0; i < 4; i++) {
			f = nth(&p, "log", i);
			/* the message without its prefix, nor a kmsg
			 * dictionary line joined to it */
			assert_string_equal(text(f, "text"), rp_ext_129[i]);
			if (form == FORM_DECODED || form == FORM_RAW ||
			    form == FORM_KMSG)
				assert_string_equal(text(f, "level"),
						    level_want[i]);
			else
				assert_null(fact_text(f, "level"));
		}
		f = nth(&p, "log", 1);
		switch (form) {
		case FORM_KMSG:
			assert_string_equal(text(f, "time"), "[    5.502207]");
			break;
		case FORM_ISO:
			assert_string_equal(text(f, "time"),
					    "2022-07-06T10:02:05,502207+02:00");
			break;
		case FORM_PRECISE:
			assert_string_equal(text(f, "time"),
					    "Jul 06 10:02:05.502207");
			assert_string_equal(text(f, "host"), "ds918");
			break;
		case FORM_PDSH_STAMP:
		case FORM_PDSH_SYSLOG:
		case FORM_PDSH_BARE:
			assert_string_equal(text(f, "host"), "ds918");
			assert_string_equal(text(nth(&p, "host", 0), "hostname"),
					    "ds918");
			break;
		case FORM_CUT:
			assert_string_equal(text(nth(&p, "log", 0), "device"),
					    "0000:01:00.0");
			break;
		default:
			break;
		}
		fact_base_free(p.fb);
	}
}

/* dev_printk names a PCI driver whatever it is called ("ice", "efa",
 * "hfi1"), then the function (drivers/base/core.c __dev_printk:
 * "%s %s: ", dev_driver_string(), dev_name()); netdev_printk the
 * interface after it (net/core/dev.c __netdev_printk: "%s %s %s%s: ").
 * A word before a PCI address in a sentence is no driver. */
static void test_driver_lines(void **state)
{
	static const char *const yes[] = {
		"ice 0000:31:00.0: Only 0 MSI-X interrupts available for SR-IOV. Not enough to support minimum of 2 MSI-X interrupts per VF for 8 VFs",
		"bnxt_en 0000:18:00.0 eno2np0: renamed from eth1",
		"hfi1 0000:d8:00.0: hfi1_0: Eager buffer size 8388608",
		"i40e 0000:3d:00.1 eno2: NIC Link is Up, 10 Gbps Full Duplex",
	};
	static const char *const no[] = {
		"device 0000:31:00.0 is not ready",
		"pcieport 0000:00:01.0 and then more words",
		"Port 1: 0000:00:01.0",
	};

	(void)state;
	for (size_t i = 0; i < NELEM(yes); i++) {
		struct line ln = { yes[i], strlen(yes[i]), 1 };

		if (!log_driver_line(&ln))
			fail_msg("not a driver line: %s", yes[i]);
	}
	for (size_t i = 0; i < NELEM(no); i++) {
		struct line ln = { no[i], strlen(no[i]), 1 };

		if (log_driver_line(&ln))
			fail_msg("a driver line: %s", no[i]);
	}
}


/* A healthy E810 (ice) log stays quiet, though its lines are RDMA's now
 * (kb/log_sources.yaml: irdma sits on ice): VFs enabled (intel-wired-lan,
 * 2025-04-24, "[PATCH iwl-net] iavf: fix reset_task for early reset
 * event") and a link that went down and up (linux-kernel, 2024, an E810's
 * ice-ptp worker starving RCU).  Each line is a log fact with its
 * function; no signature finds a fault in them. */
static void test_ice_healthy(void **state)
{
	struct parsed p = parse_log_text(
		"[792.620416] ice 0000:5e:00.0: Enabling 1 VFs\n"
		"[792.738812] iavf 0000:5e:01.0: enabling device (0000 -> 0002)\n"
		"[1193024.082447] ice 0000:10:00.1 ens1f1: NIC Link is Down\n"
		"[1193060.630500] ice 0000:10:00.2 ens1f2: NIC Link is up 25 Gbps Full Duplex, Requested FEC: RS-FEC, Negotiated FEC: RS-FEC, Autoneg Advertised: Off, Autoneg Negotiated: False, Flow Control: None\n");

	(void)state;
	assert_string_equal(text(find(&p, "log", "text",
				      "ice 0000:5e:00.0: Enabling 1 VFs"),
				 "device"),
			    "0000:5e:00.0");
	find(&p, "log", "device", "0000:10:00.1");
	find(&p, "module", "name", "ice");
	for (size_t i = 0; i < count(&p, "log_event"); i++)
		assert_string_not_equal(text(nth(&p, "log_event", i),
					     "signature"),
					"RDMA-DRIVER-GENERIC");
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
		cmocka_unit_test(test_prefix_forms),
		cmocka_unit_test(test_driver_lines),
		cmocka_unit_test(test_ice_healthy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
