/* Line iteration, text helpers and the emit API. */
#include "collectors/parsers/parse.h"
#include "collectors/parsers/parse_tool.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/symbol.h"
#include "engine/vocab.h"

/* Longest text value a fact keeps; longer values are cut with "...". */
#define EMIT_VALUE_MAX 4096 /* @@ */

void lines_init(struct lines *it, const char *text, size_t len)
{
	it->text = text;
	it->len = len;
	it->pos = 0;
	it->no = 0;
}

bool lines_next(struct lines *it, struct line *ln)
{
	const char *start, *nl;
	size_t n;

	if (it->pos >= it->len)
		return false;
	start = it->text + it->pos;
	nl = memchr(start, '\n', it->len - it->pos);
	n = nl ? (size_t)(nl - start) : it->len - it->pos;
	it->pos += n + (nl != NULL);
	if (n && start[n - 1] == '\r')
		n--;
	ln->p = start;
	ln->len = n;
	ln->no = ++it->no;
	return true;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

struct line line_trim(struct line ln)
{
	while (ln.len && blank(ln.p[0])) {
		ln.p++;
		ln.len--;
	}
	while (ln.len && (blank(ln.p[ln.len - 1]) || ln.p[ln.len - 1] == '\r'))
		ln.len--;
	return ln;
}

struct line line_basename(struct line ln)
{
	const char *slash = memrchr(ln.p, '/', ln.len);

	if (slash) {
		ln.len -= (size_t)(slash + 1 - ln.p);
		ln.p = slash + 1;
	}
	return ln;
}

bool line_starts(const struct line *ln, const char *prefix)
{
	size_t n = strlen(prefix);

	return ln->len >= n && !memcmp(ln->p, prefix, n);
}

bool line_eq(const struct line *ln, const char *s)
{
	return ln->len == strlen(s) && !memcmp(ln->p, s, ln->len);
}

#define MODULE_NAME_MAX 64 /* @@ bytes of a kernel module's name */

bool line_is_module_name(const struct line *ln)
{
	if (!ln->len || ln->len > MODULE_NAME_MAX)
		return false;
	for (size_t i = 0; i < ln->len; i++)
		if (!isalnum((unsigned char)ln->p[i]) && ln->p[i] != '_' &&
		    ln->p[i] != '-')
			return false;
	return true;
}

bool line_kv(const struct line *ln, char sep, struct line *key,
	     struct line *val)
{
	const char *at = memchr(ln->p, sep, ln->len);

	if (!at)
		return false;
	*key = *ln;
	key->len = (size_t)(at - ln->p);
	*key = line_trim(*key);
	*val = *ln;
	val->p = at + 1;
	val->len = (size_t)(ln->p + ln->len - (at + 1));
	*val = line_trim(*val);
	return true;
}

/* memchr for the first byte and memcmp for the rest: lines are short,
 * and glibc's memmem prepares its two-way search on every call. */
bool line_contains(const struct line *ln, const char *s)
{
	size_t n = strlen(s);
	const char *p = ln->p, *end = ln->p + ln->len;

	if (!n)
		return true;
	while ((size_t)(end - p) >= n) {
		p = memchr(p, s[0], (size_t)(end - p) - n + 1);
		if (!p)
			return false;
		if (!memcmp(p + 1, s + 1, n - 1))
			return true;
		p++;
	}
	return false;
}

char *line_copy(const struct line *ln, char *buf, size_t size)
{
	size_t n = ln->len < size - 1 ? ln->len : size - 1;

	memcpy(buf, ln->p, n);
	buf[n] = '\0';
	return buf;
}

size_t line_split(const struct line *ln, struct line *tok, size_t max)
{
	struct line rest = line_trim(*ln);
	size_t n = 0;

	while (rest.len && n < max) {
		size_t i = 0;

		if (n == max - 1) {
			tok[n++] = rest;
			break;
		}
		while (i < rest.len && !blank(rest.p[i]))
			i++;
		tok[n].p = rest.p;
		tok[n].len = i;
		tok[n].no = ln->no;
		n++;
		rest.p += i;
		rest.len -= i;
		rest = line_trim(rest);
	}
	return n;
}

bool line_digits(const struct line *t, size_t max)
{
	if (!t->len || t->len > max)
		return false;
	for (size_t i = 0; i < t->len; i++)
		if (!isdigit((unsigned char)t->p[i]))
			return false;
	return true;
}

bool line_number(const struct line *ln, double *out)
{
	char buf[64], *end;
	struct line t = line_trim(*ln);

	line_copy(&t, buf, sizeof(buf));
	*out = strtod(buf, &end);
	return end != buf;
}

struct line line_unmark(struct line ln)
{
	ln = line_trim(ln);
	while (ln.len >= 2 && ln.p[0] == '*' && ln.p[1] == '*') {
		ln.p += 2;
		ln.len -= 2;
	}
	while (ln.len >= 2 && ln.p[ln.len - 1] == '*' &&
	       ln.p[ln.len - 2] == '*')
		ln.len -= 2;
	if (ln.len >= 2 && ln.p[0] == '`' && ln.p[ln.len - 1] == '`') {
		ln.p++;
		ln.len -= 2;
	}
	return line_trim(ln);
}

void text_sanitize(struct strbuf *out, const char *s, size_t n, size_t max)
{
	if (n > max) {
		/* Cut at a character's start, not inside one. */
		for (int back = 0; back < 3 && max > 0 &&
				   ((unsigned char)s[max] & 0xc0) == 0x80;
		     back++)
			max--;
		sb_add_printable(out, s, max, false);
		sb_puts(out, "...");
		return;
	}
	sb_add_printable(out, s, n, false);
}

/* Length of the run of hex digits at p (at most max). */
static size_t hex_run(const char *p, size_t n, size_t max)
{
	size_t i = 0;

	while (i < n && i <= max && isxdigit((unsigned char)p[i]))
		i++;
	return i;
}

bool line_pci_addr(const struct line *t, char *buf, size_t size)
{
	const char *p = t->p;
	size_t n = t->len, d = hex_run(p, n, 8), b, s;
	char dom[16] = "0000", bus[3], slot[3];

	if (d >= 4 && d <= 8 && d < n && p[d] == ':') {
		memcpy(dom, p, d);
		dom[d] = '\0';
		p += d + 1;
		n -= d + 1;
	}
	b = hex_run(p, n, 2);
	if (b != 2 || n < 7 || p[2] != ':')
		return false;
	s = hex_run(p + 3, n - 3, 2);
	if (s != 2 || p[5] != '.' || p[6] < '0' || p[6] > '7' ||
	    (n > 7 && isxdigit((unsigned char)p[7])))
		return false;
	memcpy(bus, p, 2);
	memcpy(slot, p + 3, 2);
	bus[2] = slot[2] = '\0';
	snprintf(buf, size, "%s:%s:%s.%c", dom, bus, slot, p[6]);
	for (char *c = buf; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	return true;
}

bool line_pci_id(const struct line *t, char *buf, size_t size)
{
	unsigned long id = 0;

	if (!t->len || t->len > 5)
		return false;
	for (size_t i = 0; i < t->len; i++) {
		if (!isdigit((unsigned char)t->p[i]))
			return false;
		id = id * 10 + (unsigned long)(t->p[i] - '0');
	}
	if (!id || id > 0xffff)
		return false;
	snprintf(buf, size, "%04lx", id);
	return true;
}

const char *driver_origin_of(const char *v, size_t n)
{
	size_t i = 0, dots_after_dash = 0;
	bool dash = false;

	if (!n)
		return "unknown";
	if (memchr(v, '(', n))
		return "inbox"; /* "3.0-1 (January 2015)": old in-tree style */
	for (; i < n; i++) {
		char c = v[i];

		if (c == '-' && !dash && i > 0)
			dash = true;
		else if (c == '.' && dash)
			dots_after_dash++;
		else if (!(c >= '0' && c <= '9') && c != '.')
			return "unknown";
	}
	if (dash && dots_after_dash >= 2)
		return "mlnx_ofed";
	/* "4.0-0" (mlx4's DRV_VERSION in drivers/net/ethernet/mellanox/
	 * mlx4/mlx4.h), "5.0-0" (mlx5_core's DRIVER_VERSION before v5.13):
	 * the in-tree drivers' fixed release 0 */
	if (dash && n >= 2 && v[n - 1] == '0' && v[n - 2] == '-')
		return "inbox";
	return "unknown";
}

void emit_init(struct emit *e, struct fact_base *fb, const char *source)
{
	e->fb = fb;
	e->scan = NULL;
	e->app_scan = NULL;
	e->src = fact_base_source(fb, source);
	e->nfacts = 0;
	e->line_base = 0;
	e->watch_kind = 0;
	e->watched = 0;
	e->snapshot = 0;
	e->command = NULL;
	e->host = NULL;
	e->host_line = 0;
	e->hosts_named = 0;
	e->command_line = NULL;
}

struct fact *emit_begin(struct emit *e, const char *kind, const struct line *ln)
{
	struct strbuf sb = STRBUF_INIT;
	struct fact *f;

	if (ln)
		text_sanitize(&sb, ln->p, ln->len, 512);
	f = fact_base_begin(e->fb, sym_intern_cstr(kind), e->src,
			    ln ? ln->no + e->line_base : 0,
			    ln ? sb_str(&sb) : NULL, sb.len);
	sb_release(&sb);
	return f;
}

void emit_value(struct emit *e, struct fact *f, const char *field,
		struct value v, const struct line *ln)
{
	struct strbuf sb = STRBUF_INIT;

	if (!f)
		return;
	if (ln)
		text_sanitize(&sb, ln->p, ln->len, 512);
	/* The field cites the emitter's source, which may not be the
	 * fact's (the host fact gathers several files). */
	fact_put_at(e->fb, f, sym_intern_cstr(field), v, e->src,
		    ln ? ln->no + e->line_base : 0, ln ? sb_str(&sb) : NULL,
		    sb.len);
	sb_release(&sb);
}

void emit_str(struct emit *e, struct fact *f, const char *field, const char *s,
	      size_t n, const struct line *ln)
{
	struct strbuf sb = STRBUF_INIT;

	text_sanitize(&sb, s, n, EMIT_VALUE_MAX);
	if (sb.len && strcmp(sb_str(&sb), "..."))
		emit_value(e, f, field, value_str(sb_str(&sb), sb.len), ln);
	sb_release(&sb);
}

void emit_line(struct emit *e, struct fact *f, const char *field,
	       const struct line *val, const struct line *ln)
{
	emit_str(e, f, field, val->p, val->len, ln);
}

bool emit_keyed(struct emit *e, struct fact *f, const struct field_key *keys,
		size_t n, const struct line *key, const struct line *val,
		const struct line *ln)
{
	for (size_t i = 0; i < n; i++)
		if (line_eq(key, keys[i].key)) {
			emit_line(e, f, keys[i].field, val, ln);
			return true;
		}
	return false;
}

void emit_int(struct emit *e, struct fact *f, const char *field, int64_t v,
	      const struct line *ln)
{
	emit_value(e, f, field, value_int(v), ln);
}

void emit_num(struct emit *e, struct fact *f, const char *field, double v,
	      const struct line *ln)
{
	emit_value(e, f, field, value_num(v), ln);
}

void emit_bool(struct emit *e, struct fact *f, const char *field, bool v,
	       const struct line *ln)
{
	emit_value(e, f, field, value_bool(v), ln);
}

void emit_attr(struct emit *e, struct fact *f, const char *field,
	       const char *file, const char *s, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	uint32_t src = fact_base_source(e->fb, file);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		n--;
	text_sanitize(&sb, s, n, EMIT_VALUE_MAX);
	if (f && sb.len)
		fact_put_at(e->fb, f, sym_intern_cstr(field),
			    value_str(sb_str(&sb), sb.len), src, 1, sb_str(&sb),
			    sb.len);
	sb_release(&sb);
}

/* Whether collected fact g has every key field of f (kind k) equal. */
static bool same_entity(const struct vocab_kind *k, const struct fact *f,
			const struct fact *g)
{
	size_t keys = 0;

	if (g->firing || g == f)
		return false;
	for (size_t i = 0; i < k->nfields; i++) {
		const struct value *a, *b;

		if (!k->fields[i].key)
			continue;
		a = fact_get(f, k->fields[i].sym);
		b = fact_get(g, k->fields[i].sym);
		if (!a || !b || !value_equal(a, b))
			return false;
		keys++;
	}
	return keys > 0;
}

/* The first collected fact of the entity f describes (its kind's key
 * fields equal), with *kp set to f's kind; NULL when there is none. */
static const struct fact *earlier_entity(struct emit *e, const struct fact *f,
					 const struct vocab_kind **kp)
{
	const struct vocab_kind *k = vocab_kind(f->kind);
	const struct vocab_field *first = NULL;
	const struct value *kv;
	const uint32_t *ids;
	size_t n = 0;

	*kp = k;
	if (!k)
		return NULL;
	for (size_t i = 0; i < k->nfields && !first; i++)
		if (k->fields[i].key)
			first = &k->fields[i];
	if (!first || !(kv = fact_get(f, first->sym)))
		return NULL;
	ids = fact_base_lookup(e->fb, f->kind, first->sym, kv, &n);
	for (size_t i = 0; i < n; i++) {
		const struct fact *g = fact_base_get(e->fb, ids[i]);

		if (same_entity(k, f, g))
			return g;
	}
	return NULL;
}

/* "mlx5_0/1": the key values of f, joined. */
static void entity_name(const struct vocab_kind *k, const struct fact *f,
			struct strbuf *sb)
{
	for (size_t i = 0; i < k->nfields; i++) {
		const struct value *v;

		if (!k->fields[i].key || !(v = fact_get(f, k->fields[i].sym)))
			continue;
		if (sb->len)
			sb_putc(sb, '/');
		value_format(v, sb);
	}
}

static void emit_change(struct emit *e, const struct vocab_kind *k,
			const struct fact *f, const struct field *now,
			const struct value *was)
{
	struct strbuf ent = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;
	struct line at = { now->prov.text ? now->prov.text : "",
			   now->prov.text ? strlen(now->prov.text) : 0,
			   now->prov.line > e->line_base ?
				   now->prov.line - e->line_base :
				   0 };
	struct fact *c = emit_begin(e, "change", at.no ? &at : NULL);
	const char *field = sym_str(now->name);

	entity_name(k, f, &ent);
	value_format(was, &a);
	value_format(&now->v, &b);
	emit_str(e, c, "of", k->name, strlen(k->name), at.no ? &at : NULL);
	emit_str(e, c, "entity", ent.buf, ent.len, at.no ? &at : NULL);
	emit_str(e, c, "field", field, strlen(field), at.no ? &at : NULL);
	emit_str(e, c, "was", a.buf, a.len, at.no ? &at : NULL);
	emit_str(e, c, "now", b.buf, b.len, at.no ? &at : NULL);
	emit_int(e, c, "snapshot", e->snapshot + 1, at.no ? &at : NULL);
	e->nfacts++;
	fact_base_commit(e->fb, c, &(bool){ false });
	sb_release(&ent);
	sb_release(&a);
	sb_release(&b);
}

/* Values compared as printed: a change fact keeps them as text. */
static bool same_text(const struct value *a, const struct value *b)
{
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	bool same;

	value_format(a, &x);
	value_format(b, &y);
	same = x.len == y.len && (!x.len || !memcmp(x.buf, y.buf, x.len));
	sb_release(&x);
	sb_release(&y);
	return same;
}

/* The value the latest output gave field of f's entity: the last change
 * fact's, else the fact's own (first). */
static const struct value *latest(struct emit *e, const struct vocab_kind *k,
				  const struct fact *f, uint32_t field,
				  const struct value *first)
{
	struct strbuf ent = STRBUF_INIT;
	struct value v;
	const uint32_t *ids;
	const struct value *now = first;
	size_t n = 0;
	uint32_t of = sym_intern_cstr("of"), fl = sym_intern_cstr("field");

	entity_name(k, f, &ent);
	v = value_str(ent.buf ? ent.buf : "", ent.len);
	ids = fact_base_lookup(e->fb, sym_intern_cstr("change"),
			       sym_intern_cstr("entity"), &v, &n);
	for (size_t i = 0; i < n; i++) {
		const struct fact *c = fact_base_get(e->fb, ids[i]);
		const struct value *cof = fact_get(c, of),
				   *cfield = fact_get(c, fl);
		const char *a = cof ? value_text(cof) : NULL,
			   *b = cfield ? value_text(cfield) : NULL;

		if (a && b && !strcmp(a, k->name) && !strcmp(b, sym_str(field)))
			now = fact_get(c, sym_intern_cstr("now"));
	}
	sb_release(&ent);
	return now ? now : first;
}

/* Change facts for the values of f that differ from those an earlier
 * output gave the same entity, and the later value made the fact's: the
 * outputs of one paste are in the order they were taken (a flint query
 * after a burn shows the firmware now in flash), and the change fact
 * keeps what the earlier one said. */
static void note_changes(struct emit *e, const struct fact *f)
{
	const struct vocab_kind *k;
	const struct fact *g = earlier_entity(e, f, &k);

	if (!g)
		return;
	for (uint32_t j = 0; j < f->nfields; j++) {
		const struct vocab_field *vf =
			vocab_field(k, f->fields[j].name);
		const struct value *was = fact_get(g, f->fields[j].name);

		if (!vf || vf->key || !was)
			continue;
		was = latest(e, k, f, f->fields[j].name, was);
		if (same_text(was, &f->fields[j].v))
			continue;
		emit_change(e, k, f, &f->fields[j], was);
		fact_base_replace(e->fb, g->id, f->fields[j].name,
				  f->fields[j].v, &f->fields[j].prov);
	}
}

/* A disagreement fact: the entity's field holds was (kept, with where it
 * was read) while a second source gives now (f's field). */
static void emit_disagreement(struct emit *e, const struct vocab_kind *k,
			      const struct fact *f, const struct field *now,
			      const struct field *was)
{
	struct strbuf ent = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;
	struct line at = { now->prov.text ? now->prov.text : "",
			   now->prov.text ? strlen(now->prov.text) : 0,
			   now->prov.line > e->line_base ?
				   now->prov.line - e->line_base :
				   0 };
	struct fact *d = emit_begin(e, "disagreement", at.no ? &at : NULL);
	const char *field = sym_str(now->name);

	entity_name(k, f, &ent);
	value_format(&was->v, &a);
	value_format(&now->v, &b);
	emit_str(e, d, "kind", k->name, strlen(k->name), at.no ? &at : NULL);
	emit_str(e, d, "entity", ent.buf, ent.len, at.no ? &at : NULL);
	emit_str(e, d, "field", field, strlen(field), at.no ? &at : NULL);
	fact_put_at(e->fb, d, sym_intern_cstr("value"),
		    value_str(a.buf ? a.buf : "", a.len), was->prov.src,
		    was->prov.line, was->prov.text,
		    was->prov.text ? strlen(was->prov.text) : 0);
	emit_str(e, d, "other", b.buf, b.len, at.no ? &at : NULL);
	emit_str(e, d, "other_kind", k->name, strlen(k->name),
		 at.no ? &at : NULL);
	e->nfacts++;
	fact_base_commit(e->fb, d, &(bool){ false });
	sb_release(&ent);
	sb_release(&a);
	sb_release(&b);
}

/* An identifier the tools spell differently ("0x0c42a10300d9e4a0",
 * "0c42:a103:00d9:e4a0"): hex digits with an optional 0x and colons,
 * folded to lowercase digits alone; false for any other text. */
static bool hex_id(const char *s, char *out, size_t size)
{
	size_t o = 0;

	if (!strncmp(s, "0x", 2) || !strncmp(s, "0X", 2))
		s += 2;
	for (; *s; s++) {
		if (*s == ':')
			continue;
		if (!isxdigit((unsigned char)*s) || o + 1 >= size)
			return false;
		out[o++] = (char)tolower((unsigned char)*s);
	}
	out[o] = '\0';
	return o >= 8;
}

/* Two sources agree when they print the same text, or the same hex
 * identifier in their own spellings. */
static bool same_reading(const struct value *a, const struct value *b)
{
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	char hx[40], hy[40];
	bool same;

	if (same_text(a, b))
		return true;
	value_format(a, &x);
	value_format(b, &y);
	same = x.buf && y.buf && hex_id(x.buf, hx, sizeof(hx)) &&
	       hex_id(y.buf, hy, sizeof(hy)) && !strcmp(hx, hy);
	sb_release(&x);
	sb_release(&y);
	return same;
}

/* Fields that say which source told a value, not what the entity is:
 * two sources differ in them by nature. */
static const struct {
	const char *kind, *field;
} per_source[] = {
	{ "driver", "evidence" },
};

static bool source_field(const struct vocab_kind *k, uint32_t field)
{
	for (size_t i = 0; i < sizeof(per_source) / sizeof(*per_source); i++)
		if (!strcmp(k->name, per_source[i].kind) &&
		    !strcmp(sym_str(field), per_source[i].field))
			return true;
	return false;
}

/* Disagreement facts for the values of f that differ from those another
 * source (another tool, or a file of its own) gave the same entity: the
 * fact keeps the first, and the second is not merged away unseen. */
static void note_disagreements(struct emit *e, const struct fact *f)
{
	const struct vocab_kind *k;
	const struct fact *g = earlier_entity(e, f, &k);

	if (!g)
		return;
	for (uint32_t j = 0; j < f->nfields; j++) {
		const struct vocab_field *vf =
			vocab_field(k, f->fields[j].name);
		const struct field *was = fact_field(g, f->fields[j].name);

		if (!vf || vf->key || !was ||
		    source_field(k, f->fields[j].name) ||
		    same_reading(&was->v, &f->fields[j].v))
			continue;
		emit_disagreement(e, k, f, &f->fields[j], was);
	}
}

const struct fact *emit_end(struct emit *e, struct fact *f)
{
	bool added;

	if (!f)
		return NULL;
	if (!f->nfields) {
		fact_base_abandon(e->fb, f);
		return NULL;
	}
	if (e->host && f->kind == sym_intern_cstr("host") &&
	    !fact_field(f, sym_intern_cstr("hostname"))) {
		uint32_t base = e->line_base;
		struct line at = e->host_at;

		/* cite the prompt's own line, whatever block is parsed */
		e->line_base = 0;
		at.no = e->host_line;
		emit_str(e, f, "hostname", e->host, strlen(e->host), &at);
		e->line_base = base;
		e->hosts_named++;
	}
	if (e->snapshot)
		note_changes(e, f);
	else
		note_disagreements(e, f);
	e->nfacts++;
	if (e->watch_kind && f->kind == e->watch_kind)
		e->watched++;
	return fact_base_commit(e->fb, f, &added);
}

/* MFT's answer to a "y/n" prompt the user declined: "-E- Aborted by
 * user." (mstflint mlxconfig/mlxcfg_ui.cpp, after "Apply new
 * Configuration?"), "-E- Aborted by user" (mstflint mlxfwreset, after
 * "Continue with reset?").  The tool did what it was told: no error. */
bool line_user_declined(const struct line *ln)
{
	struct line t = *ln;

	while (t.len && (t.p[t.len - 1] == '.' || isspace((unsigned char)t.p[t.len - 1])))
		t.len--;
	return line_eq(&t, "-E- Aborted by user");
}

void emit_tool_error(struct emit *e, const char *tool, const struct line *ln)
{
	struct fact *f;

	if (line_user_declined(ln))
		return;
	f = emit_begin(e, "tool_error", ln);

	/* libibverbs prints its warnings with its own PFX ("libibverbs: ",
	 * rdma-core libibverbs/ibverbs.h), in whatever program links it:
	 * the line names its printer */
	if (line_starts(ln, "libibverbs: "))
		tool = "libibverbs";
	else if (e->command &&
		 tool_known(e->fb, e->command, strlen(e->command)))
		tool = e->command;
	emit_str(e, f, "tool", tool, strlen(tool), ln);
	emit_line(e, f, "message", ln, ln);
	emit_end(e, f);
}
