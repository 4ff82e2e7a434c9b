/* What installing or starting the RDMA driver stack prints when it fails,
 * wherever a paste holds it: MLNX_OFED's installer, DKMS, rpm and dpkg,
 * MLNX_OFED's openibd, systemd-modules-load.  Each line becomes a
 * tool_error fact naming the package, kernel or module the line names.
 * The forms are their printers' format strings:
 *   mlnxofedinstall (MLNX_OFED 2.x-5.x): "Error: $name installation
 *     failed!", "Error: The current MLNX_OFED_LINUX is intended for
 *     $MLNX_OFED_DISTRO"; its summaries "Failed to install
 *     MLNX_OFED_LINUX-..." and, with --add-kernel-support
 *     (mlnx_add_kernel_support.sh), "Failed to build MLNX_OFED_LINUX for
 *     $kernel"; install.pl: "One or more required packages for installing
 *     OFED-internal are missing."
 *   dkms (dkms.in report_build_problem): "Error! Bad return status for
 *     module build on kernel: $kernelver ($arch)" and "Consult
 *     /var/lib/dkms/$module/$version/build/make.log for more information."
 *   rpm (lib/rpmprob.c): "file %s from install of %s conflicts with file
 *     from package %s"
 *   dpkg (src/main/archives.c, src/main/errors.c): "trying to overwrite
 *     '%s', which is also in package %s %s", "error processing package %s
 *     (%s):", "error processing archive %s (%s):"
 *   openibd (mlnx-ofa_kernel ofed_scripts/openibd load_module(), start()):
 *     "Module $module belong to $rpm_name which is not a part of
 *     MLNX_OFED, skipping...", "Module $module does not belong to
 *     MLNX_OFED, skipping...", "Module $module does not exist,
 *     skipping...", "Failed loading kernel module $module:", "Loading HCA
 *     driver and Access Layer: [FAILED]"
 *   systemd (src/shared/module-util.c): "Failed to insert module '%s': %m";
 *     (src/core/job.c) "Failed to start %s." for openibd.service, whose
 *     Description= is "openibd - configure Mellanox devices"
 *   kmod (tools/modprobe.c) behind a journal's or a log's prefix:
 *     "modprobe: ERROR: could not insert '%s': %s", "modprobe: FATAL:
 *     Module %s not found in directory %s" */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "collectors/parsers/formats.h"
#include "collectors/parsers/parse_install.h"
#include "collectors/parsers/parse_tool.h"
#include "engine/fact.h"
#include "engine/symbol.h"
#include "engine/xalloc.h"

#define INSTALL_LINE_MAX 2048 /* @@ bytes of a line looked at */
#define INSTALL_VALUE_MAX 200 /* @@ bytes of a package, kernel or module name */
#define INSTALL_ERRORS_MAX 1000 /* @@ tool_error facts one text gives */

/* One form of line.  The line holds need (when set) anywhere, and text;
 * after text, up to a byte of stop, is the value of field (when set),
 * which also must follow (when set). */
struct install_form {
	const char *tool;
	const char *need;
	const char *text;
	const char *field;
	const char *stop;
	const char *also;
	/* the tool of the command line the text is under names it instead
	 * (openibd's lines are MLNX_EN's mlnx-en.d's too) */
	bool by_command;
	/* only in MLNX_OFED's installer's output: a text that names
	 * MLNX_OFED_LINUX (its "Logs dir: /tmp/MLNX_OFED_LINUX.$$.logs"), under
	 * its command, or with the log it names next ("See:
	 * /tmp/MLNX_OFED_LINUX.$$.logs/$name.debinstall.log") */
	bool ofed_only;
};

static const struct install_form forms[] = {
	{ "mlnxofedinstall", NULL, "Error: ", "package", " ",
	  " installation failed!", false, true },
	{ "mlnxofedinstall", NULL, "Failed to install MLNX_OFED_LINUX", NULL,
	  NULL, NULL, false, false },
	{ "mlnxofedinstall", NULL, "Failed to build MLNX_OFED_LINUX for ",
	  "kernel", " :", NULL, false, false },
	/* mlnxofedinstall stops with this; mlnx_add_kernel_support.sh prints
	 * it as a WARNING and goes on */
	{ "mlnxofedinstall", NULL,
	  "Error: The current MLNX_OFED_LINUX is intended for ", NULL, NULL,
	  NULL, false, false },
	{ "mlnxofedinstall", NULL,
	  "One or more required packages for installing OFED-internal are "
	  "missing",
	  NULL, NULL, NULL, false, false },
	{ "dkms", NULL, "Bad return status for module build on kernel: ",
	  "kernel", " ", NULL, false, false },
	{ "rpm", " conflicts with file from package ", " from install of ",
	  "package", " ", NULL, false, false },
	{ "dpkg", "trying to overwrite '", ", which is also in package ",
	  "package", " ", NULL, false, false },
	{ "dpkg", NULL, "dpkg: error processing package ", "package", " ",
	  NULL, false, false },
	{ "dpkg", NULL, "dpkg: error processing archive ", "package", " ",
	  NULL, false, false },
	{ "openibd", "which is not a part of", "Module ", "module", " ",
	  " belong to ", true, false },
	{ "openibd", NULL, "Module ", "module", " ",
	  " does not belong to MLNX", true, false },
	/* openibd's own lines end in its status column, "[FAILED]" (other
	 * programs print "Failed loading kernel module" too) */
	{ "openibd", "FAILED", "Module ", "module", " ",
	  " does not exist, skipping", true, false },
	{ "openibd", "FAILED", "Failed loading kernel module ", "module",
	  ":[ ", NULL, true, false },
	{ "openibd", "FAILED", "Loading HCA driver and Access Layer:", NULL,
	  NULL, NULL, true, false },
	{ "systemd-modules-load", NULL, "Failed to insert module '", "module",
	  "'", NULL, false, false },
	/* systemd's job result for openibd.service ("Failed to start %s."
	 * with the unit's Description=, "openibd - configure Mellanox
	 * devices") */
	{ "openibd", "openibd - configure", "Failed to start openibd", NULL,
	  NULL, NULL, false, false },
	/* kmod's lines behind a prefix its own parser does not take (a
	 * journal's, a CI log's time stamps) */
	{ "modprobe", NULL, "modprobe: ERROR: could not insert '", "module",
	  "'", NULL, false, false },
	{ "modprobe", NULL, "modprobe: FATAL: Module ", "module", " ", NULL,
	  false, false },
};

/* Words prose puts where a form has a package's name ("Error: the
 * installation failed!"). */
static const char *const not_names[] = { "the", "a", "an", "your", "my",
					 "this", "our", "package" };

static bool is_word(const char *p, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(not_names); i++)
		if (strlen(not_names[i]) == n && !strncasecmp(p, not_names[i], n))
			return true;
	return false;
}

/* DKMS names the module in the line after its error (its make.log). */
static const char dkms_log[] = "Consult /var/lib/dkms/";

static const char *find(const struct line *t, const char *s)
{
	return memmem(t->p, t->len, s, strlen(s));
}

/* Whether t is of form f; *value gets the field's value (empty when the
 * form has none). */
static bool matches(const struct install_form *f, const struct line *t,
		    struct line *value)
{
	const char *at, *end = t->p + t->len;
	size_t n = 0;

	value->p = t->p;
	value->len = 0;
	value->no = t->no;
	if (f->need && !find(t, f->need))
		return false;
	if (!(at = find(t, f->text)))
		return false;
	at += strlen(f->text);
	if (!f->field)
		return true;
	while (at + n < end && n < INSTALL_VALUE_MAX &&
	       !strchr(f->stop, at[n]))
		n++;
	if (!n || is_word(at, n))
		return false;
	if (f->also && ((size_t)(end - at - n) < strlen(f->also) ||
			memcmp(at + n, f->also, strlen(f->also))))
		return false;
	value->p = at;
	value->len = n;
	return true;
}

/* The module a DKMS make.log path names ("Consult
 * /var/lib/dkms/nv_peer_mem/1.1.0/build/make.log ..."), or an empty
 * line. */
static struct line dkms_module(const struct line *t)
{
	const char *at = find(t, dkms_log), *end = t->p + t->len;
	struct line mod = { t->p, 0, t->no };

	if (!at)
		return mod;
	mod.p = at + sizeof(dkms_log) - 1;
	while (mod.p + mod.len < end && mod.len < INSTALL_VALUE_MAX &&
	       mod.p[mod.len] != '/')
		mod.len++;
	if (mod.p + mod.len >= end)
		mod.len = 0;
	return mod;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* The next line of it with text, leaving it as it was. */
static bool peek(const struct lines *it, struct line *next)
{
	struct lines copy = *it;
	struct line raw;

	while (lines_next(&copy, &raw)) {
		*next = line_trim(raw);
		if (next->len)
			return true;
	}
	return false;
}

/* The cited lines of the tool_error facts e's source already has, sorted
 * (*n of them; the caller frees them).  Taken once per text, so a text of
 * many failure lines costs no more than its lines and the facts. */
static uint32_t *cited_lines(const struct emit *e, size_t *n)
{
	size_t k = 0;
	const uint32_t *ids =
		fact_base_of_kind(e->fb, sym_intern_cstr("tool_error"), &k);
	uint32_t *lines = xcalloc(k + 1, sizeof(*lines));

	*n = 0;
	for (size_t i = 0; i < k; i++) {
		const struct fact *f = fact_base_get(e->fb, ids[i]);

		if (f->prov.src == e->src && f->prov.line)
			lines[(*n)++] = f->prov.line;
	}
	qsort(lines, *n, sizeof(*lines), cmp_u32);
	return lines;
}

static bool cited(const uint32_t *lines, size_t n, uint32_t line)
{
	return n && bsearch(&line, lines, n, sizeof(*lines), cmp_u32);
}

/* The init script the line itself names ("/etc/init.d/mlnx-en.d restart
 * Unloading HCA driver: ...", as a page flattens it), into buf when the kb
 * knows it as a tool; NULL otherwise. */
static const char *script_named(const struct emit *e, const struct line *t,
				char *buf, size_t size)
{
	static const char dir[] = "/etc/init.d/";
	const char *at = find(t, dir), *end = t->p + t->len;
	size_t n = 0;

	if (!at)
		return NULL;
	at += sizeof(dir) - 1;
	while (at + n < end && n + 1 < size && at[n] != ' ' && at[n] != '\t')
		n++;
	if (!n || !tool_known(e->fb, at, n))
		return NULL;
	memcpy(buf, at, n);
	buf[n] = '\0';
	return buf;
}

/* The programs whose output mlnxofedinstall's lines are. */
static const char *const ofed_installers[] = {
	"mlnxofedinstall", "install.pl", "mlnx_add_kernel_support.sh"
};

static bool ofed_command(const char *command)
{
	const char *base;

	if (!command)
		return false;
	base = strrchr(command, '/');
	base = base ? base + 1 : command;
	for (size_t i = 0; i < ARRAY_SIZE(ofed_installers); i++)
		if (!strcmp(base, ofed_installers[i]))
			return true;
	return false;
}

#define INSTALL_LOG_LOOKAHEAD 3 /* @@ lines after a failure its log is looked for in */

/* Whether one of the next lines names the installer's log of pkg
 * (".logs/<pkg>.debinstall.log", ".rpminstall.log"). */
static bool ofed_log_follows(const struct lines *it, const struct line *pkg)
{
	struct lines copy = *it;
	struct line raw;
	unsigned seen = 0;

	while (seen < INSTALL_LOG_LOOKAHEAD && lines_next(&copy, &raw)) {
		struct line t = line_trim(raw);
		const char *at;

		if (!t.len)
			continue;
		seen++;
		at = find(&t, ".logs/");
		if (at && (size_t)(t.p + t.len - at) > 6 + pkg->len &&
		    !memcmp(at + 6, pkg->p, pkg->len) &&
		    at[6 + pkg->len] == '.' && find(&t, "install.log"))
			return true;
	}
	return false;
}

static void emit_form(struct emit *e, const struct install_form *f,
		      const struct line *t, const struct line *value,
		      const struct line *module, const char *command)
{
	const char *tool = f->tool, *script;
	char name[64];
	struct fact *fact;

	if (!command)
		command = e->command;
	if (f->by_command && (script = script_named(e, t, name, sizeof(name))))
		tool = script;
	else if (f->by_command && command &&
		 tool_known(e->fb, command, strlen(command)))
		tool = command;
	fact = emit_begin(e, "tool_error", t);
	emit_str(e, fact, "tool", tool, strlen(tool), t);
	emit_line(e, fact, "message", t, t);
	emit_str(e, fact, "reason", "error", 5, t);
	if (tool_known(e->fb, tool, strlen(tool)))
		emit_str(e, fact, "kb_name", tool, strlen(tool), t);
	if (f->field && value->len)
		emit_line(e, fact, f->field, value, t);
	if (module && module->len)
		emit_line(e, fact, "module", module, t);
	emit_end(e, fact);
}

static int scan(struct emit *e, const char *text, size_t len,
		const char *command)
{
	static const char ofed_name[] = "MLNX_OFED_LINUX";
	bool ofed = memmem(text, len, ofed_name, sizeof(ofed_name) - 1);
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;
	uint32_t *lines = NULL; /* taken at the first line of a form */
	size_t ncited = 0;

	lines_init(&it, text, len);
	while (lines_next(&it, &raw) &&
	       e->nfacts - before < INSTALL_ERRORS_MAX) {
		struct line t = line_trim(raw), value, next;

		if (t.len < 8 || t.len > INSTALL_LINE_MAX)
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(forms); i++) {
			struct line module = { t.p, 0, t.no };

			if (!matches(&forms[i], &t, &value))
				continue;
			if (forms[i].ofed_only && !ofed &&
			    !ofed_command(command ? command : e->command) &&
			    !ofed_log_follows(&it, &value))
				continue;
			if (!lines)
				lines = cited_lines(e, &ncited);
			if (cited(lines, ncited, t.no + e->line_base))
				break;
			if (!strcmp(forms[i].tool, "dkms") && peek(&it, &next))
				module = dkms_module(&next);
			emit_form(e, &forms[i], &t, &value, &module, command);
			break;
		}
	}
	free(lines);
	return (int)(e->nfacts - before);
}

int install_scan(struct emit *e, const char *text, size_t len,
		 const char *command)
{
	return scan(e, text, len, command);
}

int install_scan_ofed(struct emit *e, const char *text, size_t len)
{
	return scan(e, text, len, NULL);
}

int parse_install_log(struct emit *e, const char *text, size_t len,
		      const char *arg)
{
	return install_scan(e, text, len, arg);
}
