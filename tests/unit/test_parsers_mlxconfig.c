/* The firmware-configuration parser (parse_mlxconfig.c: mlxconfig and
 * mstconfig query and set), mst status without -v (parse_mlnx.c) and a
 * lone lspci line of an RDMA adapter (parse_lspci.c), on real outputs
 * (tests/fixtures/hwtools/, their sources in its README.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include "parsed.h"

#define HW "tests/fixtures/hwtools/"

static struct parsed from_text(const char *format, const char *text,
			       const char *arg)
{
	return parse_text(format, text, strlen(text), "t.txt", arg);
}

static struct line mkline(const char *s)
{
	return (struct line){ s, strlen(s), 1 };
}

static bool row(const char *s)
{
	struct line l = mkline(s);

	return mlxconfig_row_line(&l);
}

static bool rdma_line(const char *s)
{
	struct line l = mkline(s);

	return lspci_rdma_header_line(&l);
}

static bool boolean(const struct fact *f, const char *field)
{
	const struct value *v = fact_get(f, sym_intern_cstr(field));

	if (!v || v->type != VALUE_BOOL)
		fail_msg("no boolean field %s", field);
	return v->b;
}

static bool has_field(const struct fact *f, const char *field)
{
	return fact_get(f, sym_intern_cstr(field)) != NULL;
}

static void test_query(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* a query's one column is the next boot's; the device and its
	 * type come from printOpening() */
	p = parse_file("transcript",
		       HW "tianhe2-cx4-mlxconfig-q-sriov-disabled-then-set.txt",
		       NULL);
	f = find(&p, "fw_config", "name", "SRIOV_EN");
	assert_string_equal(text(f, "device"), "/dev/mst/mt4115_pciconf0");
	assert_string_equal(text(f, "device_type"), "ConnectX4");
	assert_string_equal(text(f, "value"), "False");
	assert_int_equal(num(f, "value_num"), 0);
	assert_false(has_field(f, "pending"));
	assert_int_equal(line_of(f, "value"), 38);
	f = find(&p, "fw_config", "name", "MEMIC_SIZE_LIMIT");
	assert_string_equal(text(f, "value"), "_256KB");
	assert_int_equal(num(f, "value_num"), 1);
	assert_int_equal(num(find(&p, "fw_config", "name", "NUM_OF_VFS"),
			     "value_num"),
			 0);
	/* mst status without -v: the MST name gives the device id
	 * (mt4115: 0x1013), the next line the PCI function */
	f = find(&p, "pcie", "pci", "0000:af:00.0");
	assert_string_equal(text(f, "device_id"), "1013");
	assert_string_equal(text(f, "vendor_id"), "15b3");
	assert_string_equal(text(find(&p, "pcie", "pci", "0000:5e:00.0"),
				 "device_id"),
			    "1015");
	fact_base_free(p.fb);

	/* query -e's three columns without their header (a paste of the
	 * rows): Default, Current, Next Boot; named values or numbers */
	p = parse("mlxconfig", HW "sriov-op-492-mlxconfig-q-3col-rows-cx5.txt",
		  NULL);
	assert_int_equal(count(&p, "fw_config"), 14);
	f = find(&p, "fw_config", "name", "ROCE_NEXT_PROTOCOL");
	assert_int_equal(num(f, "value_num"), 254);
	assert_int_equal(num(f, "current_num"), 254);
	assert_int_equal(num(f, "default_num"), 254);
	assert_false(boolean(f, "pending"));
	assert_string_equal(
		text(find(&p, "fw_config", "name", "HOST_CHAINING_DESCRIPTORS"),
		     "value"),
		"Array[0..7]");
	fact_base_free(p.fb);

	/* an old mstconfig: "PCI device:", and "Current" the only column */
	p = parse("transcript",
		  HW "rhel-docs-mstconfig-q-current-sriov-cx3pro.txt", NULL);
	f = find(&p, "fw_config", "name", "LINK_TYPE_P1");
	assert_string_equal(text(f, "device"), "0000:00:06.0");
	assert_string_equal(text(f, "value"), "ETH");
	assert_false(has_field(f, "pending"));
	fact_base_free(p.fb);
}

static void test_set_and_errors(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* an applied set: New is the next boot's, Next Boot what it was */
	p = parse_file("transcript", HW "tianhe2-cx4-mlxconfig-set-sriov-en.txt",
		       NULL);
	f = find(&p, "fw_config", "name", "NUM_OF_VFS");
	assert_int_equal(num(f, "value_num"), 256);
	assert_int_equal(num(f, "current_num"), 0);
	assert_true(boolean(f, "pending"));
	fact_base_free(p.fb);

	/* a set the user declined is no change */
	p = from_text("mlxconfig",
		      "Configurations:                              Next Boot"
		      "       New\n"
		      "         SRIOV_EN                            False(0)"
		      "        True(1)\n"
		      "\n Apply new Configuration? (y/n) [n] : n\n"
		      "-E- Aborted by user.\n",
		      "/dev/mst/mt4115_pciconf0");
	f = find(&p, "fw_config", "name", "SRIOV_EN");
	assert_string_equal(text(f, "value"), "False");
	assert_false(has_field(f, "pending"));
	/* the user's "n" is no error of the tool */
	{
		size_t n;

		fact_base_of_kind(p.fb, sym_intern_cstr("tool_error"), &n);
		assert_int_equal(n, 0);
	}
	fact_base_free(p.fb);

	/* grep's rows under the command line: numbers alone, the device
	 * from -d */
	p = from_text("mlxconfig",
		      "        NUM_OF_VFS                                  16\n",
		      "05:00.0");
	f = find(&p, "fw_config", "name", "NUM_OF_VFS");
	assert_string_equal(text(f, "device"), "0000:05:00.0");
	assert_int_equal(num(f, "value_num"), 16);
	fact_base_free(p.fb);

	/* without a header or a command, a name and a number are no row
	 * (another tool's "SOME_NAME 3"); a named value is */
	assert_false(row("PORT_STATE 3"));
	assert_true(row("SRIOV_EN True(1)"));
	assert_true(row("* RO LINK_TYPE_P1 IB(1) ETH(2)"));
	assert_false(row("State: Active(4)"));

	/* the error of a query that could not open the device is the
	 * whole output, and still read as mlxconfig's */
	p = parse("mlxconfig",
		  HW "infra-controller-4102-mstconfig-reset-failed-identify.txt",
		  NULL);
	assert_string_equal(text(nth(&p, "tool_error", 0), "message"),
			    "-E- Failed to identify the device");
	fact_base_free(p.fb);
}

static void test_lspci_line(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* one line of an InfiniHost (pci.ids class 0c06 "InfiniBand") */
	p = parse_file("lspci",
		       HW "mstflint-20-mstflint-cannot-open-mfe-cr-error.txt",
		       NULL);
	f = find(&p, "pcie", "pci", "0031:01:00.0");
	assert_string_equal(text(f, "class"), "0c06");
	fact_base_free(p.fb);
	assert_true(rdma_line("0c:00.0 Infiniband controller: Mellanox "
			      "Technologies MT28908 Family [ConnectX-6]"));
	assert_false(rdma_line("00:1f.6 Ethernet controller: Intel "
			       "Corporation Ethernet Connection (7) I219-LM "
			       "(rev 10)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_query),
		cmocka_unit_test(test_set_and_errors),
		cmocka_unit_test(test_lspci_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
