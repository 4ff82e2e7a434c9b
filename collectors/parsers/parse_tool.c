/* Error lines of command-line RDMA tools, wherever a paste holds them.
 * The tools are kb/tools.yaml's; the forms are their sources':
 *   bash execute_cmd.c:   "-bash: ibstat: command not found",
 *                         "bash: line 1: ibstat: command not found"
 *   sudo:                 "sudo: ibstat: command not found"
 *   dash src/exec.c:      "sh: 1: ibstat: not found"
 *   zsh Src/exec.c:       "zsh: command not found: ibstat"
 *   fish:                 "fish: Unknown command: ibstat"
 *   glibc elf/dl-error:   "ib_write_bw: error while loading shared
 *                          libraries: libibverbs.so.1: cannot open shared
 *                          object file: No such file or directory"
 *   libibmad mad.h IBWARN, IBPANIC: "ibwarn: [pid] func: ...",
 *                         "ibpanic: [pid] func: ...: %m"
 *   infiniband-diags ibdiag_common.c ibexit(): "perfquery: iberror:
 *                          failed: Failed to open '(null)' port '0'"
 *   init scripts (RHEL initscripts functions echo_failure(), MLNX_OFED
 *   openibd, MLNX_EN mlnx-en.d): "Loading HCA driver and Access Layer:
 *                          [FAILED]", under the script's command line or
 *                          on one line with it ("/etc/init.d/openibd
 *                          restart ... [FAILED]", as pages flatten it)
 *   any tool:             "NAME: <message with an error word or a
 *                          strerror text>", MFT's "-E- ..." under the
 *                          tool's command line. */
#include <ctype.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "collectors/parsers/formats.h"
#include "collectors/parsers/logscan.h"
#include "collectors/parsers/parse_tool.h"
#include "engine/symbol.h"
#include "engine/xalloc.h"

#define TOOL_LINE_MAX 2048 /* @@ bytes of a line looked at */
#define TOOL_NAME_MAX 64 /* @@ bytes of a program name */
#define TOOL_ERRORS_MAX 1000 /* @@ tool_error facts one text gives */
#define TOOL_ERRNO_MAX 134 /* @@ errno values whose text is looked for */
#define TOOL_SEEN_MAX 64 /* @@ texts of cited lines remembered, to skip their copies */
#define TOOL_APP_HITS 16 /* @@ application hits looked at on a line (parse_app.c reads as many) */

/* The programs whose messages name another program: shells, and sudo. */
static const char *const runners[] = {
	"bash", "sh", "dash", "ksh", "zsh", "sudo", "fish",
};

/* Words an error line holds (case folded, at a word's start). */
static const char *const error_words[] = {
	"error",       "fail",	    "couldn't", "could not", "cannot",
	"can't",       "unable",    "invalid",	"not found", "no such",
	"timeout",     "timed out", "denied",	"not supported",
	"fatal",       "not permitted", "no device", "-e-",
};

enum reason { REASON_NOT_FOUND, REASON_LIBRARY, REASON_ERROR };

static const char *const reason_names[] = {
	[REASON_NOT_FOUND] = "command_not_found",
	[REASON_LIBRARY] = "missing_library",
	[REASON_ERROR] = "error",
};

/* What one line says, once read. */
struct reading {
	struct line tool; /* may point into command */
	enum reason reason;
	struct line library;
};

/* The kb's tools as one scan looks them up: the first bytes of the
 * patterns among their names, so that a name no pattern can match is
 * looked up by its text only. */
struct tools {
	const struct fact_base *fb;
	uint32_t kind, field; /* the symbols "tool" and "name" */
	bool pattern_first[256];
};

static void tools_init(struct tools *tl, const struct fact_base *fb)
{
	uint32_t field = sym_intern_cstr("name");
	size_t k = 0;
	const uint32_t *ids =
		fact_base_of_kind(fb, sym_intern_cstr("tool"), &k);

	memset(tl, 0, sizeof(*tl));
	tl->fb = fb;
	tl->kind = sym_intern_cstr("tool");
	tl->field = field;
	for (size_t i = 0; i < k; i++) {
		const struct value *v =
			fact_get(fact_base_get(fb, ids[i]), field);
		const char *pat = v ? value_text(v) : NULL;

		if (pat && strchr(pat, '*'))
			tl->pattern_first[(unsigned char)pat[0]] = true;
	}
}

static const char *entry_of(const struct tools *tl, const char *tool, size_t n);

const char *tool_entry(const struct fact_base *fb, const char *tool, size_t n)
{
	struct tools tl;

	tools_init(&tl, fb);
	return entry_of(&tl, tool, n);
}

/* tool_entry, the kb's patterns tried only for a name that starts with
 * the first byte of one (struct tools). */
static const char *entry_of(const struct tools *tl, const char *tool, size_t n)
{
	const struct fact_base *fb = tl->fb;
	char name[TOOL_NAME_MAX + 1];
	uint32_t kind = tl->kind, field = tl->field;
	struct value key = { .type = VALUE_STRING };
	const uint32_t *ids;
	size_t k = 0;
	struct line w = line_basename((struct line){ tool, n, 0 });

	if (!w.len || w.len > TOOL_NAME_MAX)
		return NULL;
	memcpy(name, w.p, w.len);
	name[w.len] = '\0';
	/* a name never interned is no fact's: looked up without interning
	 * it, so that the words of a log do not fill the symbol table */
	key.sym = sym_find(name, w.len);
	ids = key.sym ? fact_base_lookup(fb, kind, field, &key, &k) : NULL;
	if (k)
		return fact_text(fact_base_get(fb, ids[0]), "name");
	if (!tl->pattern_first[(unsigned char)name[0]])
		return NULL;
	ids = fact_base_of_kind(fb, kind, &k);
	for (size_t i = 0; i < k; i++) {
		const struct value *v =
			fact_get(fact_base_get(fb, ids[i]), field);
		const char *pat = v ? value_text(v) : NULL;

		/* patterns start with a letter: the first one sieves */
		if (pat && pat[0] == name[0] && strchr(pat, '*') &&
		    !fnmatch(pat, name, 0))
			return pat;
	}
	return NULL;
}

bool tool_known(const struct fact_base *fb, const char *tool, size_t n)
{
	return tool_entry(fb, tool, n) != NULL;
}

static bool known(const struct tools *tl, const char *tool, size_t n)
{
	return entry_of(tl, tool, n) != NULL;
}

/* Splits "NAME: rest" where NAME is one word (no space) of at most
 * TOOL_NAME_MAX bytes; false when the line is not so. */
static bool head(const struct line *t, struct line *name, struct line *rest)
{
	const char *colon = memchr(t->p, ':', t->len);
	size_t n;

	if (!colon || colon == t->p)
		return false;
	n = (size_t)(colon - t->p);
	if (n > TOOL_NAME_MAX || memchr(t->p, ' ', n) || memchr(t->p, '\t', n))
		return false;
	*name = (struct line){ t->p, n, t->no };
	*rest = line_trim((struct line){ colon + 1, t->len - n - 1, t->no });
	return true;
}

static bool is_runner(const struct line *name)
{
	struct line b = line_basename(*name);

	if (b.len && b.p[0] == '-') /* a login shell: "-bash" */
		b.p++, b.len--;
	for (size_t i = 0; i < ARRAY_SIZE(runners); i++)
		if (line_eq(&b, runners[i]))
			return true;
	return false;
}

static bool starts_ci(const struct line *t, const char *s)
{
	size_t n = strlen(s);

	return t->len >= n && !strncasecmp(t->p, s, n);
}

static struct line after(const struct line *t, size_t n)
{
	return line_trim((struct line){ t->p + n, t->len - n, t->no });
}

/* Skips bash's "line N: " and dash's "N: " before the program's name. */
static struct line skip_line_number(struct line r)
{
	size_t i = 0;

	if (starts_ci(&r, "line "))
		i = 5;
	if (i >= r.len || !isdigit((unsigned char)r.p[i]))
		return r;
	while (i < r.len && isdigit((unsigned char)r.p[i]))
		i++;
	if (i < r.len && r.p[i] == ':')
		return after(&r, i + 1);
	return r;
}

/* A shell's or sudo's message that a program is not there. */
static bool not_found(const struct line *name, const struct line *rest,
		      struct reading *out)
{
	static const char *const prefixed[] = { "command not found: ",
						"unknown command: " };
	struct line r = skip_line_number(*rest), cmd, msg;

	if (line_eq(rest, "command not found")) { /* "ibstat: command not found" */
		out->tool = *name;
		return true;
	}
	if (!is_runner(name))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(prefixed); i++)
		if (starts_ci(&r, prefixed[i])) {
			out->tool = after(&r, strlen(prefixed[i]));
			return out->tool.len && !memchr(out->tool.p, ' ',
							out->tool.len);
		}
	if (!head(&r, &cmd, &msg))
		return false;
	out->tool = cmd;
	return line_eq(&msg, "command not found") || line_eq(&msg, "not found") ||
	       (memchr(cmd.p, '/', cmd.len) &&
		line_eq(&msg, "No such file or directory"));
}

/* glibc's "NAME: error while loading shared libraries: LIB: why". */
static bool missing_library(const struct line *name, const struct line *rest,
			    struct reading *out)
{
	static const char lead[] = "error while loading shared libraries: ";
	struct line r, lib, why;

	if (!line_starts(rest, lead))
		return false;
	r = after(rest, sizeof(lead) - 1);
	if (!head(&r, &lib, &why))
		return false;
	out->tool = *name;
	out->library = lib;
	return true;
}

static bool word_start(const char *line, const char *at)
{
	return at == line || !isalnum((unsigned char)at[-1]);
}

/* Whether the text reads as an error: an error word, or the text of an
 * errno as the C library prints it. */
static bool says_error(const struct line *t)
{
	for (size_t i = 0; i < ARRAY_SIZE(error_words); i++) {
		size_t n = strlen(error_words[i]);

		for (size_t at = 0; at + n <= t->len; at++)
			if (!strncasecmp(t->p + at, error_words[i], n) &&
			    word_start(t->p, t->p + at))
				return true;
	}
	for (int e = 1; e < TOOL_ERRNO_MAX; e++) {
		const char *d = strerrordesc_np(e);

		if (d && strlen(d) > 8 && memmem(t->p, t->len, d, strlen(d)))
			return true;
	}
	return false;
}

/* The init script a line names ("/etc/init.d/openibd restart ..."),
 * when the kb knows it as a tool; false otherwise. */
static bool init_script(const struct tools *tl, const struct line *t,
			struct line *tool)
{
	static const char dir[] = "/etc/init.d/";
	const char *at = memmem(t->p, t->len, dir, sizeof(dir) - 1), *end;

	if (!at)
		return false;
	tool->p = at + sizeof(dir) - 1;
	end = t->p + t->len;
	for (tool->len = 0; tool->p + tool->len < end &&
			    !isspace((unsigned char)tool->p[tool->len]);
	     tool->len++)
		;
	return known(tl, tool->p, tool->len);
}

/* Reads t as a tool's error line; false when it is none.  command is the
 * tool the block's command line ran, or NULL. */
static bool read_error(const struct tools *tl, const struct line *t,
		       const char *command, struct reading *out)
{
	struct line name, rest;
	size_t clen = command ? strlen(command) : 0;
	bool by_command = clen && known(tl, command, clen);

	memset(out, 0, sizeof(*out));
	out->reason = REASON_ERROR;
	/* MFT's "-E- Cannot open Device: ..." names no tool */
	if (line_starts(t, "-E- ") && by_command) {
		if (line_user_declined(t))
			return false;
		out->tool = (struct line){ command, clen, t->no };
		return true;
	}
	if (line_contains(t, "[FAILED]")) {
		if (by_command) {
			out->tool = (struct line){ command, clen, t->no };
			return true;
		}
		if (init_script(tl, t, &out->tool))
			return true;
	}
	if (!head(t, &name, &rest) || !rest.len)
		return false;
	if (not_found(&name, &rest, out)) {
		out->reason = REASON_NOT_FOUND;
		return known(tl, out->tool.p, out->tool.len);
	}
	if (missing_library(&name, &rest, out)) {
		out->reason = REASON_LIBRARY;
		return known(tl, out->tool.p, out->tool.len);
	}
	/* libibmad's ibwarn and ibpanic print the function, not the tool */
	if ((line_eq(&name, "ibwarn") || line_eq(&name, "ibpanic")) &&
	    rest.p[0] == '[') {
		static const char diags[] = "infiniband-diags";

		out->tool = by_command ? (struct line){ command, clen, t->no } :
					 (struct line){ diags, sizeof(diags) - 1,
							t->no };
		return line_eq(&name, "ibpanic") || says_error(&rest);
	}
	out->tool = name;
	return known(tl, name.p, name.len) && says_error(&rest);
}

/* A name in quotes ('mlx5_0'), one before a port ("(mlx5_0:1)"), or a
 * PCI address: the device the line is about; empty when none. */
static void device_named(const struct line *t, char *buf, size_t size)
{
	struct line tok[32];
	size_t n;
	const char *q = memchr(t->p, '\'', t->len), *end = t->p + t->len;

	buf[0] = '\0';
	while (q && q + 1 < end) {
		const char *close = memchr(q + 1, '\'', (size_t)(end - q - 1));
		struct line w;

		if (!close)
			break;
		w = (struct line){ q + 1, (size_t)(close - q - 1), t->no };
		if (w.len && w.len < size && !memchr(w.p, ' ', w.len) &&
		    strncmp(w.p, "(null)", w.len) && isalpha((unsigned char)w.p[0])) {
			line_copy(&w, buf, size);
			return;
		}
		q = memchr(close + 1, '\'', (size_t)(end - close - 1));
	}
	n = line_split(t, tok, ARRAY_SIZE(tok));
	for (size_t i = 0; i < n; i++) {
		struct line w = tok[i];

		while (w.len && strchr(".,:;()", w.p[w.len - 1]))
			w.len--;
		while (w.len && w.p[0] == '(')
			w.p++, w.len--;
		if (line_pci_addr(&w, buf, size))
			return;
	}
	buf[0] = '\0';
}

/* The cited lines of the tool_error facts e's source already has. */
static uint32_t *cited_lines(const struct emit *e, size_t *n)
{
	static const char *const kinds[] = { "tool_error", "app_error" };
	size_t k[2] = { 0, 0 };
	const uint32_t *ids[2];
	uint32_t *lines;

	for (size_t j = 0; j < 2; j++)
		ids[j] = fact_base_of_kind(e->fb, sym_intern_cstr(kinds[j]),
					   &k[j]);
	lines = xcalloc(k[0] + k[1] + 1, sizeof(*lines));
	*n = 0;
	for (size_t j = 0; j < 2; j++)
		for (size_t i = 0; i < k[j]; i++) {
			const struct fact *f = fact_base_get(e->fb, ids[j][i]);

			if (f->prov.src == e->src && f->prov.line)
				lines[(*n)++] = f->prov.line;
		}
	return lines;
}

/* FNV-1a of a line's text. */
static uint64_t text_hash(const struct line *t)
{
	uint64_t h = 14695981039346656037ull;

	for (size_t i = 0; i < t->len; i++)
		h = (h ^ (unsigned char)t->p[i]) * 1099511628211ull;
	return h;
}

static bool seen_before(const uint64_t *seen, size_t n, uint64_t h)
{
	for (size_t i = 0; i < n; i++)
		if (seen[i] == h)
			return true;
	return false;
}

static bool cited(const uint32_t *lines, size_t n, uint32_t line)
{
	for (size_t i = 0; i < n; i++)
		if (lines[i] == line)
			return true;
	return false;
}

/* Whether app_message entry id is a fallback (parse_app.c tries those
 * only on lines no specific entry knows, and only some of their hits
 * stand). */
static bool fallback_entry(const struct fact_base *fb, const char *id)
{
	struct value key = value_str(id, strlen(id));
	size_t k = 0;
	const uint32_t *ids = fact_base_lookup(fb, sym_intern_cstr("app_message"),
					       sym_intern_cstr("id"), &key, &k);
	const struct value *v;

	if (!k)
		return false;
	v = fact_get(fact_base_get(fb, ids[0]), sym_intern_cstr("fallback"));
	return v && v->type == VALUE_BOOL && v->b;
}

/* Whether a specific application message of the kb matches the line:
 * then it is the application's (parse_app.c), not a tool's.  A line a
 * fallback entry read is cited by its app_error and skipped before this. */
static bool application_line(struct emit *e, const struct line *ln)
{
	struct logscan_hit hits[TOOL_APP_HITS];
	size_t limit = 0, n;

	if (!e->app_scan || !logscan_count(e->app_scan) ||
	    !logscan_relevant(e->app_scan, ln->p, ln->len))
		return false;
	n = logscan_match(e->app_scan, ln->p, ln->len, hits, TOOL_APP_HITS,
			  &limit);
	for (size_t i = 0; i < n; i++)
		if (!fallback_entry(e->fb, logscan_id(e->app_scan, hits[i].sig)))
			return true;
	return false;
}

/* The line as a person reads it: markdown emphasis and mail quoting
 * ("> ") taken off. */
static struct line cleaned(struct line raw)
{
	struct line t = line_unmark(raw);

	while (t.len && t.p[0] == '>') {
		t.p++;
		t.len--;
		t = line_unmark(t);
	}
	if (t.len > TOOL_LINE_MAX)
		t.len = TOOL_LINE_MAX;
	return t;
}

static void emit_reading(struct emit *e, const struct line *t,
			 const struct reading *r)
{
	struct fact *f = emit_begin(e, "tool_error", t);
	const char *reason = reason_names[r->reason];
	struct line tool = line_basename(r->tool), mod;
	char device[TOOL_NAME_MAX + 1];
	const char *entry;

	emit_line(e, f, "tool", &tool, t);
	emit_line(e, f, "message", t, t);
	emit_str(e, f, "reason", reason, strlen(reason), t);
	if ((entry = tool_entry(e->fb, tool.p, tool.len)))
		emit_str(e, f, "kb_name", entry, strlen(entry), NULL);
	if (r->library.len)
		emit_line(e, f, "library", &r->library, t);
	if (line_eq(&tool, "modprobe") || line_eq(&tool, "insmod")) {
		modprobe_module_named(t, &mod);
		if (mod.len)
			emit_line(e, f, "module", &mod, t);
	}
	device_named(t, device, sizeof(device));
	if (device[0] && r->reason == REASON_ERROR)
		emit_str(e, f, "device", device, strlen(device), t);
	emit_end(e, f);
}

/* Whether read_error, with no command, could read raw as an error line:
 * only one that holds "[FAILED]" or whose cleaned text starts with
 * "NAME:" (head).  cleaned takes off only blanks, '*', '`' and '>' at
 * the start, none of which is ':': after a run of those, the first of
 * ':', ' ' and '\t' must be a ':'.  A cheap sieve that keeps every line
 * read_error would read. */
static bool may_read(const struct line *raw)
{
	const char *p = raw->p, *end = raw->p + raw->len;

	while (p < end && (*p == ' ' || *p == '\t' || *p == '*' ||
			   *p == '`' || *p == '>'))
		p++;
	while (p < end && *p != ':' && *p != ' ' && *p != '\t')
		p++;
	return (p < end && *p == ':') || line_contains(raw, "[FAILED]");
}

int tool_scan(struct emit *e, const char *text, size_t len,
	      const char *command)
{
	unsigned before = e->nfacts, added = 0;
	size_t k = 0, ncited, nseen = 0;
	uint64_t seen[TOOL_SEEN_MAX];
	uint32_t *lines;
	struct lines it;
	struct line raw;
	struct tools tl;

	fact_base_of_kind(e->fb, sym_intern_cstr("tool"), &k);
	if (!k)
		return 0;
	tools_init(&tl, e->fb);
	lines = cited_lines(e, &ncited);
	lines_init(&it, text, len);
	while (lines_next(&it, &raw) && added < TOOL_ERRORS_MAX) {
		struct line t;
		struct reading r;

		/* a line no error reading can take is only looked at when an
		 * app_error cites it (its text is remembered, below) */
		if (!command && !may_read(&raw) &&
		    !cited(lines, ncited, raw.no + e->line_base))
			continue;
		t = cleaned(raw);
		if (t.len < 4)
			continue;
		/* an app_error counts equal lines in one fact citing the
		 * first: the later copies are its too */
		if (cited(lines, ncited, t.no + e->line_base)) {
			if (nseen < TOOL_SEEN_MAX)
				seen[nseen++] = text_hash(&t);
			continue;
		}
		/* no line was cited yet: no hash to compare with */
		if ((nseen && seen_before(seen, nseen, text_hash(&t))) ||
		    !read_error(&tl, &t, command, &r) ||
		    application_line(e, &t))
			continue;
		emit_reading(e, &t, &r);
		added++;
	}
	free(lines);
	return (int)(e->nfacts - before);
}

int parse_tool_log(struct emit *e, const char *text, size_t len,
		   const char *arg)
{
	return tool_scan(e, text, len, arg);
}
