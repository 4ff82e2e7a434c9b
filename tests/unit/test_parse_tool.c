/* Error lines of command-line RDMA tools (collectors/parsers/parse_tool.c)
 * found anywhere in a text: the shells' "not found" forms, the loader's
 * missing library, infiniband-diags' ibwarn/ibpanic/iberror, a tool's own
 * error line; and the lines that are none (prose, healthy output, debug
 * traces, other programs). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka needs the headers above first. */
#include <cmocka.h>

#include "collectors/parsers/blocks.h"
#include "collectors/parsers/logscan.h"
#include "collectors/parsers/parse_tool.h"
#include "engine/diag.h"
#include "engine/kb.h"
#include "engine/xalloc.h"
#include "parsed.h"

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
static struct parsed scan(const char *text, const char *command)
{
	struct parsed p = { kb_base(), 0 };
	struct emit e;

	emit_init(&e, p.fb, "paste.txt");
	e.app_scan = logscan_new_for(p.fb, "app_message", NULL);
	p.facts = tool_scan(&e, text, strlen(text), command);
	logscan_free(e.app_scan);
	return p;
}

static void done(struct parsed *p)
{
	fact_base_free(p->fb);
}

/* One line must give one tool_error of tool with reason. */
static const struct fact *one(struct parsed *p, const char *tool,
			      const char *reason)
{
	const struct fact *f;

	assert_int_equal(count(p, "tool_error"), 1);
	f = nth(p, "tool_error", 0);
	assert_string_equal(text(f, "tool"), tool);
	assert_string_equal(text(f, "reason"), reason);
	return f;
}

/* The shells' forms, from their format strings: bash execute_cmd.c
 * ("%s: command not found" behind the shell's name, "line N:" under -c),
 * sudo, dash src/exec.c ("%s: %d: %s: not found"), zsh Src/exec.c
 * ("command not found: %s"), and bash on a path that does not exist. */
static void test_not_found_forms(void **state)
{
	static const struct {
		const char *line, *tool, *entry;
	} cases[] = {
		{ "-bash: ibstat: command not found", "ibstat", "ibstat" },
		{ "bash: line 1: ib_write_bw: command not found",
		  "ib_write_bw", "ib_*_bw" },
		{ "sudo: mst: command not found", "mst", "mst" },
		{ "sh: 1: ibv_devinfo: not found", "ibv_devinfo",
		  "ibv_devinfo" },
		{ "zsh: command not found: ibv_rc_pingpong", "ibv_rc_pingpong",
		  "ibv_*_pingpong" },
		{ "-bash: /usr/sbin/ibstatus: No such file or directory",
		  "ibstatus", "ibstatus" },
		{ "ofed_info: command not found", "ofed_info", "ofed_info" },
		/* markdown and mail quoting around it */
		{ "> `-bash: rdma: command not found`", "rdma", "rdma" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct parsed p = scan(cases[i].line, NULL);
		const struct fact *f = one(&p, cases[i].tool,
					   "command_not_found");

		assert_string_equal(text(f, "kb_name"), cases[i].entry);
		done(&p);
	}
}

/* glibc's loader: "%s: error while loading shared libraries: %s: %s". */
static void test_missing_library(void **state)
{
	struct parsed p = scan(
		"ib_write_bw: error while loading shared libraries: "
		"libibverbs.so.1: cannot open shared object file: No such file "
		"or directory\n",
		NULL);
	const struct fact *f = one(&p, "ib_write_bw", "missing_library");

	(void)state;
	assert_string_equal(text(f, "library"), "libibverbs.so.1");
	done(&p);
}

/* treydock/infiniband_exporter#26 (perfquery and ibnetdiscover on RoCE
 * ports) and the Debian VM's sos report (tests/fixtures/sos-debian-vm,
 * ibswitches without ib_umad): libibmad's IBWARN and infiniband-diags'
 * ibexit() lines, the tool named where the line names it. */
static void test_infiniband_diags_lines(void **state)
{
	struct parsed p = scan(
		"ibwarn: [298726] mad_rpc_open_port: client_register for mgmt 1 failed\n"
		"ibnetdiscover: iberror: failed: discover failed\n"
		"perfquery: iberror: failed: Failed to open '(null)' port '0'\n"
		"ibwarn: [24291] mad_rpc_open_port: can't open UMAD port ((null):0)\n"
		"/usr/sbin/ibnetdiscover: iberror: failed: discover failed\n",
		NULL);

	(void)state;
	assert_int_equal(count(&p, "tool_error"), 5);
	assert_string_equal(text(nth(&p, "tool_error", 0), "tool"),
			    "infiniband-diags");
	assert_string_equal(text(nth(&p, "tool_error", 1), "tool"),
			    "ibnetdiscover");
	assert_string_equal(text(nth(&p, "tool_error", 2), "tool"),
			    "perfquery");
	/* "(null)" is no device */
	assert_null(fact_get(nth(&p, "tool_error", 2),
			     sym_intern_cstr("device")));
	assert_string_equal(text(nth(&p, "tool_error", 4), "tool"),
			    "ibnetdiscover");
	done(&p);

	/* under the tool's command line, an ibwarn is that tool's */
	p = scan("ibwarn: [299010] mad_rpc_open_port: client_register for "
		 "mgmt 1 failed\n",
		 "perfquery");
	one(&p, "perfquery", "error");
	done(&p);
}

/* A line that names no tool (MFT's "-E-", an init script's [FAILED]) is
 * the tool's whose command line the text is under, and nobody's without
 * one. */
static void test_command_names_the_tool(void **state)
{
	static const char mft[] = "-E- Cannot open Device: 07:00.0. Operation "
				  "not supported. MFE_CR_ERROR\n";
	static const char init[] = "Loading HCA driver and Access Layer:"
				   "                       [FAILED]\n";
	struct parsed p = scan(mft, "mstflint");
	const struct fact *f = one(&p, "mstflint", "error");

	(void)state;
	assert_string_equal(text(f, "device"), "0000:07:00.0");
	done(&p);
	p = scan(mft, NULL);
	assert_int_equal(count(&p, "tool_error"), 0);
	done(&p);
	p = scan(mft, "cat");
	assert_int_equal(count(&p, "tool_error"), 0);
	done(&p);
	p = scan(init, "openibd");
	one(&p, "openibd", "error");
	done(&p);
	p = scan(init, NULL);
	assert_int_equal(count(&p, "tool_error"), 0);
	done(&p);
	/* the script named on the line itself, as a page flattens it */
	p = scan("# /etc/init.d/mlnx-en.d restart Unloading HCA driver: [ OK ] "
		 "Loading rdma_ucm [FAILED]\n",
		 NULL);
	one(&p, "mlnx-en.d", "error");
	done(&p);
}

/* kmod's modprobe anywhere, with the module it names; a device in
 * quotes. */
static void test_fields(void **state)
{
	struct parsed p = scan("modprobe: FATAL: Module mlx5_ib not found in "
			       "directory /lib/modules/5.15.0-91-generic\n",
			       NULL);

	(void)state;
	assert_string_equal(text(one(&p, "modprobe", "error"), "module"),
			    "mlx5_ib");
	done(&p);
	p = scan("ibstat: iberror: failed: 'mlx5_3' IB device can't be found\n",
		 NULL);
	assert_string_equal(text(one(&p, "ibstat", "error"), "device"),
			    "mlx5_3");
	done(&p);
}

/* Lines that are not a tool's error: prose naming a tool, healthy
 * output, a debug trace of ibwarn (rdma-core#847, ibportstate -G with
 * debugging), another program's errors (SoftRoCE/rxe-dev#49: rxe_cfg's
 * "sh: echo: I/O error"), a shell's not-found for a program that is no
 * RDMA tool. */
static void test_not_errors(void **state)
{
	static const char *const lines[] = {
		"I ran ibstat: it shows State: Active on both ports",
		"ibstat: State: Active",
		"\t\tState: Active",
		"\t\tPhysical state: LinkUp",
		"CA 'mlx5_0'",
		"ibwarn: [168997] umad_init: umad_init",
		"ibwarn: [168997] umad_open_port: opening mlx4_0 port 1",
		"sh: echo: I/O error",
		"-bash: ls: command not found",
		"python3: error while loading shared libraries: libpython3.so: "
		"cannot open shared object file: No such file or directory",
		"sminfo: sm lid 1 sm guid 0x248a0703005abb1c, activity count "
		"3521 priority 15 state 3 SMINFO_MASTER",
		"[root@node1 ~]# ibstat mlx5_0",
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		struct parsed p = scan(lines[i], NULL);

		if (count(&p, "tool_error"))
			fail_msg("'%s' read as a tool error", lines[i]);
		done(&p);
	}
}

/* Without the kb's tool entries nothing is recognised: the names are
 * data. */
static void test_names_are_data(void **state)
{
	struct parsed p = { fact_base_new(), 0 };
	struct emit e;
	static const char line[] = "-bash: ibstat: command not found\n";

	(void)state;
	emit_init(&e, p.fb, "paste.txt");
	assert_int_equal(tool_scan(&e, line, strlen(line), NULL), 0);
	done(&p);
}

/* In a paste, a line a tool's own parser read (ibstat's ibpanic) is not
 * read twice; the shell's line after a prompt is read, and a paste of
 * nothing else is read, not rejected. */
static void test_in_a_paste(void **state)
{
	struct parsed p = { kb_base(), 0 };
	struct diag *d = diag_new();
	struct blocks_summary sum;
	struct emit e;
	static const char session[] =
		"[root@node1 ~]# ibstat\n"
		"ibpanic: [4260] main: can't init UMAD library: (No such file or "
		"directory)\n"
		"[root@node1 ~]# ofed_info -s\n"
		"-bash: ofed_info: command not found\n";

	(void)state;
	emit_init(&e, p.fb, "paste.txt");
	e.scan = logscan_new(p.fb, d);
	e.app_scan = logscan_new_for(p.fb, "app_message", NULL);
	p.facts = blocks_parse(&e, session, strlen(session), &sum);
	assert_int_equal(count(&p, "tool_error"), 2);
	assert_string_equal(text(nth(&p, "tool_error", 0), "tool"), "ibstat");
	assert_null(fact_get(nth(&p, "tool_error", 0),
			     sym_intern_cstr("reason")));
	assert_string_equal(text(nth(&p, "tool_error", 1), "reason"),
			    "command_not_found");
	assert_true(sum.understood >= 1);
	blocks_summary_release(&sum);
	logscan_free(e.scan);
	logscan_free(e.app_scan);
	diag_free(d);
	done(&p);
}

/* An application's error line twice: one app_error counts both (it cites
 * the first), and the copy is no tool's error either. */
static void test_copies_of_an_application_line(void **state)
{
	struct parsed p = { kb_base(), 0 };
	struct diag *d = diag_new();
	struct blocks_summary sum;
	struct emit e;
	static const char twice[] =
		"ibv_rc_pingpong: ibv_create_qp failed: Cannot allocate memory\n"
		"ibv_rc_pingpong: ibv_create_qp failed: Cannot allocate memory\n";

	(void)state;
	emit_init(&e, p.fb, "paste.txt");
	e.scan = logscan_new(p.fb, d);
	e.app_scan = logscan_new_for(p.fb, "app_message", NULL);
	p.facts = blocks_parse(&e, twice, strlen(twice), &sum);
	assert_int_equal(count(&p, "app_error"), 1);
	assert_int_equal(num(nth(&p, "app_error", 0), "count"), 2);
	assert_int_equal(count(&p, "tool_error"), 0);
	blocks_summary_release(&sum);
	logscan_free(e.scan);
	logscan_free(e.app_scan);
	diag_free(d);
	done(&p);
}

/* Bounds: a huge line, NUL bytes, a name longer than a program's. */
static void test_hostile(void **state)
{
	size_t n = 100000;
	char *big = malloc(n + 1);
	struct parsed p;

	(void)state;
	memset(big, 'a', n);
	memcpy(big, "ibstat: ", 8);
	memcpy(big + n - 6, "failed", 6);
	big[n] = '\0';
	p = scan(big, NULL);
	/* the line is looked at up to its bound: the error word is past it */
	assert_int_equal(count(&p, "tool_error"), 0);
	done(&p);
	memset(big, 'x', 200);
	memcpy(big + 200, ": command not found", 20);
	p = scan(big, NULL);
	assert_int_equal(count(&p, "tool_error"), 0);
	done(&p);
	free(big);
	{
		static const char nul[] = "ibstat: \0failed\n-bash: ibstat: "
					  "command not found\n";
		struct emit e;

		p = (struct parsed){ kb_base(), 0 };
		emit_init(&e, p.fb, "paste.txt");
		tool_scan(&e, nul, sizeof(nul) - 1, NULL);
		/* the line after a NUL byte is still read */
		assert_true(count(&p, "tool_error") >= 1);
		assert_string_equal(
			text(nth(&p, "tool_error",
				 count(&p, "tool_error") - 1),
			     "reason"),
			"command_not_found");
		done(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_not_found_forms),
		cmocka_unit_test(test_missing_library),
		cmocka_unit_test(test_infiniband_diags_lines),
		cmocka_unit_test(test_command_names_the_tool),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_not_errors),
		cmocka_unit_test(test_names_are_data),
		cmocka_unit_test(test_in_a_paste),
		cmocka_unit_test(test_copies_of_an_application_line),
		cmocka_unit_test(test_hostile),
	};

	return cmocka_run_group_tests_name("parsers (tool errors)", tests,
					   NULL, NULL);
}
