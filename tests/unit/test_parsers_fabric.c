/* The parsers of fabric and link tools (parse_ibdiags.c: ibportstate and
 * ibnetdiscover -p; parse_mft.c: mlxlink and ibswinfo; parse_ucx.c:
 * ucx_info -d; parse_fi_info.c: libfabric's fi_info; parse_qperf.c: qperf;
 * parse_fabtests.c: the fabtests' result tables),
 * each on real
 * outputs (tests/fixtures/samples/<format>/ and
 * tests/fixtures/fabric_tools/, each with its source). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include "parsed.h"

#define FABRIC "tests/fixtures/fabric_tools/"

static struct parsed from_text(const char *format, const char *text)
{
	return parse_text(format, text, strlen(text), "t.txt", NULL);
}

static void test_ibportstate(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* the extended speed is the lane speed; the MLNX ext block after
	 * the PortInfo, whose LinkSpeedActive is a code, is not the port's */
	p = parse("ibportstate",
		  SAMPLES "ibportstate/heioy-books-cx3-lid3-port1-disable-"
			  "ext-speed.txt",
		  NULL);
	assert_int_equal(count(&p, "port"), 1);
	f = port(&p, "Lid 3", 1);
	assert_string_equal(text(f, "state"), "ACTIVE");
	assert_string_equal(text(f, "phys_state"), "LINKUP");
	assert_string_equal(text(f, "width"), "4X");
	assert_string_equal(text(f, "speed"), "14.0625 Gbps");
	assert_int_equal(num(f, "lid"), 3);
	assert_int_equal(num(f, "sm_lid"), 3);
	assert_int_equal(line_of(f, "state"), 7);
	fact_base_free(p.fb);

	/* "No Extended Speed": the legacy speed stands */
	p = parse("ibportstate",
		  SAMPLES "ibportstate/heioy-books-cx3-lid2-port1-no-"
			  "extended-speed.txt",
		  NULL);
	f = port(&p, "Lid 2", 1);
	assert_string_equal(text(f, "speed"), "10.0 Gbps");
	assert_int_equal(num(f, "sm_lid"), 18);
	fact_base_free(p.fb);

	/* a switch port queried by LID, Down and Disabled, no Lid field:
	 * the LID it was queried at; a DR path is kept as the node */
	p = from_text("ibportstate",
		      "# Port info: Lid 7 port 12\n"
		      "LinkState:.......................Down\n"
		      "PhysLinkState:...................Disabled\n"
		      "# Port info: DR path slid 0; dlid 0; 0,1 port 3\n"
		      "LinkState:.......................Initialize\n"
		      "ibwarn: [1234] mad_rpc: _do_madrpc failed; dport (Lid 9)\n");
	f = port(&p, "Lid 7", 12);
	assert_string_equal(text(f, "state"), "DOWN");
	assert_string_equal(text(f, "phys_state"), "DISABLED");
	assert_int_equal(num(f, "lid"), 7);
	f = port(&p, "DR path slid 0; dlid 0; 0,1", 3);
	assert_string_equal(text(f, "state"), "INIT");
	assert_null(fact_text(f, "lid"));
	assert_int_equal(count(&p, "tool_error"), 1);
	fact_base_free(p.fb);
}

static void test_ibnetdiscover(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	p = parse("ibnetdiscover",
		  SAMPLES "ibnetdiscover/ncar-ops-tracking-toolkit-p-fdr-sdr-"
			  "unconnected.txt",
		  NULL);
	assert_int_equal(count(&p, "port"), 3);
	f = port(&p, "localhost HCA-1", 1);
	assert_int_equal(num(f, "lid"), 44);
	assert_string_equal(text(f, "width"), "4X");
	assert_string_equal(text(f, "speed"), "FDR");
	f = port(&p, "MF0;js01ib2:SX60XX/U1", 19);
	assert_int_equal(num(f, "lid"), 2);
	assert_string_equal(text(f, "speed"), "SDR");
	/* "???": a speed not known is no value */
	f = port(&p, "r1i0s0 SW1", 19);
	assert_null(fact_text(f, "speed"));
	assert_string_equal(text(f, "width"), "4X");
	fact_base_free(p.fb);

	/* the ibnetdiscover topology form is not the ports report */
	p = from_text("ibnetdiscover",
		      "[1]\t\"H-0002c9030045f120\"[1](2c9030045f121) "
		      "\t\t# \"localhost HCA-1\" lid 44 4xFDR\n");
	assert_int_equal(count(&p, "port"), 0);
	fact_base_free(p.fb);
}

static void test_mlxlink_ibswinfo(void **state)
{
	struct parsed p;
	const struct fact *f;
	char text_buf[512];

	(void)state;
	/* the device comes from the command line (mlxlink -d mlx5_0) */
	p = parse("mlxlink",
		  SAMPLES "mlxlink/kontronn-cx6-200g-mlxlink-m-c-active.txt",
		  "mlx5_0");
	f = port(&p, "mlx5_0", 1);
	assert_string_equal(text(f, "state"), "ACTIVE");
	assert_int_equal(num(f, "rate_gbps"), 200);
	assert_string_equal(text(f, "width"), "4X");
	/* ETH_AN_FSM_ENABLE is no IB physical state */
	assert_null(fact_text(f, "phys_state"));
	assert_int_equal(count(&p, "tool_error"), 0);
	fact_base_free(p.fb);

	/* an MST path names no RDMA device; a non-zero opcode is the
	 * firmware's finding, kept with its recommendation */
	snprintf(text_buf, sizeof(text_buf),
		 "Operational Info\n----------------\n"
		 "State                           : Polling\n"
		 "Troubleshooting Info\n--------------------\n"
		 "Status Opcode                   : 13\n"
		 "Recommendation                  : Check the cable\n");
	p = parse_text("mlxlink", text_buf, strlen(text_buf), "t.txt",
		       "/dev/mst/mt4123_pciconf0");
	assert_int_equal(count(&p, "port"), 0);
	f = nth(&p, "tool_error", 0);
	assert_string_equal(text(f, "tool"), "mlxlink");
	assert_non_null(strstr(text(f, "message"), "Check the cable"));
	fact_base_free(p.fb);

	p = parse("transcript",
		  SAMPLES "ibswinfo/stanford-rc-ibswinfo-readme-qm8790-"
			  "default.txt",
		  NULL);
	f = nth(&p, "fw_image", 0);
	assert_string_equal(text(f, "part_number"), "MQM8790-HS2F");
	assert_string_equal(text(f, "psid"), "MT_0000000063");
	assert_string_equal(text(f, "fw_ver"), "27.2000.1886");
	assert_string_equal(text(f, "description"), "Jaguar Unmng IB 200");
	/* the PSU rows' indented parts are named after their PSU */
	assert_int_equal(count(&p, "sensor"), 7);
	f = find(&p, "sensor", "name", "PSU1 fan status");
	assert_string_equal(text(f, "status"), "OK");
	f = find(&p, "sensor", "name", "fan status");
	assert_int_equal(line_of(f, "status"), 35);
	fact_base_free(p.fb);
}

static void test_ucx_info(void **state)
{
	struct parsed p;

	(void)state;
	/* UCX 1.12: "Memory domain: mlx5_0", "Component: ib" */
	p = parse("ucx_info",
		  SAMPLES "ucx_info/ucx-8049-mlx5_0-rc_verbs-component-ib.txt",
		  NULL);
	assert_non_null(find(&p, "hca", "name", "mlx5_0"));
	assert_non_null(port(&p, "mlx5_0", 1));
	assert_int_equal(count(&p, "netdev"), 0);
	fact_base_free(p.fb);

	/* UCX 1.6: tcp's devices are interfaces; self's is none */
	p = parse("ucx_info",
		  SAMPLES "ucx_info/ucx-4684-self-tcp-eno1-old-layout.txt",
		  NULL);
	assert_non_null(find(&p, "netdev", "name", "eno1"));
	assert_int_equal(count(&p, "netdev"), 1);
	assert_int_equal(count(&p, "hca"), 0);
	fact_base_free(p.fb);

	/* "ib/mlx5_0": the component before the slash */
	p = from_text("ucx_info", "# Memory domain: ib/mlx5_2\n"
				  "#            component: ib\n"
				  "#   Transport: rc\n"
				  "#   Device: mlx5_2:1\n");
	assert_non_null(find(&p, "hca", "name", "mlx5_2"));
	assert_non_null(port(&p, "mlx5_2", 1));
	assert_int_equal(count(&p, "hca"), 1);
	fact_base_free(p.fb);
}

static void test_fi_info(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* libfabric 1.3: "verbs: IB-0x80fe", no domain line */
	p = parse("fi_info",
		  FABRIC "fabtests-527-libfabric13-verbs-udp-old-layout.txt",
		  NULL);
	assert_int_equal(count(&p, "fi_provider"), 3);
	f = find(&p, "fi_provider", "provider", "UDP");
	assert_string_equal(text(f, "fabric"), "UDP-IP");
	assert_string_equal(text(f, "type"), "FI_EP_DGRAM");
	assert_string_equal(text(f, "version"), "1.0");
	assert_int_equal(count(&p, "tool_error"), 0);
	fact_base_free(p.fb);

	/* "provider: verbs;ofi_rxm" then fabric, domain, ... */
	p = parse("fi_info", FABRIC "libfabric-5149-verbs-rxm-tcp-udp.txt", NULL);
	assert_int_equal(count(&p, "fi_provider"), 4);
	f = find(&p, "fi_provider", "domain", "mlx5_0");
	assert_string_equal(text(f, "provider"), "verbs;ofi_rxm");
	assert_string_equal(text(f, "protocol"), "FI_PROTO_RXM");
	assert_int_equal(line_of(f, "protocol"), 9);
	fact_base_free(p.fb);

	/* the command's -p is the provider asked for */
	p = parse("transcript", FABRIC "aws-graviton-hpc-efa-getinfo-61.txt",
		  NULL);
	f = find(&p, "tool_error", "tool", "fi_info");
	assert_int_equal(num(f, "errno"), 61);
	assert_string_equal(text(f, "provider"), "efa");
	assert_string_equal(text(f, "message"), "fi_getinfo: -61");
	assert_int_equal(count(&p, "fi_provider"), 0);
	fact_base_free(p.fb);

	p = parse("transcript", FABRIC "aws-graviton-hpc-efa-ok.txt", NULL);
	assert_int_equal(count(&p, "fi_provider"), 1);
	assert_int_equal(count(&p, "tool_error"), 0);
	fact_base_free(p.fb);

	/* fi_strerror() after the code; --provider NAME */
	p = parse("transcript", FABRIC "cscs-alps-cxi-getinfo-61-strerror.txt",
		  NULL);
	f = find(&p, "tool_error", "tool", "fi_info");
	assert_string_equal(text(f, "provider"), "cxi");
	assert_int_equal(num(f, "errno"), 61);
	fact_base_free(p.fb);
	p = parse("transcript", FABRIC "notes-verbs-msg-node-getinfo-61.txt",
		  NULL);
	f = find(&p, "tool_error", "tool", "fi_info");
	assert_string_equal(text(f, "provider"), "verbs");
	fact_base_free(p.fb);

	/* libfabric's log lines and a code that is no number are neither */
	p = from_text("fi_info",
		      "libfabric:1234:1700000000:core:core:fi_getinfo_():1385"
		      "<info> fi_getinfo: provider shm returned -61 (No data "
		      "available)\n"
		      "fi_getinfo: -61x\n"
		      "fi_getinfo: 61\n");
	assert_int_equal(p.facts, 0);
	fact_base_free(p.fb);

	/* fi_info's own messages and the -v form's YAML are no providers;
	 * the old layout's "NAME: FABRIC" stands above "version:" */
	p = from_text("fi_info",
		      "fi_info: invalid option -- 'x'\n"
		      "Usage: fi_info [OPTIONS]\n"
		      "  -p, --provider=<name>\n"
		      "---\n"
		      "fi_info:\n"
		      "    caps: [ FI_MSG, FI_RMA ]\n"
		      "    fi_ep_attr:\n"
		      "        type: FI_EP_MSG\n"
		      "verbs: IB-0xfe80000000000000\n"
		      "    version: 1.0\n"
		      "    type: FI_EP_MSG\n");
	assert_int_equal(count(&p, "fi_provider"), 1);
	f = nth(&p, "fi_provider", 0);
	assert_string_equal(text(f, "provider"), "verbs");
	fact_base_free(p.fb);
}

static void test_qperf(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* GB/sec is bytes: 4.67 GB/sec is 37.36 Gb/s */
	p = parse("qperf", FABRIC "qperf-spa-spb-rc-bw-lat-healthy.txt", NULL);
	assert_int_equal(count(&p, "perftest"), 6);
	f = find(&p, "perftest", "test", "rc_bw");
	assert_true(num(f, "bw_avg_gbps") > 37.35 &&
		    num(f, "bw_avg_gbps") < 37.37);
	f = find(&p, "perftest", "test", "rc_rdma_read_lat");
	assert_true(num(f, "lat_typical_us") > 21.39 &&
		    num(f, "lat_typical_us") < 21.41);
	assert_int_equal(count(&p, "tool_error"), 0);
	fact_base_free(p.fb);

	/* "bad test" lines; the help's list of tests is no result */
	p = parse("qperf", FABRIC "qperf-2-xrc-bad-test.txt", NULL);
	assert_int_equal(count(&p, "tool_error"), 3);
	assert_int_equal(count(&p, "perftest"), 0);
	f = nth(&p, "tool_error", 0);
	assert_string_equal(text(f, "message"),
			    "xrc_bw: bad test; try: qperf --help tests");
	fact_base_free(p.fb);

	/* a failed step ends its test, a remote error names its side, and
	 * units qperf does not print give no value */
	p = from_text("qperf", "rc_lat:\n"
			       "failed to modify QP to RTR: Invalid argument\n"
			       "server: failed to create QP: Cannot allocate "
			       "memory\n"
			       "ud_bw:\n"
			       "    bw  =  12 furlongs/sec\n");
	assert_int_equal(count(&p, "tool_error"), 2);
	f = find(&p, "perftest", "test", "rc_lat");
	assert_string_equal(text(f, "error"),
			    "failed to modify QP to RTR: Invalid argument");
	f = find(&p, "perftest", "test", "ud_bw");
	assert_null(fact_text(f, "bw_avg_gbps"));
	fact_base_free(p.fb);
}

static void test_fabtests(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* fi_pingpong: sizes and counts in size_str()'s k, m, g; -d names
	 * the domain; a ping-pong is latency-bound: no bandwidth */
	p = parse("transcript",
		  FABRIC "fi-pingpong-slingshot-cxi-server-healthy.txt", NULL);
	assert_int_equal(count(&p, "perftest_row"), 6);
	assert_int_equal(count(&p, "perftest"), 1);
	f = nth(&p, "perftest", 0);
	assert_string_equal(text(f, "test"), "fi_pingpong");
	assert_string_equal(text(f, "hca"), "cxi1");
	assert_int_equal(num(f, "msg_size"), 1048576);
	assert_null(fact_text(f, "bw_avg_gbps"));
	assert_true(num(f, "lat_typical_us") > 49.37 &&
		    num(f, "lat_typical_us") < 49.39);
	f = nth(&p, "perftest_row", 0);
	assert_int_equal(num(f, "msg_size"), 64);
	fact_base_free(p.fb);

	/* without its command the table is fabtests' */
	p = parse("fabtests", FABRIC "efa-test-sh-fi-pingpong-healthy.txt",
		  NULL);
	f = nth(&p, "perftest", 0);
	assert_string_equal(text(f, "test"), "fabtests");
	assert_int_equal(count(&p, "perftest_row"), 6);
	fact_base_free(p.fb);

	/* shared.c's and rstream's layouts (a name column, Gb/sec); a row
	 * that does not fit its header is none */
	p = from_text("fabtests",
		      "name      bytes   xfers   iters   total       time     "
		      "Gb/sec    usec/xfer\n"
		      "64_lat    64      1       100k    12m         0.52s      "
		      "0.20       2.61\n"
		      "1m_bw     1m      100     10      1g          0.10s     "
		      "85.71      97.86\n"
		      "1m_bw     1m      oops\n");
	f = nth(&p, "perftest", 0);
	assert_true(num(f, "bw_avg_gbps") > 85.70 &&
		    num(f, "bw_avg_gbps") < 85.72);
	assert_int_equal(count(&p, "perftest_row"), 2);
	f = nth(&p, "perftest_row", 0);
	assert_null(fact_text(f, "bw_avg_gbps")); /* 64_lat */
	fact_base_free(p.fb);

	/* shared.c's MB/sec is bytes (1000 is 8 Gb/s); size_str()'s one
	 * decimal; a size past long long, an inf are no row */
	p = from_text("fabtests",
		      "name bytes iters total time MB/sec usec/xfer "
		      "Mxfers/sec\n"
		      "1.5k_bw 1.5k 10 15k 0.01s 1000.00 1.50 0.66\n"
		      "x 99999999999g 10 1 0.00s 25.60 2.50 0.40\n"
		      "x 9223372036854775807 10 1 0.00s 25.60 2.50 0.40\n"
		      "x 64 10 1 0.00s inf 2.50 0.40\n");
	assert_int_equal(count(&p, "perftest_row"), 1);
	f = nth(&p, "perftest", 0);
	assert_int_equal(num(f, "msg_size"), 1536);
	assert_true(num(f, "bw_avg_gbps") > 7.99 &&
		    num(f, "bw_avg_gbps") < 8.01);
	fact_base_free(p.fb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ibportstate),
		cmocka_unit_test(test_ibnetdiscover),
		cmocka_unit_test(test_mlxlink_ibswinfo),
		cmocka_unit_test(test_ucx_info),
		cmocka_unit_test(test_fi_info),
		cmocka_unit_test(test_qperf),
		cmocka_unit_test(test_fabtests),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
