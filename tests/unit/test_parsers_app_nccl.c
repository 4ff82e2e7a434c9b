/* NCCL's INFO and WARN lines, PyTorch's and nccl-tests' NCCL result lines
 * (kb/app_messages_nccl.yaml) through the application-error parser with
 * the shipped knowledge base: real pastes from public threads give their
 * entries and fields (each fixture names its source); a '#' line is a
 * comment except for the entries that read nccl-tests' summary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include "collectors/collect.h"
#include "collectors/parsers/logscan.h"
#include "collectors/parsers/parse_app.h"
#include "engine/kb.h"
#include "engine/xalloc.h"
#include "appscan.h"

static struct parsed scan_string(const char *text)
{
	return scan_named("test", text, strlen(text));
}

/* Whether an app_error of entry id was read. */
static bool has_message(const struct parsed *p, const char *id)
{
	struct value v = value_cstr(id);
	size_t n;

	fact_base_lookup(p->fb, sym_intern_cstr("app_error"),
			 sym_intern_cstr("message"), &v, &n);
	return n > 0;
}

static const struct fact *must_find(const struct parsed *p, const char *id)
{
	const struct fact *f = find(p, "app_error", "message", id);

	if (!f)
		fail_msg("no app_error %s", id);
	return f;
}

/* NVIDIA/nccl#2076: PyTorch's result line gives the NCCL error class, its
 * detail holds the class line and "Last error:" with the quoted NCCL
 * warning, and that warning is read as NCCL's own message. */
static void test_torch_last_error(void **state)
{
	struct parsed p = scan_file(
		APP_FIXTURES "nccl-2076-torch-remote-error-last-error.txt");
	const struct fact *t = must_find(&p, "TORCH-NCCL-ERROR");
	const struct fact *s = must_find(&p, "NCCL-SOCKET-CALL-FAILED");

	(void)state;
	assert_string_equal(text(t, "app"), "nccl-caller");
	assert_string_equal(text(t, "status"),
			    "remote process exited or there was a network error");
	assert_non_null(strstr(text(t, "detail"), "ncclRemoteError: "));
	assert_non_null(strstr(text(t, "detail"), "Last error:"));
	assert_string_equal(text(s, "app"), "nccl");
	assert_string_equal(text(s, "call"), "recv");
	assert_string_equal(text(s, "errno_name"), "ECONNRESET");
	assert_string_equal(text(s, "peer"), "172....<33759>");
	must_find(&p, "NCCL-VERSION");
	done(&p);
}

/* The lines that say which network NCCL took and why: libibverbs missing
 * (INFO in 2.18, WARN in 2.3 and 2.7), NCCL_IB_DISABLE, the socket
 * interfaces (NVIDIA/nccl-tests#166, horovod#685, NVIDIA/nccl-tests#188). */
static void test_socket_fallback_lines(void **state)
{
	static const char *const files[] = {
		APP_FIXTURES "nccl-tests-166-libibverbs-socket.txt",
		APP_FIXTURES "horovod-685-nccl23-libibverbs-socket.txt",
		APP_FIXTURES "pytorch-68893-nccl27-libibverbs-socket.txt",
	};
	struct parsed p;
	const struct fact *f;

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		p = scan_file(files[i]);
		must_find(&p, "NCCL-NO-LIBIBVERBS");
		f = must_find(&p, "NCCL-USING-NETWORK");
		assert_string_equal(text(f, "status"), "Socket");
		done(&p);
	}
	p = scan_file(APP_FIXTURES "nccl-tests-188-ib-disable-socket.txt");
	f = must_find(&p, "NCCL-IB-DISABLED-ENV");
	assert_string_equal(text(f, "status"), "1");
	f = must_find(&p, "NCCL-SOCKET-USING");
	assert_string_equal(text(f, "status"), "ibs85f0:192.168.1.14");
	must_find(&p, "NCCL-NET-PLUGIN-INTERNAL");
	done(&p);
	/* NCCL_IB_DISABLE set to 0 is no reason at all
	 * (Mellanox/nv_peer_memory#56). */
	p = scan_file(APP_FIXTURES "healthy-nv-peer-memory-56-nccl24-ib.txt");
	assert_false(has_message(&p, "NCCL-IB-DISABLED-ENV"));
	must_find(&p, "NCCL-IB-USING");
	done(&p);
}

/* The forms of one message across versions, from the format strings:
 * 2.4's closed connection names no peer, master's missing libibverbs
 * counts only when the last name tried fails. */
static void test_version_forms(void **state)
{
	struct parsed p;

	(void)state;
	p = scan_string("n1:1:2 [0] include/socket.h:403 NCCL WARN Net : "
			"Connection closed by remote peer\n");
	must_find(&p, "NCCL-SOCKET-CLOSED");
	done(&p);
	p = scan_string("n1:1:2 [0] include/socket.h:421 NCCL WARN Call to "
			"recv failed : Connection reset by peer\n");
	assert_string_equal(text(must_find(&p, "NCCL-SOCKET-CALL-FAILED"),
				 "errno_name"), "ECONNRESET");
	done(&p);
	p = scan_string("n1:1:2 [0] NCCL INFO Count not open libibverbs.so\n");
	assert_false(has_message(&p, "NCCL-NO-LIBIBVERBS"));
	done(&p);
	p = scan_string("n1:1:2 [0] NCCL INFO Count not open libibverbs.so.1\n");
	must_find(&p, "NCCL-NO-LIBIBVERBS");
	done(&p);
	p = scan_string("n1:1:2 [0] NCCL INFO Ring 00 : 0 -> 1 [send] via "
			"NET/IB/0\n");
	assert_string_equal(text(must_find(&p, "NCCL-CHANNEL-VIA-NET"),
				 "status"), "IB");
	done(&p);
}

/* A line that starts with '#' is a person's comment, except nccl-tests'
 * summary lines (NVIDIA/nccl-tests#119, #131). */
static void test_hash_lines(void **state)
{
	struct parsed p;

	(void)state;
	p = scan_string("# NCCL INFO Using network Socket\n"
			"# n1:1:2 [0] NCCL INFO Failed to open "
			"libibverbs.so[.1]\n");
	assert_int_equal(count(&p, "app_error"), 0);
	done(&p);
	p = scan_file(APP_FIXTURES "healthy-nccl-tests-119-allreduce-table.txt");
	assert_int_equal(count(&p, "app_error"), 1);
	assert_string_equal(text(must_find(&p, "NCCL-TESTS-AVG-BUSBW"),
				 "status"), "84.8558");
	done(&p);
	p = scan_string("# Out of bounds values : 50 FAILED\n"
			"# Avg bus bandwidth    : 1.2 \n");
	assert_string_equal(text(must_find(&p, "NCCL-TESTS-OUT-OF-BOUNDS"),
				 "status"), "50");
	done(&p);
	p = scan_string("# Out of bounds values : 0 OK\n");
	assert_int_equal(count(&p, "app_error"), 0);
	done(&p);
	/* below NCCL_TESTS_MIN_BW: no part of the figure is a benign one */
	p = scan_string("# Avg bus bandwidth    : 84.8558 FAILED\n");
	assert_false(has_message(&p, "NCCL-TESTS-AVG-BUSBW"));
	done(&p);
}

/* The lines after PyTorch's result line that carry a log prefix of their
 * own (another rank's NCCL INFO line, torchelastic's W0101/E0101) are
 * their programs' messages, not NCCL's last error quoted by PyTorch. */
static void test_torch_then_log_lines(void **state)
{
	struct parsed p = scan_file(
		APP_FIXTURES "torch-nccl-error-then-log-lines.txt");
	const struct fact *t = must_find(&p, "TORCH-NCCL-ERROR");

	(void)state;
	assert_null(fact_text(t, "detail"));
	must_find(&p, "NCCL-CHANNEL-VIA-NET");
	done(&p);
}

/* A net plugin's name may hold a space (aws-ofi-nccl's "AWS Libfabric",
 * NVIDIA/nccl#229): "Using network" reads it whole. */
static void test_using_network_plugin(void **state)
{
	struct parsed p;

	(void)state;
	p = scan_string("ip-1:1:1 [0] NCCL INFO Using network AWS Libfabric\n");
	assert_string_equal(text(must_find(&p, "NCCL-USING-NETWORK"),
				 "status"), "AWS Libfabric");
	done(&p);
	p = scan_string("dlv01:1:1 [0] NCCL INFO Using network IB  \n");
	assert_string_equal(text(must_find(&p, "NCCL-USING-NETWORK"),
				 "status"), "IB");
	done(&p);
}

/* Healthy start-up lines give only benign facts. */
static void test_healthy(void **state)
{
	static const char *const files[] = {
		APP_FIXTURES "healthy-nccl-621-ib-mlx4.txt",
		APP_FIXTURES "healthy-nccl-1016-ibext-roce.txt",
		APP_FIXTURES "healthy-nv-peer-memory-56-nccl24-ib.txt",
	};
	static const char *const benign[] = {
		"NCCL-IB-USING", "NCCL-USING-NETWORK", "NCCL-BOOTSTRAP-USING",
		"NCCL-NET-PLUGIN-INTERNAL", "NCCL-VERSION", "NCCL-SOCKET-USING",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct parsed p = scan_file(files[i]);

		for (size_t k = 0; k < count(&p, "app_error"); k++) {
			const char *m = text(nth(&p, "app_error", k), "message");
			bool ok = false;

			for (size_t b = 0; b < sizeof(benign) / sizeof(benign[0]); b++)
				ok |= !strcmp(m, benign[b]);
			if (!ok)
				fail_msg("%s: %s is no benign line", files[i], m);
		}
		done(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_torch_last_error),
		cmocka_unit_test(test_socket_fallback_lines),
		cmocka_unit_test(test_version_forms),
		cmocka_unit_test(test_hash_lines),
		cmocka_unit_test(test_torch_then_log_lines),
		cmocka_unit_test(test_using_network_plugin),
		cmocka_unit_test(test_healthy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
