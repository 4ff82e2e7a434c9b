/* The parsers of the commands pastes show besides the RDMA tools: uname,
 * ulimit, modprobe, ip, ethtool IFACE, devlink health, show_gids, mst
 * status -v, sminfo, rdma statistic, files of /sys/class/infiniband,
 * openibd status, rxe_cfg status and rping, each on real outputs (tests/fixtures/samples/<format>/, each with its
 * source). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include "parsed.h"

static struct parsed from_text(const char *format, const char *text)
{
	return parse_text(format, text, strlen(text), "t.txt", NULL);
}

static void test_uname_ulimit(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* uname -a in markdown backticks under a heading */
	p = parse_file("transcript",
		       SAMPLES "uname/node-exporter-966-uname-a-lspci.txt", NULL);
	f = nth(&p, "host", 0);
	assert_string_equal(text(f, "kernel"), "3.10.0-693.21.1.el7.x86_64");
	assert_string_equal(text(f, "arch"), "x86_64");
	assert_string_equal(text(f, "hostname"), "hostname");
	fact_base_free(p.fb);

	/* the command and its output each in a markdown code span, and
	 * the output without kernel-name and node name (coreutils prints
	 * the fields asked for in fixed order: "uname -rvmo" gives this);
	 * github.com/namjaejeon/ksmbd/issues/485 */
	p = from_text("transcript",
		      "Kernel:\n"
		      "`uname -a`\n"
		      "`6.5.0-41-generic #41~22.04.2-Ubuntu SMP "
		      "PREEMPT_DYNAMIC Mon Jun  3 11:32:55 UTC 2 x86_64 "
		      "x86_64 x86_64 GNU/Linux`\n");
	f = nth(&p, "host", 0);
	assert_string_equal(text(f, "kernel"), "6.5.0-41-generic");
	assert_string_equal(text(f, "arch"), "x86_64");
	assert_null(fact_text(f, "hostname"));
	fact_base_free(p.fb);
	/* "Linux" then the release: uname -srv */
	p = from_text("uname", "Linux 5.4.0-94-generic #106-Ubuntu SMP Thu "
			       "Jan 6 23:58:14 UTC 2022\n");
	assert_string_equal(text(nth(&p, "host", 0), "kernel"),
			    "5.4.0-94-generic");
	assert_null(fact_text(nth(&p, "host", 0), "hostname"));
	fact_base_free(p.fb);
	/* prose with a number and a '#' is no uname line */
	p = from_text("uname", "2.0 #3 is the one we run\n");
	assert_int_equal(count(&p, "host"), 0);
	fact_base_free(p.fb);

	p = parse("ulimit",
		  SAMPLES "ulimit/gardenlinux-170-max-locked-memory-65536.txt",
		  NULL);
	f = find(&p, "limits", "scope", "process");
	assert_int_equal(num(f, "memlock_kb"), 65536);
	fact_base_free(p.fb);

	/* ulimit -a says unlimited, limits.conf too */
	p = parse_file("transcript",
		       SAMPLES "ulimit/ompi-users-2012-09-ulimit-a-unlimited.txt",
		       NULL);
	assert_int_equal(num(find(&p, "limits", "scope", "process"),
			     "memlock_kb"),
			 -1);
	assert_int_equal(line_of(find(&p, "limits", "scope", "process"),
				 "memlock_kb"),
			 40);
	fact_base_free(p.fb);

	/* ulimit -l alone prints the bare value */
	p = from_text("ulimit", "unlimited\n");
	assert_int_equal(num(nth(&p, "limits", 0), "memlock_kb"), -1);
	fact_base_free(p.fb);
	p = from_text("ulimit", "64\n");
	assert_int_equal(num(nth(&p, "limits", 0), "memlock_kb"), 64);
	fact_base_free(p.fb);
}

static void test_modprobe(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	p = parse_file("transcript",
		       SAMPLES "modprobe/al2023-uname-lsmod-grep-mlx-empty-"
			       "modprobe-fatal.txt",
		       NULL);
	f = find(&p, "tool_error", "module", "mlx5_ib");
	assert_string_equal(text(f, "tool"), "modprobe");
	assert_int_equal(line_of(f, "message"), 16);
	assert_non_null(find(&p, "tool_error", "module", "mlx5_core"));
	fact_base_free(p.fb);

	/* kmod's "could not insert" names the module in quotes */
	p = from_text("modprobe",
		       "modprobe: ERROR: could not insert 'mlx5_ib': Unknown "
		       "symbol in module, or unknown parameter (see dmesg)\n");
	assert_string_equal(text(nth(&p, "tool_error", 0), "module"),
			    "mlx5_ib");
	fact_base_free(p.fb);
}

static void test_ip_ethtool(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	p = parse("ip", SAMPLES "ip/magnate3-ipv6-ip-addr-ib0-ens6.txt", NULL);
	f = find(&p, "netdev", "name", "ib0");
	assert_int_equal(num(f, "mtu"), 2044);
	assert_string_equal(text(f, "link_type"), "infiniband");
	assert_string_equal(text(f, "state"), "Up");
	assert_string_equal(text(f, "addr"), "172.162.42.56/24");
	assert_string_equal(text(find(&p, "netdev", "name", "ens6"),
				 "link_type"),
			    "ether");
	fact_base_free(p.fb);

	/* the same output through "| grep inet": the interface lines are
	 * gone, and each IPv4 address names its interface by its label,
	 * last on the line (iproute2 print_addrinfo()); a secondary address
	 * of one interface keeps the first, an alias label its interface */
	p = from_text("ip",
		      "    inet 172.17.24.56/24 brd 172.17.242.255 scope global "
		      "ens6\n"
		      "    inet 172.162.42.56/24 brd 172.16.242.255 scope global "
		      "ib0\n"
		      "    inet 172.162.42.57/24 scope global secondary ib0:1\n"
		      "    inet6 fe80::1/64 scope link \n");
	assert_int_equal(count(&p, "netdev"), 2);
	assert_string_equal(text(find(&p, "netdev", "name", "ib0"), "addr"),
			    "172.162.42.56/24");
	assert_string_equal(text(find(&p, "netdev", "name", "ens6"), "addr"),
			    "172.17.24.56/24");
	fact_base_free(p.fb);

	p = parse_file("transcript",
		       SAMPLES "ip/magnate3-sriov-roce-ip-link-ens6-vfs.txt",
		       NULL);
	assert_int_equal(num(find(&p, "netdev", "name", "ens6"), "mtu"), 1500);
	assert_int_equal(count(&p, "netdev"), 1); /* vf lines are no links */
	fact_base_free(p.fb);

	/* quoted in a reply on the list: "> " before every line */
	p = parse_file("transcript",
		       SAMPLES "ethtool/linux-rdma-2024-06-hbl_en-ethtool-eth0-"
			       "quoted.txt",
		       NULL);
	f = find(&p, "netdev", "name", "eth0");
	assert_int_equal(num(f, "speed_mbps"), 100000);
	assert_int_equal(line_of(f, "speed_mbps"), 24);
	fact_base_free(p.fb);
}

static void test_devlink_show_gids_mst(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	p = parse_file("transcript",
		       SAMPLES "devlink_health/netdev-2019-bnxt_en-fw_fatal-"
			       "error-1-recover-1.txt",
		       NULL);
	f = find(&p, "health", "reporter", "fw_fatal");
	assert_string_equal(text(f, "pci"), "0000:af:00.0");
	assert_string_equal(text(f, "state"), "healthy");
	assert_int_equal(num(f, "errors"), 1);
	assert_int_equal(num(f, "recovers"), 1);
	fact_base_free(p.fb);

	p = parse_file("transcript",
		       SAMPLES "show_gids/nvidia-tools-image-pod-vf-mlx5_3-roce-"
			       "v1-v2.txt",
		       NULL);
	assert_int_equal(count(&p, "gid"), 4);
	f = nth(&p, "gid", 3);
	assert_string_equal(text(f, "gid"),
			    "0000:0000:0000:0000:0000:ffff:c0a8:0a02");
	assert_string_equal(text(f, "type"), "RoCE v2");
	assert_int_equal(num(f, "index"), 3);
	assert_string_equal(text(find(&p, "netdev", "name", "net1"), "hca"),
			    "mlx5_3");
	fact_base_free(p.fb);

	/* each port's rows are its non-zero GIDs, with its interface */
	p = parse_file("transcript",
		       SAMPLES "show_gids/cn-notes-hrn3-and-mlx5-bond-two-"
			       "devices.txt",
		       NULL);
	f = port(&p, "hrn3_bond_0", 1);
	assert_int_equal(num(f, "gid_count"), 2);
	assert_string_equal(text(f, "netdev"), "bond0");
	f = port(&p, "mlx5_bond_0", 1);
	assert_int_equal(num(f, "gid_count"), 2);
	assert_string_equal(text(f, "netdev"), "bond1");
	assert_int_equal(line_of(f, "gid_count"), 9);
	fact_base_free(p.fb);

	p = parse_file("transcript",
		       SAMPLES "mst_status/ibm-power-cx4-mst-status-flint-burn-"
			       "then-query.txt",
		       NULL);
	assert_string_equal(text(find(&p, "hca", "name", "mlx5_0"), "pci"),
			    "0004:01:00.0");
	assert_string_equal(text(find(&p, "netdev", "name", "ib1"), "hca"),
			    "mlx5_1");
	/* flint --device names the device; the burn said what the flash
	 * held, the query after it what it holds now: the later is the
	 * image's, citing the query, and the change keeps the earlier */
	f = find(&p, "fw_image", "pci", "/dev/mst/mt4115_pciconf0");
	assert_string_equal(text(f, "fw_ver"), "12.17.2010");
	assert_int_equal(line_of(f, "fw_ver"), 38);
	f = find(&p, "change", "field", "fw_ver");
	assert_string_equal(text(f, "was"), "12.16.1006");
	assert_string_equal(text(f, "now"), "12.17.2010");
	assert_int_equal(num(f, "snapshot"), 2);
	assert_int_equal(line_of(f, "now"), 38);
	fact_base_free(p.fb);

	/* BlueField rows: several interfaces, or none and no RDMA device */
	p = from_text("mst_status",
		       "BlueField3(rev:1)       /dev/mst/mt41692_pciconf0.1   "
		       "03:00.1   mlx5_1          net-p1,net-pf1hpf,net-en3f1pf1sf0"
		       "       -1\n"
		       "BlueField2(rev:1)       /dev/mst/mt41686_pciconf0     "
		       "10:00.0                                           -1\n");
	assert_string_equal(text(find(&p, "netdev", "name", "p1"), "pci"),
			    "0000:03:00.1");
	assert_int_equal(count(&p, "hca"), 1);
	fact_base_free(p.fb);
}

static void test_sminfo_statistic_sysfs(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	p = parse_file("transcript",
		       SAMPLES "sminfo/magnate3-k8s-rdma-sriov-ibstat-init-"
			       "sminfo-master.txt",
		       NULL);
	f = nth(&p, "sm", 0);
	assert_int_equal(num(f, "lid"), 4);
	assert_string_equal(text(f, "state"), "SMINFO_MASTER");
	assert_int_equal(num(f, "priority"), 15);
	/* prose naming ibstat is no command line */
	assert_int_equal(count(&p, "listing"), 0);
	fact_base_free(p.fb);

	/* the one-line form as a mail wrapped it, then -p's */
	p = parse_file("transcript",
		       SAMPLES "rdma_statistic/netdev-2019-07-iproute2-stat-"
			       "show-wrapped-and-p.txt",
		       NULL);
	assert_int_equal(count(&p, "counter"), 42);
	f = find(&p, "counter", "name", "np_cnp_sent");
	assert_string_equal(text(f, "hca"), "mlx5_0");
	assert_int_equal(num(f, "port"), 1);
	assert_int_equal(line_of(f, "value"), 9);
	fact_base_free(p.fb);

	p = parse_file("transcript",
		       SAMPLES "sysfs_attr/rxe-k8s-notes-cat-port-state-ibstat-"
			       "rdma-link.txt",
		       NULL);
	f = port(&p, "rxe0", 1);
	assert_string_equal(text(f, "state"), "ACTIVE");
	assert_int_equal(line_of(f, "state"), 5);
	fact_base_free(p.fb);

	/* "path:value" lines of grep . FILES */
	p = from_text("sysfs_attr",
		       "/sys/class/infiniband/mlx5_0/ports/1/phys_state:5: "
		       "LinkUp\n"
		       "/sys/class/infiniband/mlx5_0/ports/1/rate:100 Gb/sec (4X "
		       "EDR)\n"
		       "/sys/class/infiniband/mlx5_0/ports/1/lid:0x1a\n"
		       "/sys/class/infiniband/mlx5_0/fw_ver:16.35.2000\n");
	f = port(&p, "mlx5_0", 1);
	assert_string_equal(text(f, "phys_state"), "LINKUP");
	assert_int_equal(num(f, "rate_gbps"), 100);
	assert_string_equal(text(f, "speed"), "EDR");
	assert_int_equal(num(f, "lid"), 26);
	assert_string_equal(text(find(&p, "hca", "name", "mlx5_0"), "fw_ver"),
			    "16.35.2000");
	fact_base_free(p.fb);
}

static void test_openibd_status(void **state)
{
	static const char *const mofed[] = { "rdma_ucm", "ib_ipoib", "mlx5_core",
					     "mlx5_ib",	 "ib_umad",  "mlxfw" };
	struct parsed p;

	(void)state;
	p = parse("openibd_status",
		  SAMPLES "openibd_status/hpc-notes-azure-hb-mlx5_ib0-mofed-"
			  "status.txt",
		  NULL);
	assert_int_equal(count(&p, "module"), 10);
	for (size_t i = 0; i < sizeof(mofed) / sizeof(*mofed); i++)
		assert_non_null(find(&p, "module", "name", mofed[i]));
	assert_int_equal(count(&p, "listing"), 0);
	fact_base_free(p.fb);
	/* OFED 1.x's headings under service; the prose after the list is
	 * no module */
	p = parse_file("transcript",
		       SAMPLES "openibd_status/ompi-users-2009-10700-ofed-1.x-"
			       "mthca-mlx4-service-status.txt",
		       NULL);
	assert_int_equal(count(&p, "module"), 15);
	assert_int_equal(line_of(find(&p, "module", "name", "ib_mthca"), "name"),
			 18);
	assert_int_equal(count(&p, "module"), (size_t)p.facts);
	fact_base_free(p.fb);
	/* a page that put a blank line after every line */
	p = from_text("openibd_status",
		      "HCA driver loaded\n\nThe following OFED modules are "
		      "loaded:\n\nrdma_ucm\n\nmlx4_core\n\nmlx4_en\n\n"
		      "HCA is the adapter.\n");
	assert_int_equal(count(&p, "module"), 3);
	fact_base_free(p.fb);
}

static void test_rxe_cfg(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* empty Speed, NMTU and IPv4_addr cells: the row is read by the
	 * header's columns, so rxe0 is the RDEV, not the speed */
	p = parse("rxe_cfg",
		  SAMPLES "rxe_cfg/mellanox-howto-soft-roce-status-mlx4_en-"
			  "rxe0.txt",
		  NULL);
	f = find(&p, "netdev", "name", "eth0");
	assert_string_equal(text(f, "hca"), "rxe0");
	assert_string_equal(text(f, "driver"), "mlx4_en");
	assert_null(fact_get(f, sym_intern_cstr("mtu")));
	assert_non_null(find(&p, "hca", "name", "rxe0"));
	fact_base_free(p.fb);

	/* no rxe device yet: interfaces, and no hca */
	p = parse("rxe_cfg",
		  SAMPLES "rxe_cfg/mail-2020-dell-t630-no-rxe-devices-"
			  "10gige.txt",
		  NULL);
	assert_int_equal(count(&p, "netdev"), 7);
	assert_int_equal(count(&p, "hca"), 0);
	f = find(&p, "netdev", "name", "p1p1");
	assert_int_equal(num(f, "mtu"), 9000);
	assert_string_equal(text(f, "driver"), "bnx2x");
	assert_null(fact_get(f, sym_intern_cstr("hca")));
	assert_int_equal(num(find(&p, "netdev", "name", "virbr0-nic"), "mtu"),
			 1500);
	fact_base_free(p.fb);
}

static void test_rping(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* the server's "wait for RDMA_READ_ADV state 10" after the client
	 * disconnected ends every run: no error */
	p = parse("rping",
		  SAMPLES "rping/magnate3-mlx5-roce-server-v-C3-"
			  "disconnect.txt",
		  NULL);
	f = find(&p, "perftest", "test", "rping");
	assert_null(fact_get(f, sym_intern_cstr("error")));
	fact_base_free(p.fb);

	/* the same wait before any disconnect is a failed step
	 * (rping.c: fprintf(stderr, "wait for RDMA_READ_ADV state %d\n")) */
	p = from_text("rping", "server ping data: rdma-ping-0: ABCDEFGHIJ\n"
			       "wait for RDMA_READ_ADV state 10\n");
	assert_string_equal(text(find(&p, "perftest", "test", "rping"),
				 "error"),
			    "wait for RDMA_READ_ADV state 10");
	fact_base_free(p.fb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uname_ulimit),
		cmocka_unit_test(test_modprobe),
		cmocka_unit_test(test_ip_ethtool),
		cmocka_unit_test(test_devlink_show_gids_mst),
		cmocka_unit_test(test_sminfo_statistic_sysfs),
		cmocka_unit_test(test_openibd_status),
		cmocka_unit_test(test_rxe_cfg),
		cmocka_unit_test(test_rping),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
