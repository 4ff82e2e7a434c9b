/* The block layer (collectors/parsers/blocks.c): pastes cut at prompts,
 * fences, headings and banners; commands tied to their device and filter;
 * listings and empty outputs as evidence; kernel lines found in any block,
 * behind quote marks and emphasis, with wrapped lines joined. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include "collectors/parsers/blocks.h"
#include "engine/diag.h"
#include "collectors/parsers/logscan.h"
#include "engine/kb.h"
#include "parsed.h"

/* Cuts text into blocks with kb/ loaded (the kernel-log scan needs its
 * signatures and log sources). */
static struct parsed paste(const char *text, struct blocks_summary *sum)
{
	struct parsed p = { fact_base_new(), 0 };
	struct diag *d = diag_new();
	struct emit e;

	if (kb_load_dir(p.fb, "kb", "kb", d) < 0)
		fail_msg("kb/ does not load");
	emit_init(&e, p.fb, "paste.txt");
	e.scan = logscan_new(p.fb, d);
	p.facts = blocks_parse(&e, text, strlen(text), sum);
	logscan_free(e.scan);
	diag_free(d);
	return p;
}

static const struct fact *listing_of(const struct parsed *p, const char *tool)
{
	return find(p, "listing", "tool", tool);
}

/* How many facts of kind have field equal to value (find() fails on
 * none). */
static size_t matching(const struct parsed *p, const char *kind,
		       const char *field, const char *value)
{
	struct value v = value_cstr(value);
	size_t n;

	fact_base_lookup(p->fb, sym_intern_cstr(kind), sym_intern_cstr(field),
			 &v, &n);
	return n;
}

static void test_filter_and_device(void **state)
{
	static const char input[] =
		"[root@node7 ~]# ibstat mlx5_0 | grep -i rate\n"
		"\t\tRate: 100\n"
		"\t\tRate: 25\n"
		"[root@node7 ~]# lsmod | grep -e mlx5 -e ib_ | less\n"
		"mlx5_core            2469888  0\n"
		"ib_core               528384  1 mlx5_core\n"
		"$ lsmod | grep -v mlx\n"
		"ib_uverbs 1000 0\n";
	struct parsed p;
	const struct fact *f;

	(void)state;
	p = paste(input, NULL);
	/* the CA named on the command line, its ports in order */
	assert_int_equal(num(port(&p, "mlx5_0", 1), "rate_gbps"), 100);
	assert_int_equal(num(port(&p, "mlx5_0", 2), "rate_gbps"), 25);
	assert_int_equal(line_of(port(&p, "mlx5_0", 2), "rate_gbps"), 3);
	f = listing_of(&p, "ibstat");
	assert_string_equal(text(f, "hca"), "mlx5_0");
	assert_string_equal(text(f, "filter"), "^(?=.*(?i:(?:rate)))");
	/* two -e patterns are one alternation; less passes every line */
	f = listing_of(&p, "lsmod");
	assert_string_equal(text(f, "filter"), "^(?=.*(?:(?:mlx5)|(?:ib_)))");
	assert_int_equal(num(f, "count"), 2);
	assert_string_equal(text(f, "command"),
			    "lsmod | grep -e mlx5 -e ib_ | less");
	/* grep -v hides what it matches: no listing of it */
	assert_int_equal(count(&p, "listing"), 2);
	fact_base_free(p.fb);

	/* ibv_devinfo -d DEV | grep: the device and its ports */
	p = paste("$ ibv_devinfo -d mlx5_2 | grep -e fw_ver -e state\n"
		  "\tfw_ver:\t\t\t\t28.39.1002\n"
		  "\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n"
		  "\t\t\tstate:\t\t\tPORT_DOWN (1)\n",
		  NULL);
	assert_string_equal(text(find(&p, "hca", "name", "mlx5_2"), "fw_ver"),
			    "28.39.1002");
	assert_string_equal(text(port(&p, "mlx5_2", 2), "state"), "DOWN");
	fact_base_free(p.fb);
}

static void test_grep_syntax(void **state)
{
	static const char input[] =
		"$ lsmod | grep 'mlx5\\|ib_core'\n"
		"mlx5_core 1 0\n"
		"$ lsmod | egrep -w 'mlx5_ib|rdma_cm'\n"
		"rdma_cm 1 0\n"
		"$ lsmod | grep -F mlx5.core\n"
		"$ lsmod | head -3\n"
		"Module Size Used by\n";
	struct parsed p;
	size_t n;
	const uint32_t *ids;

	(void)state;
	p = paste(input, NULL);
	ids = fact_base_of_kind(p.fb, sym_intern_cstr("listing"), &n);
	/* head drops lines: three listings, not four */
	assert_int_equal(n, 3);
	assert_string_equal(text(fact_base_get(p.fb, ids[0]), "filter"),
			    "^(?=.*(?:(?:mlx5|ib_core)))");
	assert_string_equal(text(fact_base_get(p.fb, ids[1]), "filter"),
			    "^(?=.*(?:\\b(?:mlx5_ib|rdma_cm)\\b))");
	assert_string_equal(text(fact_base_get(p.fb, ids[2]), "filter"),
			    "^(?=.*(?:(?:mlx5\\.core)))");
	assert_int_equal(num(fact_base_get(p.fb, ids[2]), "count"), 0);
	fact_base_free(p.fb);
}

static void test_empty_outputs(void **state)
{
	static const char input[] = "$ ibstat\n"
				   "$ ibstat\n"
				   "ibpanic: [1234] main: stat of IB device "
				   "'mlx5_0' failed: No such file or directory\n"
				   "$ ibv_devices\n"
				   "    device          \t   node GUID\n"
				   "    ------          \t----------------\n";
	struct parsed p;

	(void)state;
	p = paste(input, NULL);
	/* an empty ibstat lists no CA; one that failed lists nothing */
	assert_int_equal(count(&p, "listing"), 2);
	assert_int_equal(num(listing_of(&p, "ibstat"), "count"), 0);
	assert_int_equal(line_of(listing_of(&p, "ibstat"), "count"), 1);
	assert_int_equal(num(listing_of(&p, "ibv_devices"), "count"), 0);
	fact_base_free(p.fb);

	/* ibv_devices pasted without its command, header and nothing else */
	p = paste("    device                 node GUID\n"
		  "    ------              ----------------\n",
		  NULL);
	assert_int_equal(num(listing_of(&p, "ibv_devices"), "count"), 0);
	fact_base_free(p.fb);

	/* a provider's warning above the header: the header is printed
	 * once the list was read, so the empty list stands
	 * (github.com/SoftRoCE/rxe-dev/issues/74) */
	p = paste("root@arria10:~# ibv_devices\n"
		  "libibverbs: Warning: Driver rxe does not support the kernel "
		  "ABI of 1 (supports 2 to 2) for device "
		  "/sys/class/infiniband/rxe0\n"
		  "    device                 node GUID\n"
		  "    ------              ----------------\n"
		  "root@arria10:~#\n",
		  NULL);
	assert_int_equal(num(listing_of(&p, "ibv_devices"), "count"), 0);
	assert_string_equal(text(nth(&p, "tool_error", 0), "tool"),
			    "libibverbs");
	fact_base_free(p.fb);

	/* ibv_devinfo's "No IB devices found" says its list is empty
	 * (NVIDIA/dsx-infra-controller PR 5251); an error instead of
	 * the list says nothing of the devices */
	p = paste("  root@scout:~# ibv_devinfo\n"
		  "  libibverbs: Warning: couldn't open config directory "
		  "'/etc/libibverbs.d'.\n"
		  "  No IB devices found\n",
		  NULL);
	assert_int_equal(num(listing_of(&p, "ibv_devinfo"), "count"), 0);
	fact_base_free(p.fb);
	p = paste("$ ibv_devinfo\n"
		  "Failed to get IB devices list: Function not implemented\n",
		  NULL);
	assert_int_equal(count(&p, "listing"), 0);
	fact_base_free(p.fb);
}

static void test_cuts(void **state)
{
	static const char input[] =
		"Hi, after the upgrade the port is down.\n"
		"\n"
		"## ibv_devinfo\n"
		"```\n"
		"user@host:~$ ibstat\n"
		"hca_id:\tmlx5_0\n"
		"\tfw_ver:\t\t\t\t16.35.2000\n"
		"\t\tport:\t1\n"
		"\t\t\tstate:\t\t\tPORT_DOWN (1)\n"
		"```\n"
		"==> /sys/class/infiniband/mlx5_0/ports/1/phys_state <==\n"
		"3: Disabled\n"
		"rdma link show\n"
		"link mlx5_0/1 state DOWN physical_state DISABLED netdev ens1\n";
	struct blocks_summary sum;
	struct parsed p;
	const struct fact *f;

	(void)state;
	p = paste(input, &sum);
	/* ibv_devinfo pasted under the label ibstat is read as what it is */
	assert_string_equal(text(find(&p, "hca", "name", "mlx5_0"), "fw_ver"),
			    "16.35.2000");
	f = port(&p, "mlx5_0", 1);
	assert_string_equal(text(f, "state"), "DOWN");
	/* the banner's path names the device, port and attribute */
	assert_string_equal(text(f, "phys_state"), "DISABLED");
	assert_int_equal(line_of(f, "phys_state"), 12);
	/* a command echoed without a prompt, above output of its kind */
	assert_string_equal(text(f, "netdev"), "ens1");
	f = find(&p, "block", "format", "rdma");
	assert_string_equal(text(f, "command"), "rdma link show");
	assert_int_equal(num(f, "first"), 14);
	assert_int_equal(sum.understood, 3);
	assert_true(sum.blocks > sum.understood);
	assert_non_null(strstr(sb_str(&sum.detail), "ignored"));
	assert_null(sum.format);
	blocks_summary_release(&sum);
	fact_base_free(p.fb);
}

static void test_kernel_lines_anywhere(void **state)
{
	static const char input[] =
		"Hello, the NIC drops after a while.  Here is what dmesg "
		"says:\n"
		"> [  136.059123] mlx5_core 0000:3b:00.0 ens1f0np0: Link down\n"
		"**[  140.100001] mlx5_core 0000:3b:00.0 ens1f0np0: Link up**\n"
		"Any idea?  The firmware is 16.35.2000.\n"
		"[ 4321.000001] mlx5_core 0000:3b:00.0: mlx5_cmd_out_err:838:(pid "
		"1): CREATE_QP(0x500) op_mod(0x0) failed,\n"
		"status bad parameter(0x3), syndrome (0x1), err(-22)\n"
		"\n"
		"Device #1:\n"
		"----------\n"
		"  Device Type:      ConnectX5\n"
		"  Part Number:      MCX556A-ECA_Ax\n"
		"  PSID:             MT_0000000008\n"
		"  PCI Device Name:  0000:3b:00.0\n"
		"  Versions:         Current        Available\n"
		"     FW             16.35.2000     N/A\n";
	struct blocks_summary sum;
	struct parsed p;
	const struct fact *f;
	size_t n;

	(void)state;
	p = paste(input, &sum);
	fact_base_of_kind(p.fb, sym_intern_cstr("log"), &n);
	assert_int_equal(n, 3);
	/* behind a quote mark, under emphasis */
	f = nth(&p, "log", 0);
	assert_string_equal(text(f, "device"), "0000:3b:00.0");
	assert_string_equal(text(nth(&p, "log", 1), "time"), "[  140.100001]");
	/* the line a mail client wrapped, joined before it is judged */
	f = nth(&p, "log", 2);
	assert_non_null(strstr(text(f, "text"), "failed, status bad parameter"));
	/* the mlxup-style block after the log is read too */
	assert_string_equal(text(find(&p, "fw_image", "pci", "0000:3b:00.0"),
				 "psid"),
			    "MT_0000000008");
	assert_int_equal(num(find(&p, "log_event", "signature", "MLX5E-LINK-DOWN"),
			     "count"),
			 1);
	blocks_summary_release(&sum);
	fact_base_free(p.fb);
}

static void test_two_stamped_lines_and_prose(void **state)
{
	static const char input[] =
		"We see this on three nodes since Monday.\n"
		"[   12.004420] mlx5_ib: Unknown symbol ib_register_device (err "
		"-22)\n"
		"[   12.004431] mlx5_ib: Unknown symbol ib_query_port (err -22)\n"
		"Is the OFED install broken?\n"
		"Thanks.\n";
	struct blocks_summary sum;
	struct parsed p;

	(void)state;
	p = paste(input, &sum);
	assert_int_equal(count(&p, "log"), 2);
	assert_true(sum.understood >= 1);
	assert_int_equal(num(find(&p, "log_event", "signature",
				  "MOD-UNKNOWN-SYMBOL"),
			     "count"),
			 2);
	blocks_summary_release(&sum);
	fact_base_free(p.fb);
}

static void test_snapshots_in_order(void **state)
{
	static const char input[] = "$ ibstat mlx5_0\n"
				    "CA 'mlx5_0'\n"
				    "\tPort 1:\n"
				    "\t\tState: Active\n"
				    "\t\tRate: 100\n"
				    "$ ibstat mlx5_0\n"
				    "CA 'mlx5_0'\n"
				    "\tPort 1:\n"
				    "\t\tState: Down\n"
				    "\t\tRate: 100\n"
				    "$ ibstat mlx5_0\n"
				    "CA 'mlx5_0'\n"
				    "\tPort 1:\n"
				    "\t\tState: Active\n";
	struct parsed p;
	const struct fact *f;

	(void)state;
	p = paste(input, NULL);
	/* a flapping port does not look stable: each change, in order */
	assert_int_equal(count(&p, "change"), 2);
	f = nth(&p, "change", 0);
	assert_string_equal(text(f, "entity"), "mlx5_0/1");
	assert_string_equal(text(f, "was"), "ACTIVE");
	assert_string_equal(text(f, "now"), "DOWN");
	assert_int_equal(line_of(f, "now"), 9);
	f = nth(&p, "change", 1);
	assert_string_equal(text(f, "now"), "ACTIVE");
	assert_int_equal(num(f, "snapshot"), 3);
	fact_base_free(p.fb);
	/* the latest output gives the port its state, citing its line */
	p = paste("$ ibstat mlx5_0\nCA 'mlx5_0'\n\tPort 1:\n\t\tState: Active\n"
		  "$ ibstat mlx5_0\nCA 'mlx5_0'\n\tPort 1:\n\t\tState: Down\n",
		  NULL);
	f = find(&p, "port", "hca", "mlx5_0");
	assert_string_equal(text(f, "state"), "DOWN");
	assert_int_equal(line_of(f, "state"), 8);
	assert_int_equal(matching(&p, "port", "state", "ACTIVE"), 0);
	assert_string_equal(text(nth(&p, "change", 0), "was"), "ACTIVE");
	fact_base_free(p.fb);
}

static void test_real_pastes(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* lsmod | grep mlx printed nothing, then modprobe cannot find the
	 * modules (a kernel without Mellanox drivers) */
	p = parse_file("transcript",
		       SAMPLES "modprobe/al2023-uname-lsmod-grep-mlx-empty-"
			       "modprobe-fatal.txt",
		       NULL);
	f = listing_of(&p, "lsmod");
	assert_int_equal(num(f, "count"), 0);
	assert_string_equal(text(f, "filter"), "^(?=.*(?:(?:mlx)))");
	assert_string_equal(text(find(&p, "kconfig", "name",
				      "CONFIG_MLX4_INFINIBAND"),
				 "value"),
			    "n");
	assert_string_equal(text(nth(&p, "host", 0), "kernel"),
			    "6.1.102-108.177.amzn2023.x86_64");
	fact_base_free(p.fb);

	/* prose and fences around fragments of one lspci -vv */
	p = parse_file("transcript",
		       "tests/fixtures/corpus/gh/lspci--rpi-pcie-143-cx3-"
		       "lnkcap-x4-lnksta-5gts-x1-fragments.txt",
		       NULL);
	assert_int_equal(count(&p, "pcie"), 1);
	assert_int_equal(num(nth(&p, "pcie", 0), "sta_width"), 1);
	assert_int_equal(num(nth(&p, "pcie", 0), "cap_width"), 4);
	fact_base_free(p.fb);
}

/* A paste read with the kb's application messages scanned too. */
static struct parsed app_paste(const char *text_in)
{
	struct parsed p = { fact_base_new(), 0 };
	struct emit e;

	if (kb_load_dir(p.fb, "kb", "kb", NULL) < 0)
		fail_msg("kb/ does not load");
	emit_init(&e, p.fb, "paste.txt");
	e.app_scan = logscan_new_for(p.fb, "app_message", NULL);
	p.facts = blocks_parse(&e, text_in, strlen(text_in), NULL);
	logscan_free(e.app_scan);
	return p;
}

static void test_quotes_and_notes(void **state)
{
	/* ls -l /dev/infiniband from sriov-network-device-plugin#342
	 * (github.com/k8snetworkplumbingwg/sriov-network-device-plugin/
	 * issues/342), quoted three levels deep and indented once more, as
	 * replies quote it, with a note after a value */
	static const char input[] =
		"On Mon, someone wrote:\n"
		">>> root@old-mofed-test-pod:/# ll /dev/infiniband\n"
		">>> total 0\n"
		">>> crw-------  1 root root 231,  64 Apr  5 06:17 issm0\n"
		"> > > crw-rw-rw-  1 root root  10,  56 Apr  5 06:17 rdma_cm\n"
		"    >> crw-------  1 root root 231,   0 Apr  5 06:17 umad0\n"
		">>> crw-rw-rw-  1 root root 231, 192 Apr  5 06:17 uverbs0   "
		"<-- only this one\n"
		"\n"
		"$ ibv_devices\n"
		"    device                 node GUID\n"
		"    ------              ----------------\n"
		"    mlx5_0              ec0d9a0300a1b2c3 ------>>> \xe8\xbf\x99\xe6\x98\xaf\n";
	struct parsed p;

	(void)state;
	p = paste(input, NULL);
	assert_int_equal(count(&p, "devnode"), 4);
	assert_string_equal(text(find(&p, "devnode", "name", "uverbs0"), "path"),
			    "/dev/infiniband/uverbs0");
	assert_non_null(find(&p, "devnode", "name", "rdma_cm"));
	assert_non_null(find(&p, "devnode", "name", "umad0"));
	/* "ll DIR" is no known command: the content shows the format, and
	 * only a command line makes a listing complete */
	assert_int_equal(matching(&p, "listing", "tool", "devnodes"), 0);
	/* the note after the GUID is not part of it */
	assert_non_null(find(&p, "hca", "name", "mlx5_0"));
	assert_int_equal(num(listing_of(&p, "ibv_devices"), "count"), 1);
	fact_base_free(p.fb);

	/* "==>" is ibdev2netdev's own arrow, and iblinkinfo's "==>" is
	 * followed by a number: neither is a note */
	p = paste("$ ibdev2netdev\n"
		  "mlx5_0 port 1 ==> ib0 (Up)\n"
		  "mlx5_1 port 1 ==> ib1 (Down)\n",
		  NULL);
	assert_string_equal(text(find(&p, "netdev", "name", "ib1"), "state"),
			    "Down");
	fact_base_free(p.fb);

	/* an arrow that starts a line points at no value: Open MPI's
	 * help-mpi-runtime.txt indents its own, quoted in a reply */
	p = app_paste("but then!\n"
		      ">   PML add procs failed\n"
		      ">   --> Returned \"Unreachable\" (-12) instead of "
		      "\"Success\" (0)\n");
	assert_non_null(find(&p, "app_error", "message",
			     "OMPI-RETURNED-INSTEAD-OF-SUCCESS"));
	fact_base_free(p.fb);
	/* ...whatever the length of its shaft */
	p = app_paste("  ---> ibv_reg_mr failed on mlx5_0: Bad address\n");
	assert_non_null(find(&p, "app_error", "call", "ibv_reg_mr"));
	fact_base_free(p.fb);
}

static void test_devnodes_listed(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* plain ls, from rdma-core#1060 (github.com/linux-rdma/rdma-core/
	 * pull/1060): the container sees two of four uverbs devices */
	p = paste("# ls /dev/infiniband/\n"
		  "rdma_cm  ucm0  ucm2  uverbs0  uverbs2\n",
		  NULL);
	assert_int_equal(count(&p, "devnode"), 5);
	f = listing_of(&p, "devnodes");
	assert_int_equal(num(f, "count"), 5);
	assert_null(fact_text(f, "hca"));
	fact_base_free(p.fb);

	/* one name alone under its command, from NixOS/nixpkgs#74283
	 * (github.com/NixOS/nixpkgs/pull/74283) */
	p = paste("[ogle@stcg-us-0005-11:~]$ ls /dev/infiniband\n"
		  "uverbs0\n",
		  NULL);
	assert_int_equal(count(&p, "devnode"), 1);
	assert_int_equal(num(listing_of(&p, "devnodes"), "count"), 1);
	fact_base_free(p.fb);

	/* a glob lists only what it matches; a lone module name is no
	 * device file */
	p = paste("$ ls /dev/infiniband/umad*\n"
		  "/dev/infiniband/umad0  /dev/infiniband/umad1\n"
		  "\n"
		  "The following OFED modules are loaded:\n"
		  "\n"
		  "  rdma_cm\n"
		  "  ib_core\n",
		  NULL);
	assert_int_equal(count(&p, "devnode"), 2);
	assert_int_equal(matching(&p, "listing", "tool", "devnodes"), 0);
	fact_base_free(p.fb);
}

static void test_ifconfig(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* net-tools 2.x, from open-mpi/ompi#6184 (github.com/open-mpi/ompi/
	 * pull/6184) */
	p = paste("[user]$ ifconfig -a\n"
		  "em1: flags=4163<UP,BROADCAST,RUNNING,MULTICAST>  mtu 1500\n"
		  "        inet 10.209.45.130  netmask 255.255.252.0  broadcast "
		  "10.209.47.255\n"
		  "        inet6 fe80::8218:44ff:feec:fc6c  prefixlen 64  scopeid "
		  "0x20<link>\n"
		  "        ether 80:18:44:ec:fc:6c  txqueuelen 1000  (Ethernet)\n"
		  "        RX packets 2262114589  bytes 2756557418627 (2.5 TiB)\n"
		  "\n"
		  "em2: flags=4098<BROADCAST,MULTICAST>  mtu 1500\n"
		  "        ether 80:18:44:ec:fc:6d  txqueuelen 1000  (Ethernet)\n",
		  NULL);
	f = find(&p, "netdev", "name", "em1");
	assert_int_equal(num(f, "mtu"), 1500);
	assert_string_equal(text(f, "addr"), "10.209.45.130/22");
	assert_string_equal(text(f, "state"), "Up");
	assert_string_equal(text(f, "link_type"), "ether");
	assert_string_equal(text(find(&p, "netdev", "name", "em2"), "state"),
			    "Down");
	fact_base_free(p.fb);

	/* net-tools 1.60, as a book prints it (Chris Tyler, "Fedora Linux",
	 * O'Reilly 2006, ch. 5: booksonline.com.ua/view.php?book=154037&
	 * page=47) */
	p = paste("$ /sbin/ifconfig\n"
		  "eth0 Link encap:Ethernet HWaddr 00:0D:56:33:D7:18\n"
		  "inet addr:172.16.97.100 Bcast:172.16.97.255 "
		  "Mask:255.255.255.0\n"
		  "inet6 addr: fe80::20d:56ff:fe33:d718/64 Scope:Link\n"
		  "UP BROADCAST RUNNING MULTICAST MTU:1500 Metric:1\n"
		  "RX packets:331 errors:0 dropped:0 overruns:0 frame:0\n",
		  NULL);
	f = find(&p, "netdev", "name", "eth0");
	assert_int_equal(num(f, "mtu"), 1500);
	assert_string_equal(text(f, "addr"), "172.16.97.100/24");
	assert_string_equal(text(f, "link_type"), "ether");
	fact_base_free(p.fb);
}

static void test_unstamped_oops(void **state)
{
	/* lines of a real report (Max Gurtovoy, linux-nvme 2023-02, the
	 * sample tests/fixtures/samples/dmesg/linux-block-2023-cx5-...)
	 * without their timestamps, as a patch's commit message quotes
	 * them, under "kernel: " tags and one quote level */
	static const char input[] =
		"The failover crashes:\n"
		"\n"
		" BUG: kernel NULL pointer dereference, address: "
		"0000000000000010\n"
		" #PF: supervisor read access in kernel mode\n"
		" #PF: error_code(0x0000) - not-present page\n"
		" PGD 0 P4D 0\n"
		" Oops: 0000 [#1] PREEMPT SMP PTI\n"
		" CPU: 17 PID: 518 Comm: kworker/17:1H Tainted: G S          E"
		"      6.2.0-rc4+ #224\n"
		" Hardware name: Supermicro SYS-6018R-WTR/X10DRW-i, BIOS 2.0 "
		"12/17/2015\n"
		" Workqueue: kblockd nvme_requeue_work [nvme_core]\n"
		" Call Trace:\n"
		"  nvme_rdma_queue_rq+0x194/0xa20 [nvme_rdma]\n"
		"\n"
		"> kernel: mlx5_core 0000:02:00.0 ens2f0np0: Link down\n"
		"node17 kernel: mlx5_core 0000:02:00.0 ens2f0np0: Link up\n"
		"Running kernel: 6.2.0\n";
	struct blocks_summary sum;
	struct parsed p;
	const struct fact *f;

	(void)state;
	p = paste(input, &sum);
	assert_non_null(find(&p, "host", "kernel", "6.2.0-rc4+"));
	/* and the one host the syslog prefix names */
	assert_non_null(find(&p, "host", "hostname", "node17"));
	assert_int_equal(count(&p, "host"), 2);
	assert_non_null(find(&p, "module", "name", "nvme_core"));
	/* a reliable frame of the call trace runs in a loaded module */
	assert_non_null(find(&p, "module", "name", "nvme_rdma"));
	assert_non_null(find(&p, "log_event", "signature", "KERNEL-OOPS"));
	/* an oops names no device in its prefix */
	f = find(&p, "log", "text",
		 "Hardware name: Supermicro SYS-6018R-WTR/X10DRW-i, BIOS 2.0 "
		 "12/17/2015");
	assert_non_null(f);
	assert_null(fact_text(f, "device"));
	/* the syslog tag without its date, with and without its host */
	f = find(&p, "log", "text",
		 "mlx5_core 0000:02:00.0 ens2f0np0: Link down");
	assert_string_equal(text(f, "device"), "0000:02:00.0");
	f = find(&p, "log", "text", "mlx5_core 0000:02:00.0 ens2f0np0: Link up");
	assert_string_equal(text(f, "host"), "node17");
	/* a capitalised word before "kernel:" is prose */
	assert_int_equal(matching(&p, "log", "text", "6.2.0"), 0);
	blocks_summary_release(&sum);
	fact_base_free(p.fb);
}

static void test_csh_limit(void **state)
{
	/* the Open MPI FAQ's check for csh users ("limit | grep
	 * memorylocked", open-mpi.org/faq/?category=openfabrics#ib-locked-
	 * pages), answered as tcsh's plim() prints it */
	struct parsed p;

	(void)state;
	p = paste("% limit | grep memorylocked\n"
		  "memorylocked 3500000 kbytes\n",
		  NULL);
	assert_int_equal(num(nth(&p, "limits", 0), "memlock_kb"), 3500000);
	fact_base_free(p.fb);
	p = paste("Here is what limit says:\n\nmemorylocked unlimited\n", NULL);
	assert_int_equal(num(nth(&p, "limits", 0), "memlock_kb"), -1);
	fact_base_free(p.fb);
}

/* The host a prompt names, as the shells' default prompts print it
 * (bash's PS1 "\\u@\\h:\\w\\$" and RHEL's "[\\u@\\h \\W]\\$",
 * tcsh's "%m:%~ %"); two hosts in one paste name none, nor does a
 * prompt whose command runs elsewhere. */
static void test_prompt_host(void **state)
{
	static const char *const named[][2] = {
		{ "root@gpu-07.example.org:~# uname -r\n5.15.0-91-generic\n",
		  "gpu-07.example.org" },
		{ "[admin@node12 ~]$ uname -r\n4.18.0-513.el8.x86_64\n",
		  "node12" },
		{ "[15:21] queeg:~/mpi % uname -r\n2.6.18-92.el5\n", "queeg" },
		{ "(base) alice@dgx1:/data$ uname -r\n5.4.0-42-generic\n",
		  "dgx1" },
	};
	struct parsed p;

	(void)state;
	for (size_t i = 0; i < sizeof(named) / sizeof(*named); i++) {
		p = paste(named[i][0], NULL);
		assert_int_equal(matching(&p, "host", "hostname",
					  named[i][1]),
				 1);
		fact_base_free(p.fb);
	}
	/* the host's facts the outputs give carry the prompt's name: one
	 * host fact, not a kernel and a name apart (modinfo under a RHEL
	 * prompt, a blog post quoting it:
	 * shawfdong.github.io, "mlnx-en 4.1 on RHEL 7.4") */
	p = paste("[root@pulpo-osd01 ~]# modinfo mlx4_core\n"
		  "filename:       /lib/modules/3.10.0-693.2.2.el7.x86_64/"
		  "weak-updates/mlnx-en/drivers/net/ethernet/mellanox/mlx4/"
		  "mlx4_core.ko\n"
		  "version:        4.1-1.0.2\n"
		  "license:        Dual BSD/GPL\n",
		  NULL);
	assert_int_equal(count(&p, "host"), 1);
	assert_string_equal(text(nth(&p, "host", 0), "kernel"),
			    "3.10.0-693.2.2.el7.x86_64");
	assert_string_equal(text(nth(&p, "host", 0), "hostname"),
			    "pulpo-osd01");
	assert_int_equal(line_of(nth(&p, "host", 0), "hostname"), 1);
	fact_base_free(p.fb);
	/* no host in the prompt, or a client and a server */
	p = paste("$ uname -r\n5.15.0-91-generic\n"
		  "sh-5.1# uname -r\n5.15.0-91-generic\n",
		  NULL);
	assert_int_equal(matching(&p, "host", "hostname", "sh-5.1"), 0);
	assert_int_equal(count(&p, "host"), 2);
	fact_base_free(p.fb);
	p = paste("[root@client ~]# uname -r\n5.15.0-91-generic\n"
		  "[root@server ~]# uname -r\n5.15.0-91-generic\n",
		  NULL);
	assert_int_equal(matching(&p, "host", "hostname", "client"), 0);
	assert_int_equal(matching(&p, "host", "hostname", "server"), 0);
	fact_base_free(p.fb);
	/* a command run on other hosts (ssh, pdsh) prints their output: the
	 * prompt's host names none of the paste */
	p = paste("[admin@login01 ~]$ ssh gpu17 uname -r\n5.15.0-91-generic\n",
		  NULL);
	assert_int_equal(matching(&p, "host", "hostname", "login01"), 0);
	fact_base_free(p.fb);
	p = paste("[root@head ~]# sudo pdsh -w n[1-2] uname -r\n"
		  "n1: 5.15.0-91-generic\n",
		  NULL);
	assert_int_equal(matching(&p, "host", "hostname", "head"), 0);
	fact_base_free(p.fb);
	/* a prompt before output nothing reads is still no reading */
	p = paste("root@box:~# frobnicate\nhello\n", NULL);
	assert_int_equal(p.facts, 0);
	fact_base_free(p.fb);
}

/* Markdown a poster adds: emphasis around a whole line (CommonMark's
 * delimiter runs, "_x_", "**_x_**"), a command in backticks above the
 * fence its output is in, a blank line between a command and its
 * output. */
static void test_markdown_commands(void **state)
{
	/* a kernel line of tests/fixtures/samples/dmesg/cx6-ocp3-adapter-
	 * x16-slot-gen3-limited-sufficient-power-75w.txt, put in italics as
	 * GitHub posters do ("_..._") */
	static const char italic[] =
		"_[    1.445005] mlx5_core 0000:01:00.0: firmware version: "
		"20.27.446_\n";
	/* ibv_devices from weiyanhua100/rdma-examples README.md
	 * (github.com/weiyanhua100/rdma-examples), its command put above
	 * the fence in backticks and bold italics, as markdown pages do */
	static const char fenced[] =
		"**_`$ ibv_devices`_**\n"
		"\n"
		"```\n"
		"    device                 node GUID\n"
		"    ------              ----------------\n"
		"    mlx5_0              043f720300c10530\n"
		"    mlx5_1              043f720300c10531\n"
		"```\n";
	/* the same without a prompt or fence: a blank line between */
	static const char bare[] =
		"ibv_devices\n"
		"\n"
		"    device                 node GUID\n"
		"    ------              ----------------\n"
		"    mlx5_0              043f720300c10530\n";
	struct parsed p;
	const struct fact *f;

	(void)state;
	p = paste(italic, NULL);
	f = find(&p, "log", "device", "0000:01:00.0");
	assert_string_equal(text(f, "text"), "mlx5_core 0000:01:00.0: "
					     "firmware version: 20.27.446");
	assert_string_equal(text(f, "time"), "[    1.445005]");
	fact_base_free(p.fb);

	p = paste(fenced, NULL);
	/* one listing, the fenced output's: the empty block between the
	 * command and the fence is no empty ibv_devices */
	assert_int_equal(matching(&p, "listing", "tool", "ibv_devices"), 1);
	f = listing_of(&p, "ibv_devices");
	assert_int_equal(num(f, "count"), 2);
	assert_string_equal(text(f, "command"), "ibv_devices");
	fact_base_free(p.fb);

	p = paste(bare, NULL);
	f = listing_of(&p, "ibv_devices");
	assert_int_equal(num(f, "count"), 1);
	assert_string_equal(text(f, "command"), "ibv_devices");
	fact_base_free(p.fb);

	/* a grep that found nothing, in its own fence, then a fence of
	 * kernel lines: the empty listing stays (the module is not loaded)
	 * and the kernel lines are no lsmod output */
	p = paste("```\n$ lsmod | grep rdma_rxe\n```\n```\n"
		  "[   12.345678] mlx5_core 0000:01:00.0: firmware version: "
		  "16.35.2000\n```\n",
		  NULL);
	f = listing_of(&p, "lsmod");
	assert_int_equal(num(f, "count"), 0);
	assert_non_null(find(&p, "log", "device", "0000:01:00.0"));
	fact_base_free(p.fb);

	/* the same, then a fence of another lsmod's lines the grep would
	 * not pass: they are not the grep's output, and rdma_rxe stays
	 * unloaded */
	p = paste("```\n$ lsmod | grep rdma_rxe\n```\n```\n"
		  "mlx5_ib               389120  0\n"
		  "ib_uverbs             147456  1 mlx5_ib\n"
		  "ib_core               385024  2 ib_uverbs,mlx5_ib\n```\n",
		  NULL);
	f = listing_of(&p, "lsmod");
	assert_int_equal(num(f, "count"), 0);
	fact_base_free(p.fb);

	/* a paste that starts inside a fence: its close reads as an
	 * opening, and the next fence, under a command in a code span,
	 * still opens that command's output (a forum post of a CX4 Lx
	 * VF whose ENABLE_HCA timed out, then mstflint query) */
	p = paste("[ 2710.218669] mlx5_core: probe of 0000:0b:06.0 failed "
		  "with error -110\n"
		  "``` \n"
		  "### Firmware Upgrade Check\n"
		  "`# mstflint -d 0b:00.0 query`\n"
		  "```\n"
		  "Image type:            FS3\n"
		  "FW Version:            14.32.1010\n"
		  "FW Release Date:       1.12.2021\n"
		  "```\n",
		  NULL);
	f = nth(&p, "fw_image", 0);
	assert_string_equal(text(f, "pci"), "0000:0b:00.0");
	assert_string_equal(text(f, "fw_ver"), "14.32.1010");
	fact_base_free(p.fb);

	/* "* item" is a bullet, not emphasis: the line stays as it is */
	p = paste("* ibv_devices\n", NULL);
	assert_int_equal(matching(&p, "listing", "tool", "ibv_devices"), 0);
	fact_base_free(p.fb);
}

/* A pingpong's program and -d device are its command line's; both
 * addresses exchanged and nothing after is a run that never ended
 * (github.com/SoftRoCE/rxe-dev/issues/47: rc_pingpong over rxe0 hung),
 * while a run cut before the exchange shows nothing of one. */
static void test_pingpong_command(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	p = paste("[root@test]# ibv_uc_pingpong -d rxe0 -g 0 192.168.122.1\n"
		  "  local address:  LID 0x0000, QPN 0x000011, PSN 0x017d96, "
		  "GID fe80::5054:ff:fe6c:16f1\n"
		  "  remote address: LID 0x0000, QPN 0x000011, PSN 0xd7af63, "
		  "GID fe80::5054:ff:fead:b03\n",
		  NULL);
	f = nth(&p, "perftest", 0);
	assert_string_equal(text(f, "test"), "ibv_uc_pingpong");
	assert_string_equal(text(f, "hca"), "rxe0");
	assert_null(fact_text(f, "error"));
	assert_int_equal(line_of(find(&p, "hca", "name", "rxe0"), "name"), 2);
	fact_base_free(p.fb);

	p = paste("[root@test]# ibv_rc_pingpong -d rxe0 -g 0\n"
		  "  local address:  LID 0x0000, QPN 0x000011, PSN 0x017d96, "
		  "GID fe80::5054:ff:fe6c:16f1\n",
		  NULL);
	assert_int_equal(count(&p, "perftest"), 0);
	fact_base_free(p.fb);
}

/* 'lspci -s ADDR -vvv | grep LnkSta' shows no header: its lines are the
 * selected function's (pciutils lspci.c: -s selects the slots shown).  A
 * real paste from public tuning notes (code index id 1614384719); then a
 * partial selector, which names no one function. */
static void test_lspci_selected_function(void **state)
{
	static const char input[] =
		"```\n"
		" lspci -s 04:00.0 -vvv | grep LnkSta\n"
		"        LnkSta:    Speed 5GT/s, Width x8, TrErr- Train- "
		"SlotClk+ DLActive- BWMgmt- ABWMgmt-\n"
		"        LnkSta2: Current De-emphasis Level: -6dB, "
		"EqualizationComplete-, EqualizationPhase1-\n"
		"```\n"
		"$ lspci -s 17: -vv | grep LnkSta:\n"
		"\tLnkSta:\tSpeed 8GT/s, Width x16\n";
	struct parsed p;
	const struct fact *f;

	(void)state;
	p = paste(input, NULL);
	f = find(&p, "pcie", "pci", "0000:04:00.0");
	assert_int_equal(num(f, "sta_width"), 8);
	assert_int_equal(num(f, "sta_speed_gts"), 5);
	assert_int_equal(num(f, "bus"), 4);
	assert_int_equal(matching(&p, "pcie", "sta_width", "16"), 0);
	assert_int_equal(matching(&p, "pcie", "pci", "0000:17:00.0"), 0);
	fact_base_free(p.fb);
}

/* Kernel lines are found in any block, whatever prefix they kept: ice's
 * dev_err quoted without its prefix in a ticket's fence (the words of
 * drivers/net/ethernet/intel/ice/ice_sriov.c ice_set_per_vf_res(), as
 * openshift/sriov-network-operator#1185 quotes them, the message cut
 * after "SR-IOV."), a netdev_printk of ice under dmesg -T without any
 * RDMA word (ice_ethtool.c ice_set_channels(): "Cannot change channels
 * when RDMA is active"), and a pr_fmt line of a module
 * kb/log_sources.yaml knows behind its stamp; the prose around them is
 * no kernel line, nor is a bare "module: text" (how people write
 * "ib_uverbs: not loaded", which must not say ib_uverbs is loaded). */
static void test_kernel_lines_any_prefix(void **state)
{
	struct parsed p = paste(
		"With 480 CPUs the VFs cannot be created:\n"
		"\n"
		"```\n"
		"Only 0 MSI-X interrupts available for SR-IOV.\n"
		"Not enough to support minimum of 2 MSI-X interrupts per VF\n"
		"```\n"
		"\n"
		"Changing channels fails too:\n"
		"\n"
		"    [Tue Feb 11 15:00:21 2025] ice 0000:08:00.0 enp8s0f0: Cannot change channels when RDMA is active\n"
		"\n"
		"and the target says\n"
		"[ 5123.456789] nvmet_rdma: failed to create_qp ret= -12\n"
		"\n"
		"What we checked:\n"
		"ib_uverbs: not loaded (modprobe fails)\n",
		NULL);
	const struct fact *f;

	(void)state;
	find(&p, "log", "text",
	     "Only 0 MSI-X interrupts available for SR-IOV.");
	assert_string_equal(text(find(&p, "log_event", "signature",
				      "ICE-SRIOV-MSIX-EXHAUSTED"),
				 "detail"),
			    "0");
	f = find(&p, "log", "device", "0000:08:00.0");
	assert_string_equal(text(f, "time"), "Tue Feb 11 15:00:21 2025");
	find(&p, "log", "text", "nvmet_rdma: failed to create_qp ret= -12");
	for (size_t i = 0; i < count(&p, "log"); i++) {
		const char *t = text(nth(&p, "log", i), "text");

		assert_null(strstr(t, "VFs cannot be created"));
		assert_null(strstr(t, "Changing channels"));
		assert_null(strstr(t, "the target says"));
		assert_null(strstr(t, "not loaded"));
	}
	assert_int_equal(matching(&p, "module", "name", "ib_uverbs"), 0);
	/* the two driver lines without a specific signature give the
	 * generic finding: none is silent */
	assert_int_equal(count(&p, "log_event"), 3);
	fact_base_free(p.fb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter_and_device),
		cmocka_unit_test(test_grep_syntax),
		cmocka_unit_test(test_empty_outputs),
		cmocka_unit_test(test_cuts),
		cmocka_unit_test(test_kernel_lines_anywhere),
		cmocka_unit_test(test_two_stamped_lines_and_prose),
		cmocka_unit_test(test_snapshots_in_order),
		cmocka_unit_test(test_real_pastes),
		cmocka_unit_test(test_quotes_and_notes),
		cmocka_unit_test(test_devnodes_listed),
		cmocka_unit_test(test_ifconfig),
		cmocka_unit_test(test_unstamped_oops),
		cmocka_unit_test(test_csh_limit),
		cmocka_unit_test(test_prompt_host),
		cmocka_unit_test(test_markdown_commands),
		cmocka_unit_test(test_pingpong_command),
		cmocka_unit_test(test_lspci_selected_function),
		cmocka_unit_test(test_kernel_lines_any_prefix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
