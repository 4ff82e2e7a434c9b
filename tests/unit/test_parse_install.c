/* Failure lines of installing or starting the RDMA driver stack
 * (collectors/parsers/parse_install.c) found anywhere in a text, from the
 * real outputs of tests/fixtures/installers/, and the lines that are none
 * (healthy installs, prose, lines too long to read). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
/* cmocka needs the headers above first. */
#include <cmocka.h>

#include "collectors/parsers/parse_install.h"
#include "engine/diag.h"
#include "engine/kb.h"
#include "engine/xalloc.h"
#include "parsed.h"

#define INSTALLERS "tests/fixtures/installers/"

static struct fact_base *kb_base(void)
{
	struct fact_base *fb = fact_base_new();
	struct diag *d = diag_new();

	if (kb_load_dir(fb, "kb", "kb", d) < 0) {
		diag_print(d, stderr, "test");
		fail_msg("kb/ does not load");
	}
	diag_free(d);
	return fb;
}

/* Scans text with the shipped kb; command is the block's program. */
static struct parsed scan(const char *text, size_t len, const char *command)
{
	struct parsed p = { kb_base(), 0 };
	struct emit e;

	emit_init(&e, p.fb, "paste.txt");
	p.facts = install_scan(&e, text, len, command);
	return p;
}

static struct parsed scan_file(const char *name, const char *command)
{
	char path[256];
	size_t len;
	char *text;
	struct parsed p;

	snprintf(path, sizeof(path), "%s%s", INSTALLERS, name);
	text = slurp(path, &len);
	p = scan(text, len, command);
	free(text);
	return p;
}

static void done(struct parsed *p)
{
	fact_base_free(p->fb);
}

/* The n-th tool_error must be tool's, with field = value (field NULL: no
 * field checked). */
static void expect(const struct parsed *p, size_t n, const char *tool,
		   const char *field, const char *value)
{
	const struct fact *f = nth(p, "tool_error", n);

	assert_non_null(f);
	assert_string_equal(text(f, "tool"), tool);
	assert_string_equal(text(f, "reason"), "error");
	if (field)
		assert_string_equal(text(f, field), value);
}

/* mlnxofedinstall's and mlnx_add_kernel_support.sh's forms
 * (github.com/microsoft/pai/issues/2470, uclasystem/hermit/issues/8,
 * xcat2/xcat-core/pull/4927, the last behind xdsh's node prefix). */
static void test_installer(void **state)
{
	struct parsed p;

	(void)state;
	p = scan_file("mlnxofedinstall-kernel-modules-deb-failed.txt", NULL);
	assert_int_equal(count(&p, "tool_error"), 2);
	expect(&p, 0, "mlnxofedinstall", "package", "mlnx-ofed-kernel-modules");
	expect(&p, 1, "mlnxofedinstall", NULL, NULL);
	assert_string_equal(text(nth(&p, "tool_error", 0), "kb_name"),
			    "mlnxofedinstall");
	done(&p);
	p = scan_file("mlnxofedinstall-add-kernel-support-build-failed.txt",
		      NULL);
	assert_int_equal(count(&p, "tool_error"), 1);
	expect(&p, 0, "mlnxofedinstall", "kernel", "5.14.0-rc5");
	done(&p);
	p = scan_file("mlnxofedinstall-intended-for-other-distro.txt", NULL);
	assert_int_equal(count(&p, "tool_error"), 1);
	expect(&p, 0, "mlnxofedinstall", NULL, NULL);
	done(&p);
}

/* dkms.in report_build_problem(): the kernel from its line, the module
 * from the make.log path of the next (nv_peer_memory#85). */
static void test_dkms(void **state)
{
	struct parsed p = scan_file("nv-peer-mem-dkms-bad-return-status.txt",
				    NULL);

	(void)state;
	assert_int_equal(count(&p, "tool_error"), 1);
	expect(&p, 0, "dkms", "kernel", "4.15.0-137-generic");
	assert_string_equal(text(nth(&p, "tool_error", 0), "module"),
			    "nv_peer_mem");
	done(&p);
}

/* rpm's and dpkg's forms: the package they name (spdk#207,
 * nv_peer_memory#116; dpkg's overwrite form from its format string). */
static void test_package_managers(void **state)
{
	static const char overwrite[] =
		" trying to overwrite '/usr/lib/x86_64-linux-gnu/libibverbs.so.1', "
		"which is also in package libibverbs1:amd64 39.0-1\n";
	struct parsed p;

	(void)state;
	p = scan_file("rpm-libibverbs-conflicts-inbox.txt", NULL);
	assert_int_equal(count(&p, "tool_error"), 1);
	expect(&p, 0, "rpm", "package", "libibverbs-1.2.1-1.el7.x86_64");
	done(&p);
	p = scan_file("nv-peer-mem-dkms-deb-postinst-einval.txt", NULL);
	/* the modprobe line is kmod's, behind no prefix: parse_modprobe's */
	assert_int_equal(count(&p, "tool_error"), 2);
	expect(&p, 1, "dpkg", "package", "nvidia-peer-memory-dkms");
	done(&p);
	p = scan(overwrite, sizeof(overwrite) - 1, NULL);
	assert_int_equal(count(&p, "tool_error"), 1);
	expect(&p, 0, "dpkg", "package", "libibverbs1:amd64");
	done(&p);
}

/* openibd's forms, its own or under MLNX_EN's mlnx-en.d (the script the
 * command line or the line itself names). */
static void test_openibd(void **state)
{
	static const char flattened[] =
		"/etc/init.d/mlnx-en.d restart Unloading HCA driver: [ OK ] "
		"Module rdma_cm belong to kernel which is not a part of "
		"MLNX[FAILED]kipping...\n";
	static const char exists[] =
		"Module mlx4_core does not exist, skipping...               "
		"[FAILED]\n";
	struct parsed p;

	(void)state;
	p = scan_file("openibd-modules-not-part-of-mlnx-ofed.txt", NULL);
	assert_int_equal(count(&p, "tool_error"), 7);
	expect(&p, 0, "openibd", "module", "mlx5_ib");
	expect(&p, 6, "openibd", "module", "rdma_ucm");
	done(&p);
	p = scan_file("doca-openibd-restart-mlx5-ib-failed.txt", NULL);
	assert_int_equal(count(&p, "tool_error"), 2);
	expect(&p, 0, "openibd", "module", "mlx5_ib");
	expect(&p, 1, "openibd", NULL, NULL);
	done(&p);
	p = scan(flattened, sizeof(flattened) - 1, NULL);
	assert_int_equal(count(&p, "tool_error"), 1);
	expect(&p, 0, "mlnx-en.d", "module", "rdma_cm");
	done(&p);
	p = scan(exists, sizeof(exists) - 1, "mlnx-en.d");
	assert_int_equal(count(&p, "tool_error"), 1);
	expect(&p, 0, "mlnx-en.d", "module", "mlx4_core");
	done(&p);
}

/* kmod's and systemd's lines behind a prefix (tuxedo-keyboard#186's
 * journal, spdk#1724's CI time stamps, gasket-driver#11). */
static void test_prefixed_module_lines(void **state)
{
	static const char systemd[] =
		"Apr 22 18:10:16 host systemd-modules-load[602]: Failed to insert "
		"module 'gasket': Key was rejected by service\n";
	struct parsed p;

	(void)state;
	p = scan_file("dkms-journal-key-rejected.txt", NULL);
	assert_int_equal(count(&p, "tool_error"), 5);
	expect(&p, 0, "modprobe", "module", "clevo_acpi");
	done(&p);
	p = scan_file("modprobe-irdma-not-found.txt", NULL);
	assert_int_equal(count(&p, "tool_error"), 2);
	expect(&p, 0, "modprobe", "module", "ib_ucm");
	expect(&p, 1, "modprobe", "module", "irdma");
	done(&p);
	p = scan(systemd, sizeof(systemd) - 1, NULL);
	assert_int_equal(count(&p, "tool_error"), 1);
	expect(&p, 0, "systemd-modules-load", "module", "gasket");
	done(&p);
}

/* Healthy installs of the same tools give nothing, nor do lines that only
 * look like the forms. */
static void test_not_failures(void **state)
{
	static const char *const healthy[] = {
		"healthy-mlnxofedinstall-end-openibd-restart.txt",
		"healthy-mlnx-en-install-fw-updated.txt",
		"healthy-dkms-nv-peer-mem-install-completed.txt",
	};
	static const char prose[] =
		"Error: the installation failed! Please retry.\n"
		"Module loading is slow on this host, see the notes.\n"
		"Loading HCA driver and Access Layer:                       "
		"[  OK  ]\n"
		"Error: \n";
	struct parsed p;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(healthy); i++) {
		p = scan_file(healthy[i], NULL);
		assert_int_equal(count(&p, "tool_error"), 0);
		done(&p);
	}
	p = scan(prose, sizeof(prose) - 1, NULL);
	assert_int_equal(count(&p, "tool_error"), 0);
	done(&p);
}

/* "Error: $name installation failed!" is mlnxofedinstall's only in its
 * output: under its command, in a text naming MLNX_OFED_LINUX, or with
 * the log it names next; other installers print the same words, and
 * "Package" is no package's name. */
static void test_installer_context(void **state)
{
	static const char other[] =
		"Error: kernel-headers installation failed! please help\n"
		"Collecting torch\n"
		"Error: nvidia-cuda-kernel installation failed!\n";
	static const char generic[] = "Error: Package installation failed!\n";
	static const char bare[] = "Error: knem installation failed!\n";
	static const char logged[] =
		"Error: knem installation failed!\n"
		"Collecting debug info...\n"
		"See:\n"
		"\t/tmp/OFED.1234.logs/knem.rpminstall.log\n";
	struct parsed p;

	(void)state;
	p = scan(other, sizeof(other) - 1, NULL);
	assert_int_equal(count(&p, "tool_error"), 0);
	done(&p);
	p = scan(generic, sizeof(generic) - 1, "mlnxofedinstall");
	assert_int_equal(count(&p, "tool_error"), 0);
	done(&p);
	p = scan(bare, sizeof(bare) - 1, NULL);
	assert_int_equal(count(&p, "tool_error"), 0);
	done(&p);
	p = scan(bare, sizeof(bare) - 1, "./mlnxofedinstall");
	assert_int_equal(count(&p, "tool_error"), 1);
	expect(&p, 0, "mlnxofedinstall", "package", "knem");
	done(&p);
	p = scan(logged, sizeof(logged) - 1, NULL);
	assert_int_equal(count(&p, "tool_error"), 1);
	expect(&p, 0, "mlnxofedinstall", "package", "knem");
	done(&p);
}

/* A line past the bound is not read; a value is cut at its bound; a NUL
 * byte does not stop the scan. */
static void test_hostile(void **state)
{
	size_t n = 100000;
	char *big = malloc(n + 1);
	struct parsed p;

	(void)state;
	memset(big, 'a', n);
	memcpy(big, "Failed to build MLNX_OFED_LINUX for ", 36);
	big[n] = '\0';
	p = scan(big, n, NULL);
	assert_int_equal(count(&p, "tool_error"), 0);
	done(&p);
	memset(big, 'k', 1000);
	memcpy(big, "Failed to build MLNX_OFED_LINUX for ", 36);
	big[1000] = '\n';
	p = scan(big, 1001, NULL);
	assert_int_equal(count(&p, "tool_error"), 1);
	assert_true(strlen(text(nth(&p, "tool_error", 0), "kernel")) <= 200);
	done(&p);
	free(big);
	{
		static const char nul[] = "Error! Bad return status\0 for\n"
					  "Error! Bad return status for module "
					  "build on kernel: 6.8.0-1 (x86_64)\n";

		p = scan(nul, sizeof(nul) - 1, NULL);
		assert_int_equal(count(&p, "tool_error"), 1);
		expect(&p, 0, "dkms", "kernel", "6.8.0-1");
		done(&p);
	}
}

/* A text whose every line is of a form, each line already cited by a
 * tool_error of the source (another parser read it), gives nothing more,
 * and costs its lines, not its lines times the facts: 40000 lines against
 * 40000 facts took seconds when each line walked every fact. */
static void test_many_cited_lines(void **state)
{
	enum { N = 40000 };
	static const char form[] =
		"modprobe: FATAL: Module m not found in directory /lib/x\n";
	size_t len = (sizeof(form) - 1) * N;
	char *text = malloc(len + 1);
	struct parsed p = { kb_base(), 0 };
	struct emit e;
	clock_t t0;

	(void)state;
	for (size_t i = 0; i < N; i++)
		memcpy(text + i * (sizeof(form) - 1), form, sizeof(form) - 1);
	text[len] = '\0';
	emit_init(&e, p.fb, "paste.txt");
	for (uint32_t i = 1; i <= N; i++) {
		struct line ln = { text, 1, i };
		struct fact *f = emit_begin(&e, "tool_error", &ln);
		char msg[32];
		int n = snprintf(msg, sizeof(msg), "line %u", (unsigned)i);

		emit_str(&e, f, "tool", "modprobe", 8, &ln);
		emit_str(&e, f, "message", msg, (size_t)n, &ln);
		emit_end(&e, f);
	}
	t0 = clock();
	assert_int_equal(install_scan(&e, text, len, NULL), 0);
	assert_true((double)(clock() - t0) / CLOCKS_PER_SEC < 1.0);
	done(&p);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_installer),
		cmocka_unit_test(test_dkms),
		cmocka_unit_test(test_package_managers),
		cmocka_unit_test(test_openibd),
		cmocka_unit_test(test_prefixed_module_lines),
		cmocka_unit_test(test_not_failures),
		cmocka_unit_test(test_installer_context),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_many_cited_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
