/* NVSHMEM's and nvme-cli's messages (kb/app_messages_nvshmem.yaml,
 * kb/app_messages_nvme.yaml, kb/app_context_nvshmem.yaml) through the
 * application-error parser with the shipped knowledge base: real lines
 * from public threads give their entry and fields (each fixture names its
 * source); healthy NVSHMEM INFO output and nvme list give nothing. */
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


static bool has_int(const struct fact *f, const char *field, int64_t want)
{
	const struct value *v = fact_get(f, sym_intern_cstr(field));

	return v && v->type == VALUE_INT && v->i == want;
}

static const struct fact *must_find(const struct parsed *p, const char *id)
{
	const struct fact *f = find(p, "app_error", "message", id);

	if (!f)
		fail_msg("no app_error %s", id);
	assert_string_equal(text(f, "app"), strncmp(id, "NVME", 4) ?
						    "nvshmem" : "nvme");
	return f;
}

/* deepseek-ai/DeepEP#38: the errno of ibv_modify_qp after "non-zero
 * status:"; a line where several PEs' prefixes run together is not read
 * by the entry (its number belongs to another message), though the
 * program is still known by its prefix. */
static void test_ibrc_modify_qp(void **state)
{
	struct parsed p = scan_file(APP_FIXTURES
				    "nvshmem-deepep-38-ibrc-modify-qp-etimedout.txt");
	const struct fact *f = must_find(&p, "NVSHMEM-IB-CALL-FAILED");

	(void)state;
	assert_string_equal(text(f, "call"), "ibv_modify_qp");
	assert_true(has_int(f, "errno", 110));
	for (size_t k = 0; k < count(&p, "app_error"); k++) {
		const struct fact *g = nth(&p, "app_error", k);

		assert_false(has_int(g, "errno", 7));
	}
	f = find(&p, "app_error", "message", "APP-GENERIC-VERBS-CALL-FAILED");
	assert_non_null(f);
	done(&p);
}

static void test_peermem_and_transport_map(void **state)
{
	struct parsed p =
		scan_file(APP_FIXTURES "nvshmem-deepep-223-no-peermem.txt");
	const struct fact *f;

	(void)state;
	must_find(&p, "NVSHMEM-PEERMEM-MISSING");
	f = must_find(&p, "NVSHMEM-PEER-GPU-NOT-ACCESSIBLE");
	assert_string_equal(text(f, "peer"), "0");
	f = must_find(&p, "NVSHMEM-ERROR");
	assert_string_equal(text(f, "status"), "building transport map failed");
	done(&p);
}

static void test_devx(void **state)
{
	struct parsed p =
		scan_file(APP_FIXTURES "nvshmem-deepep-17-devx-init2rtr.txt");
	const struct fact *f = must_find(&p, "NVSHMEM-DEVX-INIT2RTR-SYNDROME");

	(void)state;
	assert_string_equal(text(f, "call"), "mlx5dv_devx_obj_modify");
	assert_string_equal(text(f, "status"), "INIT2RTR_QP");
	assert_true(has_int(f, "errno", 121));
	done(&p);
	p = scan_file(APP_FIXTURES "nvshmem-sglang-12533-devx-uar.txt");
	f = must_find(&p, "NVSHMEM-DEVX-UAR-DENIED");
	assert_string_equal(text(f, "call"), "mlx5dv_devx_alloc_uar");
	assert_int_equal(count(&p, "app_error"), 1);
	done(&p);
	p = scan_file(APP_FIXTURES "nvshmem-33-create-ah.txt");
	f = must_find(&p, "NVSHMEM-CREATE-AH-FAILED");
	assert_string_equal(text(f, "call"), "ibv_create_ah");
	assert_non_null(find(&p, "app_error", "status", "create DCT share err."));
	done(&p);
}

/* nvme-cli 2.x prints libnvme's text after the kernel's errno (spdk#3527);
 * 1.x only the strerror (spdk#900). */
static void test_nvme_connect(void **state)
{
	struct parsed p = scan_file(APP_FIXTURES
				    "nvme-spdk-3527-discover-econnreset.txt");
	const struct fact *f = must_find(&p, "NVME-FABRICS-WRITE-FAILED");

	(void)state;
	assert_true(has_int(f, "errno", 104));
	f = must_find(&p, "NVME-ADD-CTRL-FAILED");
	assert_string_equal(text(f, "status"),
			    "failed to write to nvme-fabrics device");
	assert_int_equal(count(&p, "app_error"), 2);
	done(&p);
	p = scan_file(APP_FIXTURES "nvme-spdk-900-einval-ofed-no-nvmf.txt");
	f = must_find(&p, "NVME-FABRICS-WRITE-FAILED");
	assert_true(has_int(f, "errno", 22));
	done(&p);
	/* nvme-cli 2.0-2.2's "no controller found: "; equal lines count. */
	p = scan_file(APP_FIXTURES "nvme-ceph-nvmeof-152-eio-no-controller.txt");
	f = must_find(&p, "NVME-FABRICS-WRITE-FAILED");
	assert_true(has_int(f, "errno", 5));
	assert_true(has_int(f, "count", 2));
	f = must_find(&p, "NVME-ADD-CTRL-FAILED");
	assert_string_equal(text(f, "status"),
			    "failed to write to nvme-fabrics device");
	assert_null(fact_get(f, sym_intern_cstr("errno")));
	done(&p);
	/* libnvme before 1.5 on a kernel before 5.17 (libnvme#643). */
	p = scan_file(APP_FIXTURES "nvme-libnvme-643-read-einval.txt");
	assert_true(has_int(must_find(&p, "NVME-FABRICS-READ-FAILED"), "errno",
			    22));
	assert_true(has_int(must_find(&p, "NVME-ADD-CTRL-FAILED"), "errno", 22));
	done(&p);
}

/* NVSHMEM_DEBUG=INFO output (the host library's and the transports'
 * INFO lines) and nvme list of a connected host say nothing wrong. */
/* The forms of NVSHMEM's prefix (src/include/non_abi/nvshmemx_error.h):
 * the "error status: %d (%s) " of its *_ERROR_JMP macros gives the call's
 * errno; a path under src/host/ or src/init/ is NVSHMEM's only with its
 * macros' words or the "FILE:FUNCTION:LINE: " form, not a compiler's
 * "file.c:42: warning:" or another project's src/host/ tree. */
static void test_prefix_forms(void **state)
{
	static const char lines[] =
		"/opt/nvshmem/src/modules/transport/ibrc/ibrc.cpp:418: error "
		"status: 110 (Connection timed out) ibv_modify_qp failed\n"
		"src/init/config.c:42: warning: option foo is deprecated\n"
		"/home/u/proj/src/host/rdma.c:88: ibv_reg_mr failed\n";
	struct parsed p = scan_named("prefix-forms", lines, sizeof(lines) - 1);
	const struct fact *f = must_find(&p, "NVSHMEM-IB-CALL-FAILED");

	(void)state;
	assert_true(has_int(f, "errno", 110));
	for (size_t k = 0; k < count(&p, "app_error"); k++)
		assert_string_not_equal(text(nth(&p, "app_error", k), "message"),
					"NVSHMEM-ERROR");
	f = find(&p, "app_error", "call", "ibv_reg_mr");
	assert_non_null(f);
	assert_string_not_equal(text(f, "app"), "nvshmem");
	done(&p);
}

static void test_healthy(void **state)
{
	static const char *const files[] = {
		APP_FIXTURES "healthy-nvshmem-51-info.txt",
		APP_FIXTURES "healthy-nvme-cli-1983-list-fabrics.txt",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct parsed p = scan_file(files[i]);

		if (count(&p, "app_error"))
			fail_msg("%s: %s", files[i],
				 text(nth(&p, "app_error", 0), "message"));
		done(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ibrc_modify_qp),
		cmocka_unit_test(test_peermem_and_transport_map),
		cmocka_unit_test(test_devx),
		cmocka_unit_test(test_nvme_connect),
		cmocka_unit_test(test_prefix_forms),
		cmocka_unit_test(test_healthy),
	};

	return cmocka_run_group_tests_name("parsers (NVSHMEM, nvme-cli)",
					   tests, NULL, NULL);
}
