/* The archive source: members kept in memory or read past by size and by
 * whether a collector reads them whole, the second pass that reads a
 * member read past when it is asked for after all, links to one, whole
 * members lent rather than copied, the caps against decompression bombs,
 * links that stay inside the archive, and a truncated archive. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collectors/sources/archive.h"
#include "collectors/sources/catalog.h"
#include "collectors/sources/source.h"

#define BIG 5000 /* bytes: over the test's keep_any */

#define NOISE 65536 /* bytes of a member that does not compress */
#define PAD (512 << 10) /* bytes before it: what the decompressor reads ahead */

static char tarball[64];
static char big_log[BIG + 1], big_other[BIG + 1], noise[NOISE], pad[PAD];

static void fill(char *buf, char c)
{
	for (size_t i = 0; i < BIG; i++)
		buf[i] = i % 80 == 79 ? '\n' : (char)(c + i % 7);
	buf[BIG] = '\0';
}

/* Writes members to a new temporary .tar.gz named in path (64 bytes). */
static int write_tarball(char *path, const struct archive_out *m, size_t n)
{
	char err[256];
	int fd, rc;

	snprintf(path, 64, "/tmp/rd-test-archiveXXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	rc = archive_write_tgz(fd, m, n, err, sizeof(err));
	close(fd);
	return rc;
}

/* A report with a small file, a large kernel log (which a collector reads
 * whole), a large file no collector wants, and links: to that file, out
 * of the report by "..", and to an absolute path. */
static int setup(void **state)
{
	struct archive_out m[] = {
		{ "report/etc/hostname", ARCHIVE_FILE, "node01\n", 7, NULL },
		{ "report/var/log/messages", ARCHIVE_FILE, big_log, BIG, NULL },
		{ "report/var/log/secure", ARCHIVE_FILE, big_other, BIG, NULL },
		{ "report/var/log/link", ARCHIVE_SYMLINK, NULL, 0, "secure" },
		{ "report/var/log/up", ARCHIVE_SYMLINK, NULL, 0,
		  "../../../../../../etc/hostname" },
		{ "report/var/log/abs", ARCHIVE_SYMLINK, NULL, 0,
		  "/etc/passwd" },
	};
	uint32_t x = 2463534242u;

	(void)state;
	fill(big_log, 'a');
	fill(big_other, 'A');
	for (size_t i = 0; i < NOISE; i++) { /* xorshift32 */
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		noise[i] = (char)x;
	}
	memset(pad, '.', PAD);
	return write_tarball(tarball, m, sizeof(m) / sizeof(*m));
}

static int teardown(void **state)
{
	(void)state;
	unlink(tarball);
	return 0;
}

static struct source *open_with(const char *path, const struct source_opts *o)
{
	struct diag *d = diag_new();
	bool notar;
	struct source *s = source_archive_new(path, &notar, o, d);

	assert_non_null(s);
	assert_int_equal(diag_count(d), 0);
	diag_free(d);
	return s;
}

static struct source *open_report(size_t keep_any)
{
	struct source_opts o = { .keep_any = keep_any };

	return open_with(tarball, &o);
}

static void read_file(struct source *s, const char *path, size_t max,
		      const char *want, size_t len)
{
	struct fetch f;

	assert_int_equal(source_read(s, path, max, &f), 0);
	assert_int_equal(f.len, len);
	assert_memory_equal(f.data, want, len);
	assert_int_equal(f.data[len], '\0');
	fetch_release(&f);
}

/* Reading path fails with status, and the message names why. */
static void read_fails(struct source *s, const char *path,
		       enum fetch_status status, const char *why)
{
	struct fetch f;

	assert_true(source_read(s, path, 0, &f) < 0);
	assert_int_equal(f.status, status);
	assert_non_null(f.detail);
	if (why && !strstr(f.detail, why))
		fail_msg("'%s': detail '%s' lacks '%s'", path, f.detail, why);
	fetch_release(&f);
}

/* The first diagnostic's message, which must hold want. */
static void assert_diag(const struct diag *d, enum diag_level level,
			const char *want)
{
	const struct diag_entry *e;

	assert_true(diag_count(d) >= 1);
	e = diag_get(d, 0);
	assert_int_equal(e->level, level);
	if (!strstr(e->message, want))
		fail_msg("message '%s' lacks '%s'", e->message, want);
}

/* Everything reads back the same whatever was kept: the large file no
 * collector wants comes from a second pass, once, and through its
 * link too. */
static void test_read_past_and_again(void **state)
{
	struct source *s = open_report(1024);

	(void)state;
	read_file(s, "/etc/hostname", 0, "node01\n", 7);
	read_file(s, "/var/log/messages", 0, big_log, BIG);
	read_file(s, "/var/log/secure", 0, big_other, BIG);
	read_file(s, "/var/log/secure", 0, big_other, BIG);
	read_file(s, "/var/log/link", 0, big_other, BIG);
	read_file(s, "/var/log/secure", 100, big_other, 100);
	source_free(s);
	s = open_report(1024);
	read_file(s, "/var/log/link", 10, big_other, 10);
	source_free(s);
}

/* What was kept is in memory; what was read past is not, and reading it
 * once the archive is gone fails rather than giving something else. */
static void test_kept_or_read_past(void **state)
{
	char copy[64];
	struct archive_out m[] = {
		{ "report/etc/hostname", ARCHIVE_FILE, "node01\n", 7, NULL },
		{ "report/var/log/messages", ARCHIVE_FILE, big_log, BIG, NULL },
		{ "report/var/log/secure", ARCHIVE_FILE, big_other, BIG, NULL },
	};
	struct source_opts o = { .keep_any = 1024 };
	struct source *s;

	(void)state;
	assert_int_equal(write_tarball(copy, m, sizeof(m) / sizeof(*m)), 0);
	s = open_with(copy, &o);
	unlink(copy);
	read_file(s, "/etc/hostname", 0, "node01\n", 7);
	read_file(s, "/var/log/messages", 0, big_log, BIG);
	read_fails(s, "/var/log/secure", FETCH_ERROR, copy);
	source_free(s);
}

/* A whole member is lent; a part is a copy of its own. */
static void test_lent_whole(void **state)
{
	struct source *s = open_report(0);
	struct fetch whole, part;

	(void)state;
	assert_int_equal(source_read(s, "/var/log/messages", 0, &whole), 0);
	assert_true(whole.borrowed);
	assert_int_equal(source_read(s, "/var/log/messages", 10, &part), 0);
	assert_false(part.borrowed);
	assert_int_equal(part.status, FETCH_TRUNCATED);
	assert_memory_equal(part.data, whole.data, 10);
	fetch_release(&part);
	fetch_release(&whole);
	source_free(s);
}

/* The per-member cap holds for a member kept on the first pass and for
 * one read again on the second. */
static void test_member_cap(void **state)
{
	struct source_opts o = { .max_read = 100, .keep_any = 1024 };
	struct source *s = open_with(tarball, &o);
	struct fetch f;

	(void)state;
	read_file(s, "/etc/hostname", 0, "node01\n", 7);
	assert_int_equal(source_read(s, "/var/log/messages", 0, &f), 0);
	assert_int_equal(f.status, FETCH_TRUNCATED);
	assert_int_equal(f.len, 100);
	assert_memory_equal(f.data, big_log, 100);
	fetch_release(&f);
	assert_int_equal(source_read(s, "/var/log/link", 0, &f), 0);
	assert_int_equal(f.status, FETCH_TRUNCATED);
	assert_int_equal(f.len, 100);
	assert_memory_equal(f.data, big_other, 100);
	fetch_release(&f);
	source_free(s);
}

/* The total cap counts every byte decompressed, those read past too: a
 * report over it is refused whole. */
static void test_total_cap(void **state)
{
	struct source_opts o = { .max_total = 8000, .keep_any = 1024 };
	struct diag *d = diag_new();
	bool notar;

	(void)state;
	assert_null(source_archive_new(tarball, &notar, &o, d));
	assert_false(notar);
	assert_diag(d, DIAG_ERROR, "decompression bomb");
	diag_free(d);
	o.max_total = BIG * 2 + 7;
	source_free(open_with(tarball, &o));
}

/* Links resolve inside the archive: ".." stops at its top, and an
 * absolute target names the archive's file, never the host's. */
static void test_links_stay_inside(void **state)
{
	struct source *s = open_report(1024);

	(void)state;
	read_file(s, "/var/log/up", 0, "node01\n", 7);
	read_fails(s, "/var/log/abs", FETCH_MISSING, NULL);
	source_free(s);
}

/* Members whose names leave the archive are skipped with a warning. */
static void test_escaping_names(void **state)
{
	char path[64];
	struct archive_out m[] = {
		{ "report/etc/hostname", ARCHIVE_FILE, "node01\n", 7, NULL },
		{ "report/../../evil", ARCHIVE_FILE, "x\n", 2, NULL },
	};
	struct diag *d = diag_new();
	struct source *s;
	bool notar;

	(void)state;
	assert_int_equal(write_tarball(path, m, sizeof(m) / sizeof(*m)), 0);
	s = source_archive_new(path, &notar, NULL, d);
	unlink(path);
	assert_non_null(s);
	assert_diag(d, DIAG_WARNING, "'report/../../evil'");
	read_file(s, "/etc/hostname", 0, "node01\n", 7);
	read_fails(s, "/evil", FETCH_MISSING, NULL);
	read_fails(s, "/../evil", FETCH_MISSING, NULL);
	diag_free(d);
	source_free(s);
}

/* A truncated archive gives the members before the damage, a member read
 * past among them, with a warning; the damaged member is missing. */
static void test_truncated(void **state)
{
	char path[64];
	struct archive_out m[] = {
		{ "report/etc/hostname", ARCHIVE_FILE, "node01\n", 7, NULL },
		{ "report/var/log/secure", ARCHIVE_FILE, big_other, BIG, NULL },
		{ "report/var/log/cron", ARCHIVE_FILE, pad, PAD, NULL },
		{ "report/var/log/noise", ARCHIVE_FILE, noise, NOISE, NULL },
	};
	struct source_opts o = { .keep_any = 1024 };
	struct diag *d = diag_new();
	struct source *s;
	struct stat st;
	bool notar;

	(void)state;
	assert_int_equal(write_tarball(path, m, sizeof(m) / sizeof(*m)), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size > NOISE);
	assert_int_equal(truncate(path, st.st_size - NOISE / 2), 0);
	s = source_archive_new(path, &notar, &o, d);
	assert_non_null(s);
	assert_diag(d, DIAG_WARNING, "archive is damaged");
	assert_non_null(strstr(source_detail(s), "damaged archive"));
	read_file(s, "/etc/hostname", 0, "node01\n", 7);
	read_file(s, "/var/log/secure", 0, big_other, BIG);
	read_fails(s, "/var/log/noise", FETCH_MISSING, NULL);
	unlink(path);
	diag_free(d);
	source_free(s);
}

/* Which paths a collector reads whole. */
static void test_wanted_paths(void **state)
{
	(void)state;
	assert_true(catalog_wants("sos_commands/kernel/dmesg"));
	assert_true(catalog_wants(
		"sos_commands/logs/journalctl_--no-pager_--catalog_--boot"));
	assert_true(catalog_wants("sos_commands/networking/ethtool_-i_eth0"));
	assert_true(catalog_wants("var/log/messages"));
	assert_true(catalog_wants("var/log/messages-20240301"));
	assert_true(catalog_wants("var/log/kern.log.1"));
	assert_false(catalog_wants("var/log/messagesx"));
	assert_false(catalog_wants("var/log/secure"));
	assert_false(catalog_wants("var/log/containers/app.log"));
	assert_false(
		catalog_wants("sos_commands/networking/ethtool_-i_eth0/x"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_past_and_again),
		cmocka_unit_test(test_kept_or_read_past),
		cmocka_unit_test(test_lent_whole),
		cmocka_unit_test(test_member_cap),
		cmocka_unit_test(test_total_cap),
		cmocka_unit_test(test_links_stay_inside),
		cmocka_unit_test(test_escaping_names),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_wanted_paths),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
