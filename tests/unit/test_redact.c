/* redact: each kind of identifier is masked, the same value always gets
 * the same token (hex without regard to case), look-alikes (versions,
 * times, PCI ids) are left alone, registered names are masked as words,
 * and the map lists what was masked. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/redact.h"

static void masks_to(struct redactor *r, const char *in, const char *want)
{
	char *got = redact_text(r, in, strlen(in));

	if (strcmp(got, want))
		fail_msg("redact(\"%s\")\n  got  \"%s\"\n  want \"%s\"", in, got,
			 want);
	free(got);
}

static void test_classes(void **state)
{
	struct redactor *r = redact_new();

	(void)state;
	masks_to(r, "inet 192.168.10.21/24 brd 192.168.10.255",
		 "inet redacted-ipv4-1/24 brd redacted-ipv4-2");
	masks_to(r, "from 192.168.10.21:", "from redacted-ipv4-1:");
	masks_to(r, "link/ether 0c:42:a1:d9:e4:a0 brd ff:ff:ff:ff:ff:ff",
		 "link/ether redacted-mac-1 brd redacted-mac-2");
	masks_to(r, "Node GUID: 0x0c42a10300d9e4a0",
		 "Node GUID: redacted-guid-1");
	masks_to(r, "node_guid=0c42:a103:00d9:e4a0",
		 "node_guid=redacted-guid-2");
	masks_to(r, "GID[  0]: fe80:0000:0000:0000:0c42:a103:00d9:e4a0",
		 "GID[  0]: redacted-gid-1");
	masks_to(r, "inet6 fe80::e42:a1ff:fed9:e4a0/64",
		 "inet6 redacted-ipv6-1/64");
	masks_to(r, "[VPD] Serial number: MT2048X12345",
		 "[VPD] Serial number: redacted-serial-1");
	masks_to(r, "SN=ABC-123", "SN=redacted-serial-2");
	masks_to(r, "/home/alice/rdma.log", "/home/redacted-user-1/rdma.log");
	/* a value right after a colour escape (the guide's terminal, ip -c) */
	masks_to(r, "\033[1m10.0.9.9\033[0m up",
		 "\033[1mredacted-ipv4-3\033[0m up");
	redact_free(r);
}

static void test_same_token(void **state)
{
	struct redactor *r = redact_new();

	(void)state;
	masks_to(r, "10.0.0.1 10.0.0.2 10.0.0.1", "redacted-ipv4-1 redacted-ipv4-2 redacted-ipv4-1");
	/* the same MAC in upper case is the same value */
	masks_to(r, "0c:42:a1:d9:e4:a0 0C:42:A1:D9:E4:A0",
		 "redacted-mac-1 redacted-mac-1");
	redact_free(r);
}

static void test_look_alikes(void **state)
{
	struct redactor *r = redact_new();
	const char *keep[] = {
		"firmware 16.26.1040 and mlx5_ib 5.7-1.0.2",
		"kernel 4.18.0-372.9.1.el8.x86_64",
		"at 10:23:40 UTC",
		"PCI 0000:3b:00.0 id 15b3:1017",
		"a version 1.2.3.4.5",
		"mlx5_0/1 ACTIVE",
		/* kernel addresses, as /proc/modules and oopses print them */
		"mlx5_core 2179072 1 mlx5_ib, Live 0xffffffffc0a4e000",
		"RIP: 0010:[<0xFFFFFFFF8105B0C4>]",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		masks_to(r, keep[i], keep[i]);
	redact_free(r);
}

static void test_known_names(void **state)
{
	struct redactor *r = redact_new();
	FILE *f;
	char *map = NULL;
	size_t len = 0;

	(void)state;
	redact_add(r, REDACT_HOST, "node07.example.org");
	redact_add(r, REDACT_HOST, "node07");
	masks_to(r, "host node07.example.org (node07), not node070",
		 "host redacted-host-1 (redacted-host-2), not node070");
	masks_to(r, "rdmadoctor-node07.json", "rdmadoctor-redacted-host-2.json");
	f = open_memstream(&map, &len);
	redact_write_map(r, f);
	fclose(f);
	assert_string_equal(map, "redacted-host-1\tnode07.example.org\n"
				 "redacted-host-2\tnode07\n");
	free(map);
	redact_free(r);
}

/* A recorded file may hold NUL bytes: each piece is masked, the NULs and
 * the length kept. */
static void test_bytes(void **state)
{
	struct redactor *r = redact_new();
	const char in[] = "host node07\0\0ip 10.0.0.1\0tail";
	const char want[] = "host redacted-host-1\0\0ip redacted-ipv4-1\0tail";
	size_t len = 0;
	char *got;

	(void)state;
	redact_add(r, REDACT_HOST, "node07");
	got = redact_bytes(r, in, sizeof(in) - 1, &len);
	assert_int_equal(len, sizeof(want) - 1);
	assert_memory_equal(got, want, len);
	free(got);
	got = redact_bytes(r, "", 0, &len);
	assert_int_equal(len, 0);
	assert_string_equal(got, "");
	free(got);
	redact_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_same_token),
		cmocka_unit_test(test_look_alikes),
		cmocka_unit_test(test_known_names),
		cmocka_unit_test(test_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
