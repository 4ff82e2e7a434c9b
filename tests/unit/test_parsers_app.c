/* The application-error parser (collectors/parsers/parse_app.c) with the
 * shipped knowledge base: every kb/app_messages.yaml example yields its
 * message; the forms of NCCL's, UCX's and the other programs' messages
 * across versions give the same fields; errno texts are read back through
 * the C library; equal lines are counted; healthy real output yields
 * nothing; hostile input is bounded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include <unistd.h>

#include "collectors/collect.h"
#include "collectors/parsers/logscan.h"
#include "collectors/parsers/parse_app.h"
#include "engine/kb.h"
#include "engine/xalloc.h"
#include "appscan.h"

/* Scans text with the shipped knowledge base. */
static struct parsed scan_text(const char *text)
{
	return scan_named("test", text, strlen(text));
}

static bool has_int(const struct fact *f, const char *field, int64_t want)
{
	const struct value *v = fact_get(f, sym_intern_cstr(field));

	return v && v->type == VALUE_INT && v->i == want;
}

/* The one app_error of a one-line text. */
static const struct fact *only_error(const struct parsed *p)
{
	if (count(p, "app_error") != 1)
		fail_msg("%zu app_error facts, not 1", count(p, "app_error"));
	return nth(p, "app_error", 0);
}

static void test_every_example_matches(void **state)
{
	struct fact_base *kb = kb_base();
	struct strbuf out = STRBUF_INIT;
	size_t n;
	const uint32_t *ids =
		fact_base_of_kind(kb, sym_intern_cstr("app_message"), &n);

	(void)state;
	assert_true(n >= 30);
	for (size_t i = 0; i < n; i++) {
		const struct fact *m = fact_base_get(kb, ids[i]);
		const char *id = text(m, "id"), *ex = fact_text(m, "example");
		struct parsed p;
		bool found = false;

		if (!ex || !fact_text(m, "source") || !fact_text(m, "app")) {
			sb_printf(&out, "%s: needs an example, app and source\n",
				  id);
			continue;
		}
		p = scan_text(ex);
		for (size_t k = 0; k < count(&p, "app_error"); k++)
			found |= !strcmp(text(nth(&p, "app_error", k),
					      "message"),
					 id);
		if (!found)
			sb_printf(&out, "%s: its example yields no app_error\n",
				  id);
		done(&p);
	}
	if (out.len) {
		fprintf(stderr, "%s", sb_str(&out));
		fail_msg("some app_message examples do not match");
	}
	sb_release(&out);
	fact_base_free(kb);
}

/* The check above fails for an example its pattern does not match. */
static void test_the_check_can_fail(void **state)
{
	struct parsed p = scan_text("NET/IB : Got a completion that is fine");

	(void)state;
	assert_int_equal(count(&p, "app_error"), 0);
	done(&p);
}

static void test_ucx_memlock_sample(void **state)
{
	struct parsed p = scan_file(
		SAMPLES "app_errors/ucx-8746-memlock-64k-ibv_create_cq.txt");
	const struct fact *f = only_error(&p);

	(void)state;
	assert_string_equal(text(f, "message"), "UCX-IB-CALL-FAILED");
	assert_string_equal(text(f, "app"), "ucx");
	assert_string_equal(text(f, "call"), "ibv_create_cq");
	assert_string_equal(text(f, "device"), "mlx5_0");
	assert_true(has_int(f, "errno", 12));
	assert_string_equal(text(f, "errno_name"), "ENOMEM");
	assert_true(has_int(f, "count", 2));
	/* The sample's header describes the format; it is no log line. */
	assert_int_equal(line_of(f, "text"), 5);
	f = find(&p, "limits", "scope", "application");
	assert_true(has_int(f, "memlock_kb", 64));
	done(&p);
}

/* NCCL's completion error in the form of each release range, behind its
 * 'host:pid:tid [dev] file:line NCCL WARN' prefix. */
static void test_nccl_completion_forms(void **state)
{
	static const struct {
		const char *line;
		int status, vendor;
		const char *peer, *device;
	} forms[] = {
		/* v2.4.8 .. v2.9.9 */
		{ "n1:1:2 [0] transport/net_ib.cc:818 NCCL WARN NET/IB : Got completion with error 12, opcode 1, len 0, vendor err 129",
		  12, 129, NULL, NULL },
		/* v2.10 .. v2.19 */
		{ "n1:1:2 [0] transport/net_ib.cc:1333 NCCL WARN NET/IB : Got completion from peer 10.0.0.2<4321> with error 13, opcode 0, len 0, vendor err 136 (Send) localGid ::ffff:10.0.0.1 remoteGid ::ffff:10.0.0.2",
		  13, 136, "10.0.0.2<4321>", NULL },
		/* v2.21 */
		{ "n1:1:2 [0] transport/net_ib.cc:1909 NCCL WARN NET/IB : Got completion from peer 10.0.0.2<4321> with status=10 opcode=0 len=0 vendor err 136 (Send)",
		  10, 136, "10.0.0.2<4321>", NULL },
		/* v2.23 .. v2.27: the device at the end */
		{ "n1:1:2 [3] transport/net_ib.cc:2358 NCCL WARN NET/IB: Got completion from peer 10.0.0.2<4321> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.0.0.1 remoteGids::ffff:10.0.0.2 hca mlx5_3",
		  12, 129, "10.0.0.2<4321>", "mlx5_3" },
		/* current: status and opcode with their names */
		{ "n1:1:2 [3] transport/net_ib/p2p.cc:688 NCCL WARN NET/IB: Got completion from peer 10.0.0.2<4321> with status=transport retry counter exceeded(12) opcode=IBV_WC_SEND(0) vendor_err=129  hca mlx5_3",
		  12, 129, "10.0.0.2<4321>", "mlx5_3" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(forms); i++) {
		struct parsed p = scan_text(forms[i].line);
		const struct fact *f = only_error(&p);

		assert_string_equal(text(f, "message"),
				    "NCCL-IB-COMPLETION-ERROR");
		if (!has_int(f, "wc_status_num", forms[i].status) ||
		    !has_int(f, "vendor_err", forms[i].vendor))
			fail_msg("form %zu: status or vendor_err wrong", i);
		if (forms[i].peer)
			assert_string_equal(text(f, "peer"), forms[i].peer);
		assert_string_equal(text(f, "device"),
				    forms[i].device ? forms[i].device : "");
		done(&p);
	}
}

/* A status number, an enum name and the texts of other libraries all
 * land on kb/wc_status.yaml's name. */
static void test_wc_status_spellings(void **state)
{
	static const struct {
		const char *line, *name;
	} lines[] = {
		{ "[n1][[1,1],0][btl_openib_component.c:3644:handle_wc] from n1 to: n2 error polling LP CQ with status RECEIVER NOT READY RETRY EXCEEDED ERROR status number 13 for wr_id 2b3c opcode 0  vendor error 135 qp_idx 3",
		  "IBV_WC_RNR_RETRY_EXC_ERR" },
		{ "[1.2] [n1:1:0] rc_verbs_iface.c:124 UCX  ERROR send completion with error: remote access error [qpn 0x1a2 wrid 0x3 vendor_err 0x88]",
		  "IBV_WC_REM_ACCESS_ERR" },
		{ "[n1:1:0:1] ib_mlx5_log.c:177  Local protection error on mlx5_1:1/RoCE (synd 0x4 vend 0x56 hw_synd 0/0)",
		  "IBV_WC_LOC_PROT_ERR" },
		{ "[n1:1:0:1] ib_mlx5_log.c:177  Receive-no-ready retry count exceeded on mlx5_1:1/IB (synd 0x16 vend 0x88 hw_synd 0/0)",
		  "IBV_WC_RNR_RETRY_EXC_ERR" },
		{ " Failed status-Work Request Flushed Error (5): wr_id 0 syndrom 0xf9",
		  "IBV_WC_WR_FLUSH_ERR" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		struct parsed p = scan_text(lines[i].line);
		const struct fact *f = only_error(&p);

		assert_string_equal(text(f, "wc_status"), lines[i].name);
		done(&p);
	}
}

/* errno from its number or from its strerror text, as the C library
 * spells it; a text the library does not know gives no errno. */
static void test_errno_read_back(void **state)
{
	static const struct {
		const char *line;
		int errnum;
		const char *name;
	} lines[] = {
		{ "misc/ibvwrap.cc:187 NCCL WARN Call to ibv_modify_qp failed with error Network is unreachable",
		  101, "ENETUNREACH" },
		{ "misc/ibvwrap.cc:262 NCCL WARN Call to ibv_create_qp failed with error Cannot allocate memory errno 12",
		  12, "ENOMEM" },
		{ "Failed to get IB devices list: Function not implemented", 38,
		  "ENOSYS" },
		{ "libfabric:1:2:verbs:fabric:vrb_get_device_attrs():618<warn> ibv_query_device: No such device (19)",
		  19, "ENODEV" },
		{ "LNetError: 1:0:(o2iblnd.c:892:kiblnd_create_conn()) Can't create QP: -12, send_wr: 32634, recv_wr: 254, send_sge: 2, recv_sge: 1",
		  12, "ENOMEM" },
		{ "rdma_resolve_addr: No such device", 19, "ENODEV" },
		/* An errno printed by its name. */
		{ "libfabric:1:2::efa:av:efa_ah_alloc():147<warn> ibv_create_ah failed with EINVAL. Local GID: fe80::1, remote GID: fe80::2.",
		  22, "EINVAL" },
	};
	struct parsed p;
	const struct fact *f;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		p = scan_text(lines[i].line);
		f = only_error(&p);
		if (!has_int(f, "errno", lines[i].errnum))
			fail_msg("%s: errno not %d", lines[i].line,
				 lines[i].errnum);
		assert_string_equal(text(f, "errno_name"), lines[i].name);
		done(&p);
	}
	p = scan_text("Call to ibv_reg_mr failed with error Out of cheese");
	f = only_error(&p);
	assert_null(fact_get(f, sym_intern_cstr("errno")));
	done(&p);
}

/* NCCL's ibv_modify_qp line names the device, port, QP state and GID
 * index. */
static void test_modify_qp_fields(void **state)
{
	struct parsed p =
		scan_file(APP_FIXTURES "nccl-2013-modify-qp-timeout.txt");
	const struct fact *f = only_error(&p);

	(void)state;
	assert_string_equal(text(f, "call"), "ibv_modify_qp");
	assert_true(has_int(f, "errno", 110));
	assert_string_equal(text(f, "device"), "mlx_x");
	assert_true(has_int(f, "port", 1));
	assert_true(has_int(f, "gid_index", 3));
	assert_string_equal(text(f, "status"), "INIT");
	done(&p);
}

/* Lines behind syslog, journal, pdsh, markdown and Open MPI prefixes. */
static void test_behind_prefixes(void **state)
{
	static const char *const lines[] = {
		"Mar  3 10:01:02 node7 python[4242]: node7:4242:4300 [2] NCCL WARN NET/IB : Got completion from peer 10.0.0.2<1> with error 12, opcode 0, len 0, vendor err 129 (Send)",
		"2024-05-01T10:00:00+0000 node7 job[1]: [1714557600.1] [node7:1:0] ib_mlx5_log.c:177  Transport retry count exceeded on mlx5_0:1/RoCE (synd 0x15 vend 0x81 hw_synd 0/0)",
		"node7: Completion with error at client Failed status 12: wr_id 0 syndrom 0x81 scnt=128, ccnt=0",
		"> `[2022-01-17 16:03:57.637929] rdma.c:3769:nvmf_rdma_log_wc_status: *ERROR*: Error on CQ 0x20155a0, (qp state 1 ibv_state 6) request 0x1, type DATA, status: (12): transport retry counter exceeded`",
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		struct parsed p = scan_text(lines[i]);
		const struct fact *f = only_error(&p);

		if (!has_int(f, "wc_status_num", 12))
			fail_msg("line %zu: no status 12", i);
		done(&p);
	}
}

/* Equal lines are one fact with a count and the first line; lines that
 * differ in a value are facts of their own. */
static void test_counting(void **state)
{
	struct parsed p = scan_text(
		"Waiting for client to connect...\n"
		"misc/ibvwrap.cc:1 NCCL WARN Call to ibv_reg_mr failed with error Cannot allocate memory\n"
		"misc/ibvwrap.cc:1 NCCL WARN Call to ibv_reg_mr failed with error Cannot allocate memory\n"
		"misc/ibvwrap.cc:1 NCCL WARN Call to ibv_reg_mr failed with error Bad address\n"
		"misc/ibvwrap.cc:1 NCCL WARN Call to ibv_reg_mr failed with error Cannot allocate memory\n");
	const struct fact *enomem, *efault;

	(void)state;
	assert_int_equal(count(&p, "app_error"), 2);
	enomem = nth(&p, "app_error", 0);
	efault = nth(&p, "app_error", 1);
	assert_true(has_int(enomem, "errno", 12));
	assert_true(has_int(enomem, "count", 3));
	assert_int_equal(line_of(enomem, "text"), 2);
	assert_true(has_int(efault, "errno", 14));
	assert_true(has_int(efault, "count", 1));
	assert_int_equal(line_of(efault, "text"), 4);
	done(&p);
}


/* The families taken from the message lists of tests/appmsg, on real
 * outputs posted publicly (each file's header names its thread): perftest
 * in a pod without the device files (k8s-rdma-shared-dev-plugin#169), and
 * a port that needs a GRH failing RTR (linux-rdma/perftest#393). */
static void test_source_families_real(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	p = scan_file(SAMPLES "perftest/k8s-rdma-shared-dp-169-did-not-detect-devices-in-pod.txt");
	assert_non_null(find(&p, "app_error", "message", "VERBS-DEVICE-NOT-FOUND"));
	done(&p);
	p = scan_file(SAMPLES "perftest/perftest-393-grh-required-modify-qp-rtr.txt");
	f = find(&p, "app_error", "message", "VERBS-EXAMPLE-MODIFY-QP");
	assert_string_equal(text(f, "call"), "ibv_modify_qp");
	assert_string_equal(text(f, "status"), "RTR");
	assert_non_null(find(&p, "app_error", "message", "PERFTEST-CONNECT-QPS"));
	done(&p);
	/* perftest's form with the return code; a line that goes on past
	 * the state (Mooncake's "[Handshake] Failed to modify QP to RTR,
	 * check mtu, ...") is another program's and not this entry's. */
	p = scan_text("Failed to modify QP to INIT, ret=22\n"
		      "[Handshake] Failed to modify QP to RTR, check mtu, gid, peer lid, peer qp num\n");
	assert_int_equal(count(&p, "app_error"), 1);
	f = find(&p, "app_error", "message", "VERBS-EXAMPLE-MODIFY-QP");
	assert_true(has_int(f, "errno", 22));
	assert_string_equal(text(f, "status"), "INIT");
	done(&p);
}

/* Real healthy output of the same programs gives nothing but benign
 * context. */
static void test_healthy_outputs(void **state)
{
	static const char *const files[] = {
		APP_FIXTURES "healthy-nccl-tests-227-init.txt",
		APP_FIXTURES "healthy-ucx-6264-debug.txt",
		APP_FIXTURES "healthy-spdk-2436-listening.txt",
		SAMPLES "perftest/cn-blog-cx5-roce-ib_write_bw-bidir-98gbps-healthy.txt",
		SAMPLES "ibv_devices/mooncake-105-mlx5-bond-healthy.txt",
		SAMPLES "perftest/cn-notes-ib_send_bw-a-ud-mlx4_0-ib-lid-4.txt",
		SAMPLES "ibv_rc_pingpong/gpu-rdma-report-cx5-cx6-25g-roce-success.txt",
	};

	struct parsed p;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		p = scan_file(files[i]);
		for (size_t k = 0; k < count(&p, "app_error"); k++) {
			const char *id = text(nth(&p, "app_error", k), "message");
			const struct fact *m =
				find(&p, "app_message", "id", id);

			if (strcmp(text(m, "severity"), "benign"))
				fail_msg("%s: %s is no benign message",
					 files[i], id);
		}
		done(&p);
	}
	/* What a healthy NCCL log does say: the devices it uses. */
	p = scan_file(APP_FIXTURES "healthy-nccl-tests-227-init.txt");
	assert_string_equal(
		text(find(&p, "app_error", "message", "NCCL-IB-USING"),
		     "device"),
		"irdma0");
	done(&p);
}

/* Open MPI's help texts print their values on lines of their own: the
 * entry's 'then' pattern reads them from the lines after the hit, and no
 * further than its 'within'. */
static void test_follow_up_lines(void **state)
{
	struct parsed p =
		scan_file(APP_FIXTURES "ompi-users-2011-rdmacm-no-ip-mthca0.txt");
	const struct fact *f;

	(void)state;
	f = find(&p, "app_error", "message", "OMPI-OPENIB-RDMACM-NO-IP");
	assert_non_null(f);
	assert_string_equal(text(f, "device"), "mthca0");
	assert_true(has_int(f, "port", 1));
	assert_non_null(strstr(text(f, "detail"), "unavailable for use on mthca0:1"));
	f = find(&p, "app_error", "message", "OMPI-OPENIB-NO-CPCS");
	assert_non_null(f);
	assert_string_equal(text(f, "device"), "mthca0");
	assert_true(has_int(f, "port", 1));
	assert_int_equal(line_of(f, "text"), 8);
	done(&p);

	/* UCX dumps the failed work request on the line after the error. */
	p = scan_file(APP_FIXTURES "ucx-5199-transport-retry-exceeded.txt");
	f = nth(&p, "app_error", 0);
	assert_non_null(strstr(text(f, "detail"), "DCI QP 0xa9f wqe[0]: SEND s-e"));
	done(&p);

	/* The device line eight lines after the warning is beyond its
	 * 'within' of 6: the device stays empty. */
	p = scan_text("WARNING: There was an error initializing an OpenFabrics device.\n"
		      "\n\n\n\n\n\n\n"
		      "  Local device: mlx4_0\n");
	f = find(&p, "app_error", "message", "OMPI-OPENIB-DEVICE-INIT-ERROR");
	assert_non_null(f);
	assert_string_equal(text(f, "device"), "");
	assert_null(fact_get(f, sym_intern_cstr("detail")));
	done(&p);

	/* Within reach, the quoted help text of a mail gives device and
	 * limit (in bytes, so the application's limit is 64 KiB). */
	p = scan_text("> The OpenFabrics (openib) BTL failed to initialize while trying to\n"
		      "> allocate some locked memory.  This typically can indicate that the\n"
		      ">   Device:        mlx4_0\n"
		      ">   Memlock limit: 65536\n");
	f = find(&p, "app_error", "message", "OMPI-OPENIB-NO-LOCKED-MEMORY");
	assert_non_null(f);
	assert_string_equal(text(f, "device"), "mlx4_0");
	assert_true(has_int(find(&p, "limits", "scope", "application"),
			    "memlock_kb", 64));
	done(&p);
}

/* Open MPI's help texts as users posted them: each is known by its
 * topic's first line (tests/appmsg/ompi_help.tsv), and its value lines
 * fill the fact. */
static void test_ompi_help_texts(void **state)
{
	struct parsed p =
		scan_file(APP_FIXTURES "mfc-475-mtl-ofi-fi_domain-enosys.txt");
	const struct fact *f;

	(void)state;
	f = find(&p, "app_error", "message", "OMPI-MTL-OFI-CALL-FAILED");
	assert_non_null(f);
	assert_string_equal(text(f, "call"), "fi_domain");
	assert_true(has_int(f, "errno", 38));
	assert_int_equal(line_of(f, "text"), 14);
	f = find(&p, "app_error", "message", "OMPI-OPENIB-NO-CPCS");
	assert_non_null(f);
	assert_string_equal(text(f, "device"), "mlx5_0");
	done(&p);

	p = scan_file(APP_FIXTURES "ompi-5478-bml-unreachable-udcm.txt");
	f = find(&p, "app_error", "message", "OMPI-BML-UNREACHABLE");
	assert_non_null(f);
	assert_int_equal(line_of(f, "text"), 10);
	done(&p);

	/* An older release's wording of the first line ("at least
	 * non-excluded one") and the line after it are one message. */
	p = scan_file(APP_FIXTURES "arjuna-216-openib-no-active-ports.txt");
	f = find(&p, "app_error", "message", "OMPI-OPENIB-NO-ACTIVE-PORTS");
	assert_non_null(f);
	assert_int_equal(line_of(f, "text"), 6);
	assert_int_equal(count(&p, "app_error"), 1);
	done(&p);

	/* The notice of Open MPI 4 is one fact, from the line that names
	 * its MCA parameter, with the adapter and port below; it stays
	 * info. */
	p = scan_file(APP_FIXTURES "ompi-10693-ib-port-not-selected-mlx5_0.txt");
	f = find(&p, "app_error", "message", "OMPI-OPENIB-IB-PORT-NOT-SELECTED");
	assert_non_null(f);
	assert_string_equal(text(f, "device"), "mlx5_0");
	assert_true(has_int(f, "port", 1));
	assert_int_equal(line_of(f, "text"), 6);
	assert_int_equal(count(&p, "app_error"), 2);
	assert_string_equal(
		text(find(&p, "app_message", "id",
			  "OMPI-OPENIB-IB-PORT-NOT-SELECTED"),
		     "severity"),
		"info");
	f = find(&p, "app_error", "message", "OMPI-OPENIB-DEVICE-INIT-ERROR");
	assert_non_null(f);
	assert_string_equal(text(f, "device"), "mlx5_0");
	done(&p);

	/* An async event's name is read from its Error number line. */
	p = scan_text("The OpenFabrics stack has reported a network error event.  Open MPI\n"
		      "will try to continue, but your job may end up failing.\n"
		      "\n"
		      "  Local host:        node1\n"
		      "  MPI process PID:   4021\n"
		      "  Error number:      10 (IBV_EVENT_PORT_ERR)\n");
	f = find(&p, "app_error", "message", "OMPI-OPENIB-ASYNC-ERROR-EVENT");
	assert_non_null(f);
	assert_string_equal(text(f, "status"), "IBV_EVENT_PORT_ERR");
	done(&p);
}

/* A message that names the step, not the call, gets the entry's call; a
 * line's own call wins. */
static void test_entry_call(void **state)
{
	struct parsed p = scan_text(
		"[compute-1-13.local][[5637,1],18][../../../../../ompi/mca/btl/openib/connect/btl_openib_connect_oob.c:464:qp_create_one] error creating qp errno says Cannot allocate memory\n");
	const struct fact *f = only_error(&p);

	(void)state;
	assert_string_equal(text(f, "call"), "ibv_create_qp");
	assert_true(has_int(f, "errno", 12));
	done(&p);
	p = scan_text("[2023-04-21 09:24:15.800579] nvme_rdma.c:2196:nvme_rdma_ctrlr_construct: *ERROR*: rdma_get_devices() failed: No such device (19)\n");
	f = only_error(&p);
	assert_string_equal(text(f, "call"), "rdma_get_devices");
	assert_true(has_int(f, "errno", 19));
	done(&p);
}

/* NCCL lists the Active ports it uses, each with its link layer: every
 * one becomes a port fact; "[RO]" (relaxed ordering) is no port. */
static void test_listed_ports(void **state)
{
	struct parsed p = scan_text(
		"ai-worker01:5771:5783 [0] NCCL INFO NET/IB : Using [0]irdma0:1/RoCE [1]irdma3:1/RoCE [RO]; OOB eth0:172.16.121.86<0>\n"
		"[155] h19:5330:5330 [3] NCCL INFO NET/IB : Using [0]mlx5_1:1/IB [1]mlx5_3:2/IB ; OOB eth0:10.100.62.64<0>\n");
	const struct fact *f;

	(void)state;
	assert_int_equal(count(&p, "port"), 4);
	f = find(&p, "port", "hca", "irdma3");
	assert_non_null(f);
	assert_string_equal(text(f, "link_layer"), "Ethernet");
	assert_string_equal(text(f, "state"), "ACTIVE");
	f = find(&p, "port", "hca", "mlx5_3");
	assert_non_null(f);
	assert_true(has_int(f, "port", 2));
	assert_string_equal(text(f, "link_layer"), "InfiniBand");
	done(&p);

	/* An error line names a device but lists no port in use. */
	p = scan_text("node1:1234:1234 [0] NCCL WARN NET/IB : Unable to open device mlx5_2\n");
	assert_int_equal(count(&p, "port"), 0);
	done(&p);
}

/* Without the knowledge base there are no patterns and no facts;
 * comments, long lines and NUL bytes are bounded. */
static void test_hostile(void **state)
{
	struct parsed p = { fact_base_new(), 0 };
	struct emit e;
	char *big = xmalloc(70000);
	static const char nul[] = "Failed to get IB devices list\0: x\n"
				  "\0No IB devices found\n";

	(void)state;
	emit_init(&e, p.fb, "test");
	assert_int_equal(app_scan(&e, "No IB devices found\n", 20), 0);
	done(&p);

	p = scan_text("# Failed to get IB devices list: Function not implemented\n");
	assert_int_equal(count(&p, "app_error"), 0);
	done(&p);

	/* A match past the bytes of a line looked at is not seen. */
	memset(big, 'x', 69999);
	memcpy(big + 60000, "No IB devices found", 19);
	big[69999] = '\0';
	p = scan_text(big);
	assert_int_equal(count(&p, "app_error"), 0);
	done(&p);
	free(big);

	p = (struct parsed){ kb_base(), 0 };
	use_kb(&p, &e, "test");
	p.facts = app_scan(&e, nul, sizeof(nul) - 1);
	assert_true(count(&p, "app_error") >= 1);
	done(&p);
}

/* CRLF line ends (a paste from Windows) give the same facts. */
static void test_crlf(void **state)
{
	struct parsed p = scan_text(
		"[1.1] [h:1:0] ib_log.c:246  UCX  ERROR mlx5_0: ibv_create_cq() failed: Cannot allocate memory. Please set max locked memory (ulimit -l) to 'unlimited' (current: 64 kbytes)\r\n"
		"Failed to get IB devices list: Function not implemented\r\n");
	const struct fact *f;

	(void)state;
	assert_int_equal(count(&p, "app_error"), 2);
	f = find(&p, "app_error", "message", "LIBIBVERBS-DEVICE-LIST");
	assert_true(has_int(f, "errno", 38));
	f = find(&p, "limits", "scope", "application");
	assert_true(has_int(f, "memlock_kb", 64));
	done(&p);
}

/* The hook in collect_file: a kernel log of several pieces (read in 1 MiB
 * pieces) is scanned for application lines too, and a line past the first
 * piece cites its own line number; a file of application lines alone is
 * read as app_log. */
static void test_loose_file_hook(void **state)
{
	char path[] = "/tmp/rd-test-app-XXXXXX";
	int fd = mkstemp(path);
	FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
	struct parsed p = { kb_base(), 0 };
	struct diag *d = diag_new();
	struct collect_run *run;
	const struct fact *f;

	(void)state;
	assert_non_null(fp);
	for (int i = 1; i <= 40000; i++) {
		if (i == 30001)
			fprintf(fp, "n1:1:2 [0] transport/net_ib.cc:818 NCCL WARN NET/IB : Got completion with error 12, opcode 1, len 0, vendor err 129\n");
		else
			fprintf(fp, "[%10.6f] mlx5_core 0000:3b:00.0: an ordinary driver line, number %d, with some padding\n",
				i * 0.001, i);
	}
	fclose(fp);
	run = collect_run_new(p.fb, NULL, d, NULL, NULL);
	assert_int_equal(collect_file(run, path, NULL), 0);
	collect_finish(run);
	f = find(&p, "app_error", "message", "NCCL-IB-COMPLETION-ERROR");
	assert_int_equal(line_of(f, "text"), 30001);
	assert_true(has_int(f, "wc_status_num", 12));
	find(&p, "collector", "name", "dmesg");
	done(&p);

	p = (struct parsed){ kb_base(), 0 };
	run = collect_run_new(p.fb, NULL, d, NULL, NULL);
	assert_int_equal(
		collect_file(run, APP_FIXTURES "nccl-928-completion-error-4.txt",
			     NULL),
		0);
	collect_finish(run);
	find(&p, "collector", "name", "paste");
	assert_int_equal(count(&p, "app_error"), 3);
	done(&p);
	diag_free(d);
	unlink(path);
}

/* ---- fallback entries ---- */

/* The one app_error of text, which must come from entry id. */
static const struct fact *one_of(struct parsed *p, const char *text_in,
				 const char *id)
{
	const struct fact *f;

	*p = scan_text(text_in);
	f = only_error(p);
	assert_string_equal(text(f, "message"), id);
	return f;
}

/* A line that a specific entry matches gets that entry only, although
 * fallback entries match it too; a line no specific entry knows gets one
 * fallback fact, however many fallbacks match it. */
static void test_fallback_only_without_specific(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* openucx/ucx#8229: UCX-IB-CALL-FAILED; the generic call, errno and
	 * completion ('cqe') fallbacks would all take it. */
	f = one_of(&p,
		   "[1652739463.054681] [cn0022:4071024:0]        ib_iface.c:1035 UCX  ERROR ibv_create_cq(cqe=4096) failed: Cannot allocate memory\n",
		   "UCX-IB-CALL-FAILED");
	assert_true(has_int(f, "errno", 12));
	done(&p);
	/* ofiwg/libfabric#8256: a call, its errno text and "qp": the call
	 * fallbacks and the RDMA-object fallback match; the first in kb
	 * order that reads what it needs gives the one fact. */
	f = one_of(&p, "ibv_create_qp: Cannot allocate memory(12)\n",
		   "APP-GENERIC-VERBS-CALL-ERRNO");
	assert_string_equal(text(f, "call"), "ibv_create_qp");
	assert_string_equal(text(f, "errno_name"), "ENOMEM");
	assert_string_equal(text(f, "app"), "unknown");
	done(&p);
	/* Mellanox/nv_peer_memory#27: "failed" and the errno text */
	f = one_of(&p,
		   "**[2017/07/20-04:47:36.231116] xio_rdma_verbs.c:248         [ERROR] - ibv_reg_mr failed, Bad address. addr:0x7f21e3369dc0, length:15863892992, access:0x7\n",
		   "APP-GENERIC-VERBS-CALL-FAILED");
	assert_string_equal(text(f, "call"), "ibv_reg_mr");
	assert_true(has_int(f, "errno", 14));
	done(&p);
}

/* What a fallback reads from the line: errno by number or text, the
 * completion status by its ibv_wc_status_str() text, the vendor error,
 * the program from its prefix, the device, port and GID index. */
static void test_fallback_fields(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* microsoft/mscclpp#496: the number; a Python exception class is no
	 * program */
	f = one_of(&p,
		   "mscclpp._mscclpp.IbError: (14, 'ibv_reg_mr failed (errno 14) (Ib failure: Bad address)')\n",
		   "APP-GENERIC-VERBS-CALL-FAILED");
	assert_true(has_int(f, "errno", 14));
	assert_string_equal(text(f, "app"), "unknown");
	done(&p);
	/* ofiwg/libfabric#12136: fabtests' FT_PRINTERR, ret=-22 */
	f = one_of(&p, "fi_enable(): common/shared.c:1529, ret=-22 (Invalid argument)\n",
		   "APP-GENERIC-VERBS-CALL-FAILED");
	assert_string_equal(text(f, "app"), "fabtests");
	assert_string_equal(text(f, "call"), "fi_enable");
	assert_true(has_int(f, "errno", 22));
	done(&p);
	/* accelio/accelio#181: status text and vendor error */
	f = one_of(&p,
		   "[2016/12/15-14:23:05.351703] xio_rdma_datapath.c:651      [TRACE] - rdma_hndl:0x7fffc0015640, rdma_task:0x2aaad4c7c5d0, task:0x2aaad4c7c2b0, wr_id:0x2aaad4c7c2b0, err:Work Request Flushed Error, vendor_err:0xf9\n",
		   "APP-GENERIC-COMPLETION-ERROR");
	assert_string_equal(text(f, "wc_status"), "IBV_WC_WR_FLUSH_ERR");
	assert_true(has_int(f, "wc_status_num", 5));
	assert_true(has_int(f, "vendor_err", 0xf9));
	done(&p);
	/* rdma-core libibverbs/examples/rc_pingpong.c's format */
	f = one_of(&p, "Failed status remote access error (10) for wr_id 2\n",
		   "APP-GENERIC-COMPLETION-ERROR");
	assert_string_equal(text(f, "app"), "libibverbs");
	assert_string_equal(text(f, "wc_status"), "IBV_WC_REM_ACCESS_ERR");
	done(&p);
	/* an enum name; an IBV_WC_ opcode is no status */
	f = one_of(&p, "poll_cq: wc opcode IBV_WC_RDMA_WRITE status IBV_WC_RNR_RETRY_EXC_ERR\n",
		   "APP-GENERIC-COMPLETION-ERROR");
	assert_true(has_int(f, "wc_status_num", 13));
	done(&p);
	/* jcxue/RDMA-Tutorial#6: an errno text next to a queue pair */
	f = one_of(&p,
		   "[ERROR] (setup_ib.c:184:setup_ib: errno: Cannot allocate memory) Failed to create qp\n",
		   "APP-GENERIC-RDMA-ERRNO");
	assert_true(has_int(f, "errno", 12));
	done(&p);
	/* a "prog:" prefix, device:port and GID index (the forms NCCL and
	 * UCX print them in) */
	f = one_of(&p, "trainer: ibv_modify_qp failed with 110 on mlx5_3:1 gid index 3\n",
		   "APP-GENERIC-VERBS-CALL-FAILED");
	assert_string_equal(text(f, "app"), "trainer");
	assert_true(has_int(f, "errno", 110));
	assert_string_equal(text(f, "device"), "mlx5_3");
	assert_true(has_int(f, "port", 1));
	assert_true(has_int(f, "gid_index", 3));
	done(&p);
}

/* Lines the fallbacks must leave alone: the kernel's own lines (the log
 * parser reads them), what a program logs below its warning level,
 * errors counted as 0, "no error", errnos the kb gives no RDMA meaning,
 * module lists, and the continuation of a wrapped specific message. */
static void test_fallback_leaves_alone(void **state)
{
	static const char *const lines[] = {
		"[ 1234.567890] mlx5_core 0000:3b:00.0: mlx5_cmd_out_err:838:(pid 2155): CREATE_QP(0x500) op_mod(0x0) failed, status bad resource(0x5), syndrome (0x6d2d6), err(-22)\n",
		"Jan  1 00:00:00 node1 kernel: infiniband mlx5_0: create_qp:3245:(pid 1234): Create QP type 2 failed, error -12\n",
		"[1681107537.414083] [worker-2:146204:0]  rc_mlx5_common.c:735  UCX  DEBUG ibv_alloc_dm(dev=mlx5_2 length=2048) failed: Invalid argument\n",
		"node1:123:456 [0] NCCL INFO ibv_reg_dmabuf_mr is not supported, error 95\n",
		"ibv_post_send: 0 errors, 1000 completions, status 0\n",
		"rdma_cm               118784  3 rpcrdma,ib_iser,rdma_ucm\n",
		"QP 0x1a2b on mlx5_0: no error\n",
		"RDMA config /etc/rdma/rdma.conf: No such file or directory\n",
		"completion queue depth 4096, wc batch 16, status OK\n",
		"ibv_devinfo: error while loading shared libraries\n",
		/* a source file named like a call (glog's prefix) */
		"W0101 12:00:00.000000 1234 rdma_context.cpp:100] Failed to register memory: Bad address\n",
		/* a program's exit status is no completion status (systemd's
		 * "code=exited, status=1/FAILURE"), nor is a file named cq */
		"Dec  1 10:00:02 node07 systemd[1]: fwupd-refresh.service: Main process exited, code=exited, status=1/FAILURE\n",
		"Dec  1 10:00:05 node07 dhclient[900]: DHCPREQUEST on ib0 status 2\n",
		"The job exited with status 5; see cq.log\n",
		/* a file utility's 'PROG: FILE: strerror': every unused GID
		 * entry reads as EINVAL */
		"cat: /sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/2: Invalid argument\n",
	};
	struct parsed p;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		p = scan_text(lines[i]);
		for (size_t k = 0; k < count(&p, "app_error"); k++) {
			const char *id = text(nth(&p, "app_error", k), "message");

			if (!strncmp(id, "APP-GENERIC-", 12))
				fail_msg("%s took: %s", id, lines[i]);
		}
		done(&p);
	}
	/* an NCCL line a mail client wrapped: one fact, not two */
	p = scan_text(
		"node-2:5776:5902 [0] transport/net_ib.cc:1296 NCCL WARN NET/IB : Got completion from peer 10.2.0.5<33092> with error 12, opcode 0, len\n"
		"0, vendor err 129 (Recv)\n");
	assert_string_equal(text(only_error(&p), "message"),
			    "NCCL-IB-COMPLETION-ERROR");
	done(&p);
	/* healthy ucx_info -d (openucx/ucx#5148) */
	p = scan_file(APP_FIXTURES "healthy-ucx-5148-ucx-info-d.txt");
	assert_int_equal(count(&p, "app_error"), 0);
	done(&p);
}

/* A file whose only evidence is such a line is read, not rejected. */
static void test_fallback_file_not_rejected(void **state)
{
	struct parsed p = { kb_base(), 0 };
	struct diag *d = diag_new();
	struct collect_run *run;

	(void)state;
	run = collect_run_new(p.fb, NULL, d, NULL, NULL);
	assert_int_equal(
		collect_file(run,
			     APP_FIXTURES "generic-rdma-tutorial-6-create-qp-enomem.txt",
			     NULL),
		0);
	collect_finish(run);
	assert_string_equal(text(only_error(&p), "message"),
			    "APP-GENERIC-RDMA-ERRNO");
	assert_int_equal(diag_errors(d), 0);
	done(&p);
	diag_free(d);
}


/* ---- a library's level marker, the source file, the command line ---- */

/* A line a library's logger marks with its error or warning level is
 * that library's, with the level's severity, even when no entry knows
 * the message; lower levels and backtrace frames are not errors. */
static void test_level_fallbacks(void **state)
{
	static const char *const quiet[] = {
		"[1681107537.414083] [worker-2:146204:0]          parser.c:1910 UCX  INFO  UCX_* env variables: UCX_TLS=rc\n",
		"[1681107537.414083] [worker-2:146204:0]     ucp_worker.c:1783 UCX  DIAG  ep 0x7f creation failed\n",
		/* (the plugin line once here is now a benign entry of
		 * kb/app_messages_nccl.yaml) */
		"node1:123:456 [0] NCCL INFO Setting affinity for GPU 0 to ffffffff,ffffffff\n",
		"libfabric:1266354:1738371468::efa:core:efa_device_init():100<info> device init failed\n",
		"[2024-01-01 10:00:00.123456] rdma.c:2584:nvmf_rdma_create: *NOTICE*: Adjusting the io unit size\n",
		/* aws/aws-parallelcluster#2701: LNet's TCP driver is no RDMA
		 * stack's */
		"Apr 30 13:52:29 ip-10-0-33-4 kernel: [268413.992426] LNetError: 3305:0:(lib-socket.c:486:lnet_sock_create()) Error trying to bind to port 1023: -99\n",
		"Apr 30 13:52:29 ip-10-0-33-4 kernel: [268413.992446] LNetError: 11e-e: Unexpected error -99 connecting to 10.0.46.139@tcp at host 10.0.46.139 on port 988\n",
		/* spdk/spdk#257: a kernel line of nvme-rdma is the kernel log's,
		 * not an application's failed call */
		"[82886.743467] nvme nvme1: rdma_resolve_addr wait failed (-104).\n",
		/* openucx/ucx#2973: a backtrace frame names a UCX file */
		"2 0x000000000003ea00 uct_dc_mlx5_poll_tx()  /home/abuild/rpmbuild/BUILD/ucx-1.5.20181220/src/uct/ib/dc/dc_mlx5.c:715\n",
		/* UCX's configuration notes, no fault (openucx/ucx#2953,
		 * #3595) */
		"[1539370849.810202] [cn828:74750:0]         parser.c:1310 UCX  WARN  unused env variable: UCX_NET_DEVICES (set UCX_WARN_UNUSED_ENV_VARS=n to suppress this warning)\n",
		"[1557931403.345577] [jazz01:76631:0]         parser.c:1528 UCX  WARN  - UCX_TCP_MAX_SHORT: The configuration parameter replaced by: UCX_<IB transport>_TX_MIN_INLINE for IB, UCX_MM_FIFO_SIZE for MM\n",
		/* Open MPI's BTL_VERBOSE prints BTL_ERROR's prefix */
		"[node1][[30209,1],0][btl_openib_component.c:1672:init_one_device] Querying INI files for vendor 0x02c9, part ID 4119\n",
	};
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* a Korean Slurm/Pyxis blog post (srun -l label '1: '): the socket
	 * error no entry knows, at UCX's ERROR level */
	f = one_of(&p,
		   "1: [1653901933.475958] [gpu02:5215 :0]            sock.c:325  UCX  ERROR   connect(fd=40, dest_addr=172.17.0.1:40703) failed: Connection refused\n",
		   "APP-LOG-UCX-ERROR");
	assert_string_equal(text(f, "app"), "ucx");
	done(&p);
	/* openucx/ucx#2953 */
	f = one_of(&p,
		   "[1539370849.809991] [cn828:74750:0]    ucp_context.c:588  UCX  WARN  device 'self' is not available\n",
		   "APP-LOG-UCX-WARN");
	assert_string_equal(text(f, "app"), "ucx");
	done(&p);
	/* spdk/spdk#1707 */
	f = one_of(&p,
		   "nvme_ctrlr.c: 707:nvme_ctrlr_fail: *ERROR*: ctrlr 192.168.100.8 in failed state.\n",
		   "APP-LOG-SPDK-ERROR");
	assert_string_equal(text(f, "app"), "spdk");
	done(&p);
	/* o2iblnd's "Bad version: %x" (lnet/klnds/o2iblnd/o2iblnd.c
	 * kiblnd_unpack_msg()), behind syslog's prefix */
	f = one_of(&p,
		   "Mar  3 10:12:44 oss01 kernel: LNetError: 3120:0:(o2iblnd.c:744:kiblnd_unpack_msg()) Bad version: 13\n",
		   "APP-LOG-LUSTRE-ERROR");
	assert_string_equal(text(f, "app"), "lustre");
	done(&p);
	/* Seagate/cortx-motr#17: the message an entry knows wins */
	f = one_of(&p,
		   "Sep  2 13:26:27 xxxx-xxx kernel: LNetError: 172781:0:(api-ni.c:2533:lnet_startup_lndnet()) Can't load LND o2ib, module ko2iblnd, rc=256\n",
		   "LUSTRE-LND-LOAD-FAILED");
	assert_string_equal(text(f, "status"), "o2ib");
	assert_null(fact_text(f, "call"));
	done(&p);
	/* the same line for LNet's tcp network is no RDMA module fault */
	p = scan_text("Sep  2 13:26:27 oss1 kernel: LNetError: 17278:0:(api-ni.c:2533:lnet_startup_lndnet()) Can't load LND tcp, module ksocklnd, rc=256\n");
	for (size_t i = 0; i < count(&p, "app_error"); i++)
		assert_string_not_equal(text(nth(&p, "app_error", i), "message"),
					"LUSTRE-LND-LOAD-FAILED");
	done(&p);
	/* a call and errno the line names win over the level alone */
	one_of(&p,
	       "[1652739463.054681] [cn0022:4071024:0]        ib_iface.c:1035 UCX  ERROR ibv_create_cq(cqe=4096) failed: Cannot allocate memory\n",
	       "UCX-IB-CALL-FAILED");
	done(&p);
	for (size_t i = 0; i < ARRAY_SIZE(quiet); i++) {
		p = scan_text(quiet[i]);
		if (count(&p, "app_error"))
			fail_msg("%s took: %s",
				 text(nth(&p, "app_error", 0), "message"),
				 quiet[i]);
		done(&p);
	}
	/* equal lines are counted, not repeated */
	p = scan_text("[1.1] [n1:1:0] ucp_context.c:588  UCX  WARN  device 'self' is not available\n"
		      "[1.2] [n1:1:0] ucp_context.c:588  UCX  WARN  device 'self' is not available\n");
	assert_true(has_int(only_error(&p), "count", 2));
	done(&p);
}

/* The file a line names, when it belongs to one project's tree, names
 * the program; a file any project may have names none. */
static void test_app_from_source_file(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* ucs_fatal_error_message()'s "[host:pid:tid] file:line " form */
	f = one_of(&p, "[node1:4021:0:4021] rc_mlx5_ep.c:123 ibv_create_qp failed: Cannot allocate memory\n",
		   "APP-GENERIC-VERBS-CALL-FAILED");
	assert_string_equal(text(f, "app"), "ucx");
	done(&p);
	f = one_of(&p, "[host1][[30209,1],0][connect/btl_openib_connect_udcm.c:1521:udcm_find_endpoint] ibv_post_send failed: Cannot allocate memory\n",
		   "APP-GENERIC-VERBS-CALL-FAILED");
	assert_string_equal(text(f, "app"), "ompi");
	done(&p);
	f = one_of(&p, "sock.c:325 ibv_create_qp failed: Cannot allocate memory\n",
		   "APP-GENERIC-VERBS-CALL-FAILED");
	assert_string_equal(text(f, "app"), "unknown");
	done(&p);
}

/* Collects a paste written to a temporary file. */
static struct parsed collect_text(const char *text_in)
{
	char path[] = "/tmp/rd-test-app-XXXXXX";
	int fd = mkstemp(path);
	FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
	struct parsed p = { kb_base(), 0 };
	struct diag *d = diag_new();
	struct collect_run *run;

	assert_non_null(fp);
	fputs(text_in, fp);
	fclose(fp);
	run = collect_run_new(p.fb, NULL, d, NULL, NULL);
	assert_int_equal(collect_file(run, path, NULL), 0);
	collect_finish(run);
	diag_free(d);
	unlink(path);
	return p;
}

/* The command line of a line's block names the program and the device
 * when the line does not; a launcher names the MPI only by its own
 * option. */
static void test_app_from_command_line(void **state)
{
	struct parsed p = { kb_base(), 0 };
	struct diag *d = diag_new();
	struct collect_run *run;
	const struct fact *f;

	(void)state;
	/* linux-rdma/perftest#228: "# ib_write_bw -d rocep133s0f0 ..." */
	run = collect_run_new(p.fb, NULL, d, NULL, NULL);
	assert_int_equal(collect_file(run,
				      APP_FIXTURES "perftest-228-socket-connect.txt",
				      NULL),
			 0);
	collect_finish(run);
	f = find(&p, "app_error", "message", "PERFTEST-CONNECT");
	assert_string_equal(text(f, "device"), "rocep133s0f0");
	assert_string_equal(text(f, "app"), "perftest");
	done(&p);
	diag_free(d);

	p = collect_text("[root@node1 ~]# mpirun -np 2 --mca pml ucx ./app\n"
			 "ibv_reg_mr failed: Bad address\n");
	f = find(&p, "app_error", "message", "APP-GENERIC-VERBS-CALL-FAILED");
	assert_string_equal(text(f, "app"), "ompi");
	done(&p);
	p = collect_text("[root@node1 ~]# srun -N2 all_reduce_perf -b 8 -e 1G\n"
			 "ibv_reg_mr failed: Bad address\n");
	f = find(&p, "app_error", "message", "APP-GENERIC-VERBS-CALL-FAILED");
	assert_string_equal(text(f, "app"), "nccl");
	done(&p);
	p = collect_text("[root@node1 ~]# ucx_perftest -t tag_lat -d mlx5_2:1 node2\n"
			 "ibv_reg_mr failed: Bad address\n");
	f = find(&p, "app_error", "message", "APP-GENERIC-VERBS-CALL-FAILED");
	assert_string_equal(text(f, "app"), "ucx");
	assert_string_equal(text(f, "device"), "mlx5_2");
	assert_true(has_int(f, "port", 1));
	done(&p);
	/* mpirun alone is any MPI's */
	p = collect_text("[root@node1 ~]# mpirun -np 2 ./app\n"
			 "ibv_reg_mr failed: Bad address\n");
	f = find(&p, "app_error", "message", "APP-GENERIC-VERBS-CALL-FAILED");
	assert_string_equal(text(f, "app"), "unknown");
	done(&p);
	/* -d, -i and -g are the device, port and GID index only for the
	 * programs whose options they are: nccl-tests' -g is the GPU
	 * count, -d the data type */
	p = collect_text("[root@node1 ~]# mpirun -np 8 ./all_reduce_perf -b 8 "
			 "-e 128M -f 2 -g 4 -d int32\n"
			 "ibv_reg_mr failed: Bad address\n");
	f = find(&p, "app_error", "message", "APP-GENERIC-VERBS-CALL-FAILED");
	assert_null(fact_get(f, sym_intern_cstr("gid_index")));
	assert_string_not_equal(text(f, "device"), "int32");
	done(&p);
	/* an entry that names its program keeps it whatever the block ran:
	 * an Open MPI help text under an nccl-tests command is Open MPI's */
	p = collect_text("[root@node1 ~]# mpirun -np 2 ./all_reduce_perf\n"
			 "The OpenFabrics driver in Open MPI tried to raise a "
			 "fatal error, but failed.\n");
	f = find(&p, "app_error", "app", "ompi");
	assert_non_null(f);
	done(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_example_matches),
		cmocka_unit_test(test_source_families_real),
		cmocka_unit_test(test_the_check_can_fail),
		cmocka_unit_test(test_ucx_memlock_sample),
		cmocka_unit_test(test_nccl_completion_forms),
		cmocka_unit_test(test_wc_status_spellings),
		cmocka_unit_test(test_errno_read_back),
		cmocka_unit_test(test_modify_qp_fields),
		cmocka_unit_test(test_behind_prefixes),
		cmocka_unit_test(test_counting),
		cmocka_unit_test(test_follow_up_lines),
		cmocka_unit_test(test_ompi_help_texts),
		cmocka_unit_test(test_entry_call),
		cmocka_unit_test(test_listed_ports),
		cmocka_unit_test(test_healthy_outputs),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_loose_file_hook),
		cmocka_unit_test(test_fallback_only_without_specific),
		cmocka_unit_test(test_fallback_fields),
		cmocka_unit_test(test_fallback_leaves_alone),
		cmocka_unit_test(test_fallback_file_not_rejected),
		cmocka_unit_test(test_level_fallbacks),
		cmocka_unit_test(test_app_from_source_file),
		cmocka_unit_test(test_app_from_command_line),
	};

	return cmocka_run_group_tests_name("parsers (application errors)",
					   tests, NULL, NULL);
}
