/* The directory source: links resolve inside the tree ("..", absolute
 * targets, chains, loops, dangling links), and every answer is the same
 * when it is asked again, which the tree's remembered lstat and readlink
 * results serve. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collectors/sources/source.h"
#include "engine/diag.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void mk(const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(mkdir(path, 0755), 0);
}

static void ln(const char *target, const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(symlink(target, path), 0);
}

/* A sysfs-like tree: a device directory reached through class links, an
 * absolute link, a link out of the tree by "..", a loop and a dangling
 * link. */
static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/rd-test-dirXXXXXX");
	assert_non_null(mkdtemp(root));
	mk("sys");
	mk("sys/devices");
	mk("sys/devices/pci0");
	mk("sys/devices/pci0/0000:3b:00.0");
	put("sys/devices/pci0/0000:3b:00.0/fw_ver", "16.35.2000\n");
	mk("sys/class");
	mk("sys/class/infiniband");
	ln("../../devices/pci0/0000:3b:00.0", "sys/class/infiniband/mlx5_0");
	ln("/sys/class/infiniband/mlx5_0", "sys/class/infiniband/abs");
	ln("../../../../../../etc", "sys/class/infiniband/up");
	ln("loop2", "sys/class/infiniband/loop1");
	ln("loop1", "sys/class/infiniband/loop2");
	ln("gone", "sys/class/infiniband/dangling");
	mk("etc");
	put("etc/hostname", "node01\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) ? -1 : 0;
}

static struct source *open_tree(void)
{
	struct diag *d = diag_new();
	struct source *s = source_dir_new(root, true, NULL, d);

	assert_non_null(s);
	diag_free(d);
	return s;
}

static void read_is(struct source *s, const char *path, const char *want)
{
	struct fetch f = { 0 };

	assert_int_equal(source_read(s, path, 0, &f), 0);
	assert_int_equal(f.status, FETCH_OK);
	assert_string_equal(f.data, want);
	fetch_release(&f);
}

static void read_fails(struct source *s, const char *path)
{
	struct fetch f = { 0 };

	source_read(s, path, 0, &f);
	assert_int_not_equal(f.status, FETCH_OK);
	fetch_release(&f);
}

static void real_is(struct source *s, const char *path, int err,
		    const char *want)
{
	char *out = NULL;

	assert_int_equal(source_realpath(s, path, &out), err);
	assert_non_null(out);
	assert_string_equal(out, want);
	free(out);
}

/* Each question twice: the second answer comes from what the first
 * remembered, and must not differ. */
static void test_links_twice(void **state)
{
	struct source *s = open_tree();

	(void)state;
	for (int round = 0; round < 2; round++) {
		read_is(s, "/sys/class/infiniband/mlx5_0/fw_ver",
			"16.35.2000\n");
		read_is(s, "/sys/class/infiniband/abs/fw_ver", "16.35.2000\n");
		read_is(s, "/sys/class/infiniband/up/hostname", "node01\n");
		real_is(s, "/sys/class/infiniband/mlx5_0", 0,
			"/sys/devices/pci0/0000:3b:00.0");
		real_is(s, "/sys/class/infiniband/dangling", -ENOENT,
			"/sys/class/infiniband/gone");
		read_fails(s, "/sys/class/infiniband/loop1/x");
		read_fails(s, "/sys/class/infiniband/mlx5_0/absent");
		assert_true(source_exists(s, "/sys/class/infiniband/abs"));
		assert_false(source_exists(s, "/sys/class/infiniband/dangling"));
		assert_true(source_lexists(s, "/sys/class/infiniband/dangling"));
	}
	source_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_links_twice),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
