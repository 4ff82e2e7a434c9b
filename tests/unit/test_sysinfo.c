/* sysinfo-snapshot: the report cut into its sections and unescaped, the
 * tool's file names, other_system_files' entries, hostile reports, and the
 * overlay that serves them as host files (on the ConnectX-3 fixture). */
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

#include "collectors/sources/catalog.h"
#include "collectors/sources/source.h"
#include "collectors/sources/sysinfo.h"
#include "engine/diag.h"
#include "engine/strbuf.h"
#include "engine/xalloc.h"

#define CX3 \
	"tests/fixtures/sysinfo-cx3-eth/sysinfo-snapshot-v3.7.9.9-cx3node-20240301-101500"

struct got {
	struct strbuf names; /* "number name|" per section */
	char *body[8];
	size_t n;
};

static void on_section(const struct sysinfo_section *sec, void *arg)
{
	struct got *g = arg;
	size_t len;

	sb_printf(&g->names, "%ld %.*s|", sec->number, (int)sec->name_len,
		  sec->name);
	if (g->n < 8)
		g->body[g->n] = sysinfo_html_text(sec->body, sec->body_len, &len);
	g->n++;
}

static void got_release(struct got *g)
{
	sb_release(&g->names);
	for (size_t i = 0; i < g->n && i < 8; i++)
		free(g->body[i]);
}

/* Two sections as the tool wrote them on the development machine
 * (tests/fixtures/sysinfo-vm-no-rdma), the second shortened. */
static const char report[] =
	"<h2>1. Server Commands: </h2><table><tr><td><h3>Nvidia Firmware Tools</h3>"
	"</td></tr></table><p><a name=\"sec1104\"></a><small><a href=\"#sec1103\">"
	"[&lt;&lt;prev]</a></small> <small><a href=\"#index\">[back to index]</a>"
	"</small> <small><a href=\"#sec2101\">[next>>]</a></small> <h2>"
	"mst_commands_query_output</h2><p>There are no Mellanox cards.\n"
	"&nbsp;&nbsp;&nbsp;&nbsp;</p></p><p><a name=\"sec1802\"></a><small>"
	"<a href=\"#sec1801\">[&lt;&lt;prev]</a></small> <h2>ulimit -a</h2><p>"
	"time(seconds)        unlimited<br/>locked memory(kbytes) 8192<br/>"
	"eth0: flags=4163&lt;UP,BROADCAST&gt;&nbsp;&nbsp;&nbsp;&nbsp;mtu 1400"
	"</p></p><p><a name=\"sec3001\"></a><h2>/etc/debian_version</h2><p>12.11"
	"</p></p></body></pre></html>";

static void test_sections(void **state)
{
	struct diag *d = diag_new();
	struct got g = { STRBUF_INIT, { 0 }, 0 };

	(void)state;
	assert_int_equal(sysinfo_html_sections(report, strlen(report), "r.html",
					       d, on_section, &g),
			 3);
	assert_string_equal(
		sb_str(&g.names),
		"1104 mst_commands_query_output|1802 ulimit -a|3001 /etc/debian_version|");
	assert_string_equal(g.body[0], "There are no Mellanox cards.\n\t");
	assert_string_equal(g.body[1],
			    "time(seconds)        unlimited\n"
			    "locked memory(kbytes) 8192\n"
			    "eth0: flags=4163<UP,BROADCAST>\tmtu 1400");
	assert_string_equal(g.body[2], "12.11");
	assert_int_equal(diag_count(d), 0);
	got_release(&g);
	diag_free(d);
}

static void test_text(void **state)
{
	static const char in[] = "a&amp;b &quot;q&quot; &#39;s&#39; &#65;"
				 " &#999; &bogus; 1 < 2 <td><a href=x>link</a>"
				 "</td><br>end<br />";
	size_t len;
	char *t = sysinfo_html_text(in, strlen(in), &len);

	(void)state;
	assert_string_equal(t, "a&b \"q\" 's' A &#999; &bogus; 1 < 2 link\nend\n");
	assert_int_equal(len, strlen(t));
	free(t);
	/* no '>' left: each '<' after is kept, and the rest is read once
	 * (a hostile run of "<a" was quadratic) */
	{
		static const char hostile[] = "<b>x</b> <a<a<x &lt; y";

		t = sysinfo_html_text(hostile, strlen(hostile), &len);
	}
	assert_string_equal(t, "x <a<a<x < y");
	free(t);
}

/* The names the tool gave these commands' files on the development
 * machine (tests/fixtures/sysinfo-vm-no-rdma/.../commands_txt_output). */
static void test_file_name(void **state)
{
	static const char *const cases[][2] = {
		{ "ip -s -s link show", "ip_s_s_link_show" },
		{ "blkid -c /dev/null | sort", "blkid_c_devnull_sort" },
		{ "dpkg -l net-tools | cat", "dpkg_l_nettools_cat" },
		{ "mlxlink / mstlink", "mlxlink_mstlink" },
		{ "journalctl -u virtio-net-controller",
		  "journalctl_u_virtionetcontroller" },
		{ "ulimit -a", "ulimit_a" },
		{ "ibv_devinfo -v", "ibv_devinfo_v" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *n = sysinfo_file_name(cases[i][0], strlen(cases[i][0]));

		assert_string_equal(n, cases[i][1]);
		free(n);
	}
}

struct files {
	struct strbuf out;
};

static void on_file(const struct sysinfo_file *f, void *arg)
{
	struct files *fs = arg;

	sb_printf(&fs->out, "%d[%.*s]=[%.*s]", f->line, (int)f->path_len,
		  f->path, (int)f->data_len, f->data);
}

static void test_system_files(void **state)
{
	static const char in[] =
		"File: /sys/devices/pci0000:00/0000:00:02.0/0000:0b:00.0/infiniband/mlx4_0/fw_ver: 2.40.7000\n"
		"File: /sys/class/infiniband_mad/abi_version: 5\n"
		"File: /sys/x/empty: File: /sys/x/two_lines: a\nb\n"
		"\n -------------------------------------------------------- \n"
		"Cannot open the following files: \n"
		"File: /sys/x/unreadable\n";
	struct files fs = { STRBUF_INIT };
	struct diag *d = diag_new();

	(void)state;
	assert_int_equal(sysinfo_system_files(in, strlen(in), "osf", d,
					      on_file, &fs),
			 4);
	assert_string_equal(
		sb_str(&fs.out),
		"1[/sys/devices/pci0000:00/0000:00:02.0/0000:0b:00.0/infiniband/mlx4_0/fw_ver]=[2.40.7000\n]"
		"2[/sys/class/infiniband_mad/abi_version]=[5\n]"
		"3[/sys/x/empty]=[]"
		"3[/sys/x/two_lines]=[a\nb\n]");
	assert_int_equal(diag_count(d), 0);
	sb_release(&fs.out);
	diag_free(d);
}

/* Hostile reports: a title never closed, a huge title, a body never
 * closed; each is named with its line and the rest is still read. */
static void test_hostile(void **state)
{
	struct strbuf in = STRBUF_INIT;
	struct got g = { STRBUF_INIT, { 0 }, 0 };
	struct diag *d = diag_new();

	(void)state;
	sb_puts(&in, "<a name=\"sec1\"></a><h2>open title\n");
	sb_puts(&in, "<a name=\"sec2\"></a><h2>");
	for (int i = 0; i <= SYSINFO_NAME_MAX; i++)
		sb_putc(&in, 'x');
	sb_puts(&in, "</h2><p>x</p>\n<a name=\"sec3x\"><a name=\"sec\">");
	sb_puts(&in, "<a name=\"sec3001\"></a><h2>/proc/modules</h2><p>m 1 0");
	assert_int_equal(sysinfo_html_sections(in.buf, in.len, "h.html", d,
					       on_section, &g),
			 1);
	assert_string_equal(sb_str(&g.names), "3001 /proc/modules|");
	assert_string_equal(g.body[0], "m 1 0");
	assert_int_equal(diag_count(d), 3);
	assert_string_equal(diag_get(d, 0)->message,
			    "section 'sec1': unterminated <h2>; read up to the next section");
	assert_int_equal(diag_get(d, 0)->line, 1);
	assert_int_equal(diag_get(d, 1)->line, 2);
	assert_non_null(strstr(diag_get(d, 1)->message, "title over"));
	assert_string_equal(diag_get(d, 2)->message,
			    "2 sections in all are unterminated");
	got_release(&g);
	sb_release(&in);
	diag_free(d);
}

static char *read_all(struct source *s, const char *path)
{
	struct fetch f;
	char *r = NULL;

	if (!source_read(s, path, 0, &f))
		r = xstrdup(f.data);
	fetch_release(&f);
	return r;
}

/* The overlay on the ConnectX-3 bundle: /sys rebuilt with its links, the
 * report's section for a command without a .txt, the bundle's own file
 * before the report's, and ethtool -i cut out for its interface. */
static void test_overlay(void **state)
{
	struct diag *d = diag_new();
	struct source *s = source_dir_new(CX3, false, NULL, d);
	struct names ls;
	struct fetch f;
	char *t, *real;

	(void)state;
	assert_non_null(s);
	assert_int_equal(source_kind(s), SOURCE_SYSINFO);
	assert_int_equal(source_list(s, "/sys/class/infiniband", &ls), 0);
	assert_int_equal(ls.n, 1);
	assert_string_equal(ls.v[0], "mlx4_0");
	names_release(&ls);
	t = read_all(s, "/sys/class/infiniband/mlx4_0/ports/2/state");
	assert_string_equal(t, "4: ACTIVE\n");
	free(t);
	assert_int_equal(source_realpath(s, "/sys/class/infiniband/mlx4_0/device",
					 &real),
			 0);
	assert_string_equal(real, "/sys/devices/pci0000:00/0000:00:02.0/0000:0b:00.0");
	free(real);
	assert_int_equal(source_command(s, catalog_find("ibv_devinfo"), NULL, &f),
			 0);
	assert_string_equal(f.where,
			    "cx3node-20240301-101500.html: section 'ibv_devinfo -v'");
	assert_non_null(
		strstr(f.data, "Invoked Command: ibv_devinfo -v\nhca_id: mlx4_0\n"));
	fetch_release(&f);
	assert_int_equal(source_command(s, catalog_find("ibstat"), NULL, &f), 0);
	assert_string_equal(f.where, "commands_txt_output/ibstat.txt");
	fetch_release(&f);
	assert_int_equal(source_command_items(s, catalog_find("ethtool_i"), &ls), 0);
	assert_int_equal(ls.n, 1);
	assert_string_equal(ls.v[0], "eth2");
	assert_int_equal(source_command(s, catalog_find("ethtool_i"), ls.v[0], &f),
			 0);
	assert_non_null(strstr(f.data, "bus-info: 0000:0b:00.0\n"));
	assert_null(strstr(f.data, "____"));
	fetch_release(&f);
	names_release(&ls);
	/* What was read is noted, and nothing else is said. */
	assert_int_equal(diag_count(d), 2);
	assert_string_equal(
		diag_get(d, 0)->message,
		"sysinfo-snapshot report: 4 command sections (1 with no other copy in the bundle), 0 internal files, 0 other sections not read");
	assert_string_equal(diag_get(d, 1)->message,
			    "29 /sys files, served below /sys");
	source_free(s);
	diag_free(d);
}

/* A soft device (rdma_rxe) below /sys/devices/virtual: its class link,
 * but no device link, since it has no PCI parent. */
static void test_virtual_device(void **state)
{
	char dir[] = "/tmp/rd-test-sysinfoXXXXXX";
	char *sub, *osf;
	FILE *f;
	struct diag *d = diag_new();
	struct source *s;
	struct names ls;
	char *t;

	(void)state;
	assert_non_null(mkdtemp(dir));
	sub = xasprintf("%s/commands_txt_output", dir);
	osf = xasprintf("%s/other_system_files", sub);
	assert_int_equal(mkdir(sub, 0700), 0);
	f = fopen(osf, "w");
	assert_non_null(f);
	fputs("File: /sys/devices/virtual/infiniband/rxe0/fw_ver: 0.0.0\n"
	      "File: /sys/devices/virtual/infiniband/rxe0/ports/1/state: 4: ACTIVE\n",
	      f);
	fclose(f);
	s = source_dir_new(dir, false, NULL, d);
	assert_non_null(s);
	assert_int_equal(source_list(s, "/sys/class/infiniband", &ls), 0);
	assert_int_equal(ls.n, 1);
	assert_string_equal(ls.v[0], "rxe0");
	names_release(&ls);
	t = read_all(s, "/sys/class/infiniband/rxe0/ports/1/state");
	assert_string_equal(t, "4: ACTIVE\n");
	free(t);
	assert_false(source_lexists(s, "/sys/class/infiniband/rxe0/device"));
	source_free(s);
	unlink(osf);
	rmdir(sub);
	rmdir(dir);
	free(osf);
	free(sub);
	diag_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_file_name),
		cmocka_unit_test(test_system_files),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_overlay),
		cmocka_unit_test(test_virtual_device),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
