/* tty: wrapping a line to the window, as the guided session prints. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include <string.h>

#include "cli/tty.h"

/* Wraps line at width; checks the rows and the text. */
static void wraps(const char *line, int width, int rows, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(tty_wrap(line, strlen(line), width, &sb), rows);
	assert_string_equal(sb_str(&sb), want);
	sb_release(&sb);
}

static void test_short_line(void **state)
{
	(void)state;
	wraps("  Found: mlx5_0", 20, 1, "  Found: mlx5_0");
	wraps("", 20, 1, "");
	wraps("trailing   ", 20, 1, "trailing");
}

static void test_prose(void **state)
{
	(void)state;
	/* no indent: continuation rows start at the margin; two spaces
	 * after a sentence are not a table cell */
	wraps("It walks the stack.  Questions take a number.", 20, 3,
	      "It walks the stack.\nQuestions take a\nnumber.");
	/* an indented line continues two further in */
	wraps("    mlx5_0 runs firmware 16.26.1040 today", 24, 2,
	      "    mlx5_0 runs firmware\n      16.26.1040 today");
}

static void test_list_and_cells(void **state)
{
	(void)state;
	wraps("    - upgrade FW to ≥16.27.2000 then reset", 28, 2,
	      "    - upgrade FW to\n      ≥16.27.2000 then reset");
	/* a gap of two spaces after a label: continue under the cell */
	wraps("  user  recent_change=kernel and more words", 30, 2,
	      "  user  recent_change=kernel\n        and more words");
	/* a cell further in than half the width: the plain indent */
	wraps("  a long label here  value that wraps", 30, 2,
	      "  a long label here  value\n    that wraps");
}

static void test_escapes_and_utf8(void **state)
{
	(void)state;
	/* colour takes no column; ≥ takes one */
	wraps("\033[1;31mFAULT\033[0m ≥123", 10, 1,
	      "\033[1;31mFAULT\033[0m ≥123");
	wraps("\033[1;31mFAULT\033[0m ≥1234", 10, 2,
	      "\033[1;31mFAULT\033[0m\n≥1234");
	/* East Asian wide characters take two columns each (wcwidth):
	 * "网卡" is four columns, so "网卡 mlx5_0" is eleven */
	wraps("网卡 mlx5_0", 11, 1, "网卡 mlx5_0");
	wraps("网卡 mlx5_0", 10, 2, "网卡\nmlx5_0");
	/* a combining mark takes none */
	wraps("cafe\xcc\x81 ok", 7, 1, "cafe\xcc\x81 ok");
}

static void test_long_word(void **state)
{
	(void)state;
	/* a word longer than the row breaks at the edge */
	wraps("  /sys/class/infiniband/mlx5_0", 12, 4,
	      "  /sys/class\n    /infinib\n    and/mlx5\n    _0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_line),
		cmocka_unit_test(test_prose),
		cmocka_unit_test(test_list_and_cells),
		cmocka_unit_test(test_escapes_and_utf8),
		cmocka_unit_test(test_long_word),
	};

	return cmocka_run_group_tests_name("tty", tests, NULL, NULL);
}
