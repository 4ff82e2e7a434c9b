/* parsers of the verbs-side tools (ibstatus, ibv_devinfo, ibv_devices,
 * rdma, ibdev2netdev, ibv_rc_pingpong, UCX logs) on real outputs people
 * posted, checked against the values a person reads off them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include "parsed.h"

static void test_ibstatus(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* Eight HDR ports and an Ethernet port labelled "4X QDR". */
	p = parse("ibstatus",
		  SAMPLES
		  "ibstatus/gpud-testdata-a100-8x-hdr-plus-eth-gid-unknown.txt",
		  NULL);
	assert_int_equal(count(&p, "port"), 9);
	assert_int_equal(count(&p, "hca"), 9);
	f = port(&p, "mlx5_0", 1);
	assert_int_equal(num(f, "lid"), 0x33bf); /* base lid: 0x33bf */
	assert_int_equal(num(f, "sm_lid"), 1);
	assert_string_equal(text(f, "state"), "ACTIVE");
	assert_string_equal(text(f, "phys_state"), "LINKUP");
	assert_true(num(f, "rate_gbps") == 200);
	assert_string_equal(text(f, "width"), "4X");
	assert_string_equal(text(f, "speed"), "HDR");
	assert_string_equal(text(f, "link_layer"), "InfiniBand");
	assert_int_equal(line_of(f, "rate_gbps"), 10);
	f = port(&p, "mlx5_8", 1);
	assert_string_equal(text(f, "link_layer"), "Ethernet");
	assert_true(num(f, "rate_gbps") == 40);
	assert_int_equal(num(f, "lid"), 0);
	/* "default gid:" is the port's gids/0; the Ethernet port's
	 * "unknown" is none */
	assert_int_equal(count(&p, "gid"), 8);
	f = find(&p, "gid", "hca", "mlx5_0");
	assert_int_equal(num(f, "index"), 0);
	assert_int_equal(num(f, "port"), 1);
	assert_string_equal(text(f, "gid"),
			    "fe80:0000:0000:0000:0015:5dff:fd34:11eb");
	fact_base_free(p.fb);

	/* An active RoCE port's default gid is its link-local gids/0: no
	 * evidence of its table (the IP-based GIDs past index 0 are never
	 * shown), so no gid fact, or roce-no-ip-gid would say it has none */
	{
		static const char roce[] =
			"Infiniband device 'mlx5_2' port 1 status:\n"
			"\tdefault gid:\t fe80:0000:0000:0000:0e42:a1ff:fe1f:2b3c\n"
			"\tbase lid:\t 0x0\n"
			"\tsm lid:\t\t 0x0\n"
			"\tstate:\t\t 4: ACTIVE\n"
			"\tphys state:\t 5: LinkUp\n"
			"\trate:\t\t 100 Gb/sec (4X EDR)\n"
			"\tlink_layer:\t Ethernet\n";

		p = parse_text("ibstatus", roce, sizeof(roce) - 1, "roce",
			       NULL);
		assert_int_equal(count(&p, "port"), 1);
		assert_int_equal(count(&p, "gid"), 0);
		fact_base_free(p.fb);
	}

	/* Old format: no link_layer, no blank line between the ports. */
	p = parse(
		"ibstatus",
		SAMPLES
		"ibstatus/ompi-users-2014-mlx4-ddr-port2-init-not-in-sm-old-format.txt",
		NULL);
	f = port(&p, "mlx4_0", 1);
	assert_string_equal(text(f, "state"), "ACTIVE");
	assert_int_equal(num(f, "lid"), 5);
	assert_true(num(f, "rate_gbps") == 20);
	assert_string_equal(text(f, "speed"), "DDR");
	assert_null(fact_text(f, "link_layer"));
	f = port(&p, "mlx4_0", 2);
	assert_string_equal(text(f, "state"), "INIT");
	assert_string_equal(text(f, "phys_state"), "LINKUP");
	assert_int_equal(num(f, "lid"), 0);
	assert_int_equal(num(f, "sm_lid"), 0);
	assert_int_equal(line_of(f, "state"), 16);
	fact_base_free(p.fb);

	/* Tabs between key and value. */
	p = parse("ibstatus",
		  SAMPLES "ibstatus/rapids-ucx-guide-4x-mlx5-edr-ib-tabs.txt",
		  NULL);
	assert_int_equal(count(&p, "port"), 4);
	f = port(&p, "mlx5_3", 1);
	assert_int_equal(num(f, "lid"), 0x11);
	assert_true(num(f, "rate_gbps") == 100);
	assert_string_equal(text(f, "speed"), "EDR");
	fact_base_free(p.fb);
}

static void test_ibv_devinfo(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* MLNX_OFED 4.x layout with "Device ports:", RoCE MTU 1024. */
	p = parse(
		"ibv_devinfo",
		SAMPLES
		"ibv_devinfo/cx3-vpi-eth-mode-device-ports-active-mtu-1024.txt",
		NULL);
	f = find(&p, "hca", "name", "mlx4_0");
	assert_string_equal(text(f, "fw_ver"), "2.40.7000");
	assert_string_equal(text(f, "psid"), "MT_1090120019");
	assert_string_equal(text(f, "pci_device_id"), "1003"); /* 4099 */
	assert_string_equal(text(f, "node_guid"), "7cfe:9003:00be:d010");
	assert_string_equal(text(f, "node_type"), "CA");
	assert_int_equal(num(f, "ports"), 2);
	assert_null(fact_text(f, "vendor_id")); /* 0x02c9 is no PCI id */
	/* but it is the verbs attributes' vendor id, kept as such */
	assert_string_equal(text(f, "ib_vendor_id"), "02c9");
	f = port(&p, "mlx4_0", 2);
	assert_string_equal(text(f, "state"), "ACTIVE");
	assert_int_equal(num(f, "max_mtu"), 4096);
	assert_int_equal(num(f, "active_mtu"), 1024);
	assert_string_equal(text(f, "link_layer"), "Ethernet");
	assert_int_equal(num(f, "lid"), 0);
	assert_null(fact_get(f, sym_intern_cstr("gid_count"))); /* no -v */
	fact_base_free(p.fb);

	/* A container that sees only one of eight VFs. */
	p = parse(
		"ibv_devinfo",
		SAMPLES
		"ibv_devinfo/k8s-rdma-dp-8-cx3-vf-failed-to-open-device-in-container.txt",
		NULL);
	assert_int_equal(count(&p, "hca"), 1);
	assert_string_equal(text(find(&p, "hca", "name", "mlx4_2"),
				 "pci_device_id"),
			    "1004");
	f = port(&p, "mlx4_2", 1);
	assert_int_equal(num(f, "lid"), 1);
	assert_int_equal(num(f, "sm_lid"), 2);
	assert_string_equal(text(f, "link_layer"), "InfiniBand");
	assert_int_equal(count(&p, "tool_error"), 7);
	f = nth(&p, "tool_error", 0);
	assert_string_equal(text(f, "tool"), "ibv_devinfo");
	assert_string_equal(text(f, "message"), "Failed to open device");
	fact_base_free(p.fb);

	/* No provider: the warning and "No IB devices found". */
	p = parse(
		"ibv_devinfo",
		SAMPLES
		"ibv_devinfo/dsx-infra-pr5251-no-providers-no-ib-devices-found.txt",
		NULL);
	assert_int_equal(count(&p, "hca"), 0);
	assert_int_equal(count(&p, "tool_error"), 2);
	assert_string_equal(
		text(nth(&p, "tool_error", 0), "message"),
		"libibverbs: Warning: couldn't open config directory '/etc/libibverbs.d'.");
	assert_string_equal(text(nth(&p, "tool_error", 1), "message"),
			    "No IB devices found");
	fact_base_free(p.fb);

	p = parse(
		"ibv_devinfo",
		SAMPLES
		"ibv_devinfo/pib-2-no-userspace-driver-no-ib-devices-found.txt",
		NULL);
	assert_int_equal(count(&p, "tool_error"), 3);
	assert_non_null(strstr(text(nth(&p, "tool_error", 0), "message"),
			       "no userspace device-specific driver found"));
	fact_base_free(p.fb);

	/* A pasted session: rdma link, then ibv_devinfo's ABI warning. */
	p = parse_file(
		"ibv_devinfo",
		SAMPLES
		"ibv_devinfo/sriov-cni-348-bnxt-abi-mismatch-in-pod-no-devices.txt",
		NULL);
	assert_int_equal(count(&p, "hca"), 0);
	assert_non_null(
		strstr(text(nth(&p, "tool_error", 0), "message"),
		       "Driver bnxt_re does not support the kernel ABI of 6"));
	/* libibverbs printed the warning (its "libibverbs: " prefix),
	 * ibv_devinfo the rest */
	assert_string_equal(text(nth(&p, "tool_error", 0), "tool"),
			    "libibverbs");
	assert_string_equal(text(find(&p, "tool_error", "message",
				      "No IB devices found"),
				 "tool"),
			    "ibv_devinfo");
	fact_base_free(p.fb);
}

static void test_ibv_devinfo_verbose(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* RoCE LAG, 2X lanes at 50 Gb/s (HDR code 64): 100 Gb/s. */
	p = parse("ibv_devinfo",
		  SAMPLES
		  "ibv_devinfo_v/cn-notes-cx6dx-roce-lag-bond-vv-2x-50g.txt",
		  NULL);
	f = find(&p, "hca", "name", "mlx5_bond_0");
	assert_string_equal(text(f, "fw_ver"), "22.36.1010");
	assert_string_equal(text(f, "pci_device_id"), "101d"); /* 4125 */
	assert_string_equal(text(f, "psid"), "MT_0000000359");
	assert_int_equal(line_of(f, "fw_ver"), 6);
	f = port(&p, "mlx5_bond_0", 1);
	assert_string_equal(text(f, "width"), "2X");
	assert_string_equal(text(f, "speed"), "HDR");
	assert_true(num(f, "rate_gbps") == 100);
	assert_string_equal(text(f, "phys_state"), "LINKUP");
	assert_string_equal(text(f, "link_layer"), "Ethernet");
	assert_int_equal(num(f, "gid_count"), 4);
	assert_int_equal(count(&p, "gid"), 4);
	f = nth(&p, "gid", 3);
	assert_int_equal(num(f, "index"), 3);
	assert_string_equal(text(f, "gid"), "::ffff:27.105.179.3");
	assert_string_equal(text(f, "type"), "RoCE v2");
	assert_string_equal(text(f, "hca"), "mlx5_bond_0");
	assert_string_equal(text(nth(&p, "gid", 0), "type"), "RoCE v1");
	fact_base_free(p.fb);

	/* GUIDs replaced by "-", cut before the port section. */
	p = parse("ibv_devinfo",
		  SAMPLES
		  "ibv_devinfo_v/infinity-5-cx3-mlx4-guids-elided-partial.txt",
		  NULL);
	f = find(&p, "hca", "name", "mlx4_2");
	assert_string_equal(text(f, "fw_ver"), "2.33.5100");
	assert_string_equal(text(f, "psid"), "MT_1080120023");
	assert_int_equal(num(f, "ports"), 2);
	assert_null(fact_text(f, "node_guid"));
	assert_int_equal(count(&p, "port"), 0);
	fact_base_free(p.fb);
}

static void test_ibv_devices(void **state)
{
	struct parsed p;

	(void)state;
	p = parse("ibv_devices",
		  SAMPLES "ibv_devices/mooncake-105-mlx5-bond-healthy.txt",
		  NULL);
	assert_int_equal(count(&p, "hca"), 2);
	/* In the form sysfs and ibv_devinfo print, so the sources agree. */
	assert_string_equal(text(find(&p, "hca", "name", "mlx5_bond_1"),
				 "node_guid"),
			    "08c0:eb03:00da:0fc2");
	fact_base_free(p.fb);
}

static void test_rdma(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* InfiniBand PFs (with LIDs) and one RoCE port (with a netdev). */
	p = parse("rdma",
		  SAMPLES
		  "rdma_link/openshift-sriov-635-cx6-mixed-ib-eth-disabled.txt",
		  NULL);
	assert_int_equal(count(&p, "port"), 9);
	f = port(&p, "mlx5_1", 1);
	assert_string_equal(text(f, "state"), "DOWN");
	assert_string_equal(text(f, "phys_state"), "DISABLED");
	assert_int_equal(num(f, "lid"), 65535);
	assert_int_equal(num(f, "sm_lid"), 0);
	assert_string_equal(text(f, "link_layer"), "InfiniBand");
	f = port(&p, "mlx5_4", 1);
	assert_string_equal(text(f, "netdev"), "enp97s0f0");
	assert_string_equal(text(f, "link_layer"), "Ethernet");
	assert_string_equal(text(f, "state"), "ACTIVE");
	assert_int_equal(num(port(&p, "mlx5_8", 1), "lid"), 36);
	fact_base_free(p.fb);

	/* Trailing spaces; netdevs named p1p1, p1p2. */
	p = parse_file("rdma",
		       SAMPLES
		       "rdma_link/3fs-pr283-cx6dx-roce-p1p1-trailing-space.txt",
		       NULL);
	assert_int_equal(count(&p, "port"), 2);
	assert_string_equal(text(port(&p, "mlx5_1", 1), "netdev"), "p1p2");
	assert_int_equal(count(&p, "pcie"), 0);
	fact_base_free(p.fb);

	/* The old "0/1: ibp0s9/1:" form, after an "rdma dev" line. */
	p = parse(
		"rdma",
		SAMPLES
		"rdma_link/linux-rdma-old-rdmatool-index-prefix-port2-unknown.txt",
		NULL);
	f = find(&p, "hca", "name", "ibp0s9");
	assert_string_equal(text(f, "fw_ver"), "4.4.9999");
	assert_string_equal(text(f, "node_type"), "CA");
	f = port(&p, "ibp0s9", 1);
	assert_string_equal(text(f, "state"), "ACTIVE");
	assert_int_equal(num(f, "lid"), 13397);
	assert_int_equal(num(f, "sm_lid"), 49151);
	f = port(&p, "ibp0s9", 2);
	assert_null(fact_text(f, "state")); /* UNKNOWN is no port state */
	fact_base_free(p.fb);

	p = parse_file(
		"rdma",
		SAMPLES
		"rdma_dev/linux-rdma-2021-cx3pro-ib-rdma-dev-fedora34-working.txt",
		NULL);
	f = find(&p, "hca", "name", "ibp9s0f0");
	assert_string_equal(text(f, "fw_ver"), "2.42.5000");
	assert_string_equal(text(f, "node_guid"), "1c34:da03:0007:7a60");
	assert_int_equal(line_of(f, "fw_ver"), 8);
	fact_base_free(p.fb);
}

static void test_ibdev2netdev(void **state)
{
	static const char verbose[] =
		"# ibdev2netdev -v\n"
		"0000:02:00.0 mlx5_0 (MT4115 - MT1523X04353) CX456A - ConnectX-4 QSFP fw 12.23.1020 port 1 (ACTIVE) ==> ib0 (Up)\n"
		"0000:02:00.5 mlx5_2 (MT4116 - NA)  fw 12.23.1020 port 1 (DOWN  ) ==> ib2 (Down)\n"
		"0000:b8:00.1 mlx5_13 (MT4123 - MCX653106A-ECAT) ConnectX-6 VPI adapter card, 100Gb/s (HDR100, EDR IB and 100GbE), dual-port QSFP56 fw 20.26.4012 port 1 (ACTIVE) ==> ib4 (Up) (o2ib)\n";
	struct parsed p;
	const struct fact *f;
	int score;

	(void)state;
	/* column -t realigned, with the poster's comments. */
	p = parse(
		"ibdev2netdev",
		SAMPLES
		"ibdev2netdev/imbue-cluster-health-4-h100-cx7-ib-cx6-eth-annotated.txt",
		NULL);
	assert_int_equal(count(&p, "netdev"), 12);
	f = find(&p, "netdev", "name", "enp157s0f0np0");
	assert_string_equal(text(f, "hca"), "mlx5_7");
	assert_int_equal(num(f, "port"), 1);
	assert_string_equal(text(f, "state"), "Up");
	assert_string_equal(
		text(find(&p, "netdev", "name", "ibp220s0"), "state"), "Down");
	assert_string_equal(text(port(&p, "mlx5_10", 1), "netdev"), "ibp204s0");
	fact_base_free(p.fb);

	p = parse("ibdev2netdev",
		  SAMPLES
		  "ibdev2netdev/sriov-network-operator-382-vf-down-in-pod.txt",
		  NULL);
	f = find(&p, "netdev", "name", "net1");
	assert_string_equal(text(f, "hca"), "mlx5_3");
	assert_string_equal(text(f, "state"), "Down");
	fact_base_free(p.fb);

	/* -v: PCI address, model, firmware and port state as well. */
	assert_ptr_equal(format_detect(verbose, sizeof(verbose) - 1, &score),
			 format_find("ibdev2netdev"));
	p = parse_text("ibdev2netdev", verbose, sizeof(verbose) - 1, "v", NULL);
	f = find(&p, "hca", "name", "mlx5_0");
	assert_string_equal(text(f, "pci"), "0000:02:00.0");
	assert_string_equal(text(f, "model"), "MT4115");
	assert_string_equal(text(f, "fw_ver"), "12.23.1020");
	assert_string_equal(text(port(&p, "mlx5_2", 1), "state"), "DOWN");
	assert_string_equal(text(port(&p, "mlx5_0", 1), "state"), "ACTIVE");
	f = find(&p, "hca", "name", "mlx5_13");
	assert_string_equal(text(f, "fw_ver"), "20.26.4012");
	assert_string_equal(text(f, "pci"), "0000:b8:00.1");
	assert_string_equal(text(find(&p, "netdev", "name", "ib4"), "state"),
			    "Up");
	fact_base_free(p.fb);
}

static void test_pingpong(void **state)
{
	static const char failed[] =
		"$ ibv_rc_pingpong -d mlx5_1 -g 3 node2\n"
		"  local address:  LID 0x0000, QPN 0x00018b, PSN 0x92d03e, GID fe80::e42:a1ff:fe01:1531\n"
		"  remote address: LID 0x0000, QPN 0x000089, PSN 0x76ea22, GID fe80::6eb3:11ff:fe88:a4d0\n"
		"Failed to modify QP to RTR\n"
		"Couldn't connect to remote QP\n";
	static const char missing[] = "$ ibv_rc_pingpong -d mlx5_9\n"
				      "IB device mlx5_9 not found\n";
	struct parsed p;
	const struct fact *f;

	(void)state;
	p = parse(
		"pingpong",
		SAMPLES
		"ibv_rc_pingpong/gpu-rdma-report-cx5-cx6-25g-roce-success.txt",
		NULL);
	f = nth(&p, "perftest", 0);
	assert_string_equal(text(f, "test"), "ibv_rc_pingpong");
	assert_true(num(f, "bw_avg_gbps") == 8635.66 / 1000);
	assert_true(num(f, "lat_typical_us") == 7.59);
	/* 8192000 bytes = 4096 bytes x 1000 iters x 2 directions */
	assert_int_equal(num(f, "msg_size"), 4096);
	assert_int_equal(line_of(f, "bw_avg_gbps"), 7);
	assert_null(fact_text(f, "error"));
	fact_base_free(p.fb);

	p = parse_text("pingpong", failed, sizeof(failed) - 1, "f", NULL);
	f = nth(&p, "perftest", 0);
	assert_string_equal(text(f, "hca"), "mlx5_1");
	assert_string_equal(text(f, "error"), "Failed to modify QP to RTR");
	assert_null(fact_get(f, sym_intern_cstr("bw_avg_gbps")));
	/* its local address was printed: mlx5_1 was opened, an adapter */
	assert_int_equal(line_of(find(&p, "hca", "name", "mlx5_1"), "name"),
			 1);
	fact_base_free(p.fb);

	/* a device not found is no adapter (rc_pingpong.c: "IB device %s
	 * not found" before any address is printed) */
	p = parse_text("pingpong", missing, sizeof(missing) - 1, "m", NULL);
	assert_int_equal(count(&p, "hca"), 0);
	fact_base_free(p.fb);
}

static void test_transcript(void **state)
{
	static const char session[] =
		"[root@node7 ~]# ethtool -i ens1f0np0\n"
		"driver: mlx5_core\n"
		"version: 5.8-1.0.1\n"
		"firmware-version: 16.35.2000 (MT_0000000008)\n"
		"bus-info: 0000:3b:00.0\n"
		"[root@node7 ~]# perfquery -C mlx5_0 -P 1\n"
		"# Port counters: Lid 4 port 1 (CapMask: 0x5A00)\n"
		"SymbolErrorCounter:..............12\n"
		"[root@node7 ~]# uname -r\n"
		"4.18.0-372.9.1.el8.x86_64\n";
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* rdma link says ACTIVE, ibv_devinfo finds no device, and
	 * ib_write_bw none either: three commands, three formats. */
	p = parse(
		"transcript",
		SAMPLES
		"ibv_devinfo/sriov-cni-348-bnxt-abi-mismatch-in-pod-no-devices.txt",
		NULL);
	f = port(&p, "bnxt_re2", 1);
	assert_string_equal(text(f, "state"), "ACTIVE");
	assert_int_equal(line_of(f, "state"), 8); /* the paste's line */
	assert_string_equal(text(port(&p, "bnxt_re1", 1), "phys_state"),
			    "DISABLED");
	f = find(&p, "tool_error", "message", "No IB devices found");
	assert_string_equal(text(f, "tool"), "ibv_devinfo");
	assert_int_equal(line_of(f, "message"), 13);
	f = nth(&p, "perftest", 0);
	assert_string_equal(text(f, "test"), "ib_write_bw");
	assert_string_equal(text(f, "error"), "Did not detect devices");
	assert_int_equal(line_of(f, "error"), 18);
	fact_base_free(p.fb);

	/* lspci | grep, then rdma link show. */
	p = parse("transcript",
		  SAMPLES
		  "rdma_link/3fs-pr283-cx6dx-roce-p1p1-trailing-space.txt",
		  NULL);
	f = find(&p, "pcie", "pci", "0000:86:00.1");
	assert_string_equal(text(f, "class"), "0200");
	assert_string_equal(text(port(&p, "mlx5_0", 1), "netdev"), "p1p1");
	fact_base_free(p.fb);

	/* uname, rdma dev twice, lspci | grep. */
	p = parse(
		"transcript",
		SAMPLES
		"rdma_dev/linux-rdma-2021-cx3pro-ib-rdma-dev-fedora34-working.txt",
		NULL);
	assert_int_equal(count(&p, "hca"), 2);
	assert_string_equal(text(find(&p, "hca", "name", "ibp8s0f0"), "fw_ver"),
			    "2.42.5000");
	assert_string_equal(
		text(find(&p, "pcie", "pci", "0000:09:00.0"), "description"),
		"Mellanox Technologies MT27520 Family [ConnectX-3 Pro]");
	fact_base_free(p.fb);

	/* The command line names what the output lacks: the interface of
	 * ethtool -i, the device of perfquery. */
	p = parse_text("transcript", session, sizeof(session) - 1, "s", NULL);
	f = find(&p, "netdev", "name", "ens1f0np0");
	assert_string_equal(text(f, "fw_ver"), "16.35.2000");
	assert_int_equal(line_of(f, "fw_ver"), 4);
	f = find(&p, "counter", "name", "SymbolErrorCounter");
	assert_string_equal(text(f, "hca"), "mlx5_0");
	assert_int_equal(num(f, "value"), 12);
	assert_int_equal(line_of(f, "value"), 8);
	fact_base_free(p.fb);

	/* "modinfo mlx5_core|grep version:": the module is the last word
	 * before the pipe, not the grep's pattern. */
	p = parse_file(
		"transcript",
		SAMPLES
		"modinfo/starlingx-arm64-cx6lx-modinfo-mlx5_core-version-5.8.txt",
		NULL);
	f = find(&p, "driver", "version", "5.8-1.0.1");
	assert_string_equal(text(f, "name"), "mlx5_core");
	fact_base_free(p.fb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ibstatus),
		cmocka_unit_test(test_ibv_devinfo),
		cmocka_unit_test(test_ibv_devinfo_verbose),
		cmocka_unit_test(test_ibv_devices),
		cmocka_unit_test(test_rdma),
		cmocka_unit_test(test_ibdev2netdev),
		cmocka_unit_test(test_pingpong),
		cmocka_unit_test(test_transcript),
	};

	return cmocka_run_group_tests_name("parsers (verbs tools)", tests, NULL,
					   NULL);
}
