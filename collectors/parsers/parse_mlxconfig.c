/* mlxconfig (MFT) and mstconfig (mstflint) query and set: an adapter's
 * non-volatile firmware configuration, one fw_config fact per parameter.
 *
 * The layout, from Mellanox/mstflint mlxconfig/mlxcfg_ui.cpp (v4.15 to
 * v4.36): printOpening() prints "Device #%d:", a dashed rule, then
 * "Device type:", "Name:", "Description:" and "Device:" padded to 16 or
 * 20 columns (older releases print "PCI device:"); printConfHeader()
 * prints "Configurations:" and the columns shown, out of "Default",
 * "Current", "Next Boot" and, for set, "New"; printSingleParam() prints
 * each parameter as "*" when its next value differs from the default or
 * current one (else a space), "RO" for a read-only one, the name, then
 * one value per column, "Name(n)" when the value has a name ("False(0)",
 * "ETH(2)") or the bare number.  A set ends "Applying... Done!" and
 * "-I- Please reboot machine to load new configurations.".  People paste
 * the rows alone too (mlxconfig q | grep SRIOV), so a row is read
 * without its header when its shape is unambiguous. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "engine/xalloc.h"

#define MLXCONFIG_COLUMNS 4 /* @@ Default, Current, Next Boot, New */
#define MLXCONFIG_TOKENS 8 /* @@ words of a row looked at */
#define MLXCONFIG_NAME 64 /* @@ a parameter name's length */
#define MLXCONFIG_DEVICE 128 /* @@ a device name's length */

enum column { COL_DEFAULT, COL_CURRENT, COL_NEXT, COL_NEW };

struct config {
	enum column cols[MLXCONFIG_COLUMNS];
	size_t ncols; /* 0: no header seen (a grep of the rows) */
	char device[MLXCONFIG_DEVICE];
	char device_type[MLXCONFIG_NAME];
	bool applied; /* a set that printed "Applying... Done!" */
	bool rows; /* a row was read: the rows below it need no named value */
};

/* A parameter name as printSingleParam() prints it: upper-case words
 * joined by '_' (EXP_ROM_UEFI_x86_ENABLE has a lower-case part), an
 * optional "[n]" index. */
static bool param_name(const struct line *t)
{
	size_t i = 0, upper = 0;
	bool underscore = false;

	if (!t->len || t->len >= MLXCONFIG_NAME || !isupper((unsigned char)t->p[0]))
		return false;
	for (; i < t->len && t->p[i] != '['; i++) {
		unsigned char c = (unsigned char)t->p[i];

		if (c == '_')
			underscore = true;
		else if (isupper(c))
			upper++;
		else if (!isdigit(c) && !islower(c))
			return false;
	}
	if (i < t->len && (t->p[t->len - 1] != ']' || i + 2 >= t->len))
		return false;
	return underscore && upper >= 2;
}

/* A value: "Name(n)" (its name without blanks), a number, "N/A" or
 * "Array[..]". */
static bool param_value(const struct line *t, bool named_only)
{
	const char *open;

	if (!t->len)
		return false;
	open = memchr(t->p, '(', t->len);
	if (open && open > t->p && t->p[t->len - 1] == ')') {
		struct line n = { open + 1, (size_t)(t->p + t->len - open - 2),
				  t->no };

		return n.len && line_digits(&n, 10);
	}
	if (named_only)
		return false;
	return line_digits(t, 10) || line_eq(t, "N/A") ||
	       line_starts(t, "Array[") ||
	       (t->len > 2 && t->p[0] == '0' && t->p[1] == 'x');
}

/* Splits a row into its name and values; false when ln is none.  With no
 * header (a grep of the rows) a row needs a named value ("True(1)"), so
 * that "SOME_NAME 3" of another tool is not taken for one. */
static bool row_split(const struct line *ln, struct line *name,
		      struct line *vals, size_t *nvals, bool headed)
{
	struct line tok[MLXCONFIG_TOKENS];
	size_t n = line_split(ln, tok, MLXCONFIG_TOKENS), at = 0;
	bool named = false;

	if (n && line_eq(&tok[at], "*"))
		at++;
	if (at < n && line_eq(&tok[at], "RO"))
		at++;
	if (at < n && tok[at].len == 3 && !memcmp(tok[at].p, "*RO", 3))
		at++;
	if (n < at + 2 || n - at - 1 > MLXCONFIG_COLUMNS ||
	    !param_name(&tok[at]))
		return false;
	*name = tok[at];
	*nvals = 0;
	for (size_t i = at + 1; i < n; i++) {
		if (!param_value(&tok[i], false))
			return false;
		named = named || param_value(&tok[i], true);
		vals[(*nvals)++] = tok[i];
	}
	return headed || named;
}

/* A row of the table, for detection: unambiguous alone. */
bool mlxconfig_row_line(const struct line *ln)
{
	struct line name, vals[MLXCONFIG_COLUMNS];
	size_t n;

	return row_split(ln, &name, vals, &n, false);
}

/* "Configurations:" and the columns after it. */
bool mlxconfig_header_line(const struct line *ln)
{
	return line_starts(ln, "Configurations:") &&
	       (line_contains(ln, "Next Boot") || line_contains(ln, "Current") ||
		line_contains(ln, "Default"));
}

static void read_header(struct config *c, const struct line *ln)
{
	struct line tok[MLXCONFIG_TOKENS];
	size_t n = line_split(ln, tok, MLXCONFIG_TOKENS);

	c->ncols = 0;
	for (size_t i = 1; i < n && c->ncols < MLXCONFIG_COLUMNS; i++) {
		if (line_eq(&tok[i], "Default"))
			c->cols[c->ncols++] = COL_DEFAULT;
		else if (line_eq(&tok[i], "Current"))
			c->cols[c->ncols++] = COL_CURRENT;
		else if (line_eq(&tok[i], "Next"))
			c->cols[c->ncols++] = COL_NEXT;
		else if (line_eq(&tok[i], "New"))
			c->cols[c->ncols++] = COL_NEW;
	}
}

/* "ETH(2)": the name "ETH" and 2; "8": "8" and 8; "N/A": no number. */
static void put_value(struct emit *e, struct fact *f, const char *field,
		      const char *num_field, const struct line *v)
{
	const char *open = memchr(v->p, '(', v->len);
	struct line word = *v, num = *v;
	char buf[16];

	if (open && v->p[v->len - 1] == ')') {
		word.len = (size_t)(open - v->p);
		num = (struct line){ open + 1,
				     (size_t)(v->p + v->len - open - 2), v->no };
	}
	emit_line(e, f, field, &word, v);
	if (line_digits(&num, 10)) {
		line_copy(&num, buf, sizeof(buf));
		emit_int(e, f, num_field, strtoll(buf, NULL, 10), v);
	}
}

static bool same_value(const struct line *a, const struct line *b)
{
	return a->len == b->len && !memcmp(a->p, b->p, a->len);
}

static void read_row(struct emit *e, const struct config *c,
		     const struct line *ln, const struct line *name,
		     const struct line *vals, size_t nvals)
{
	const struct line *by[MLXCONFIG_COLUMNS] = { NULL };
	const struct line *next, *now;
	struct fact *f;

	if (c->ncols && nvals == c->ncols) {
		for (size_t i = 0; i < nvals; i++)
			by[c->cols[i]] = &vals[i];
	} else if (!c->ncols && nvals == 3) {
		/* three columns are query -e's, whose header is "Default
		 * Current Next Boot" */
		by[COL_DEFAULT] = &vals[0];
		by[COL_CURRENT] = &vals[1];
		by[COL_NEXT] = &vals[2];
	} else {
		/* no header, or a row that does not fit it: the last value
		 * is the next boot's, as every layout prints it */
		by[COL_NEXT] = &vals[nvals - 1];
	}
	/* an old mstconfig shows "Current" alone, and a set applied
	 * makes its "New" column the next boot's */
	next = by[COL_NEXT] ? by[COL_NEXT] : by[COL_CURRENT];
	if (c->applied && by[COL_NEW])
		next = by[COL_NEW];
	now = by[COL_CURRENT];
	if (!now && c->applied && by[COL_NEW] && by[COL_NEXT])
		now = by[COL_NEXT]; /* what the adapter ran before the set */
	if (!next)
		return;
	f = emit_begin(e, "fw_config", ln);
	if (c->device[0])
		emit_str(e, f, "device", c->device, strlen(c->device), NULL);
	if (c->device_type[0])
		emit_str(e, f, "device_type", c->device_type,
			 strlen(c->device_type), NULL);
	emit_line(e, f, "name", name, ln);
	put_value(e, f, "value", "value_num", next);
	if (by[COL_DEFAULT])
		put_value(e, f, "default", "default_num", by[COL_DEFAULT]);
	/* pending only when the output shows both values */
	if (now && now != next) {
		put_value(e, f, "current", "current_num", now);
		emit_bool(e, f, "pending", !same_value(now, next), ln);
	}
	emit_end(e, f);
}

/* The device a query names, as printOpening() or the command gave it. */
static void set_device(struct config *c, const struct line *v)
{
	char addr[32];

	if (line_pci_addr(v, addr, sizeof(addr)) &&
	    (v->len == 7 || v->p[v->len - 2] == '.'))
		snprintf(c->device, sizeof(c->device), "%s", addr);
	else
		line_copy(v, c->device, sizeof(c->device));
}

static bool set_applied(const char *text, size_t len)
{
	struct lines it;
	struct line raw;

	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_unmark(raw);

		if (line_starts(&ln, "Applying...") &&
		    line_contains(&ln, "Done!"))
			return true;
	}
	return false;
}

int parse_mlxconfig(struct emit *e, const char *text, size_t len,
		    const char *arg)
{
	struct config c = { 0 };
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	c.applied = set_applied(text, len);
	if (arg) {
		struct line a = { arg, strlen(arg), 0 };

		set_device(&c, &a);
	}
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_unmark(raw), key, val, name;
		struct line vals[MLXCONFIG_COLUMNS];
		size_t nvals;

		if (line_starts(&ln, "-E- ")) {
			emit_tool_error(e, "mlxconfig", &ln);
			continue;
		}
		if (line_starts(&ln, "Device #")) {
			c.ncols = 0; /* the next device's table */
			c.device_type[0] = '\0';
			continue;
		}
		if (mlxconfig_header_line(&ln)) {
			read_header(&c, &ln);
			continue;
		}
		/* under its command line (arg: the device -d named) the
		 * rows of a grep need no header either */
		if (row_split(&ln, &name, vals, &nvals,
			      c.ncols > 0 || c.rows || arg)) {
			read_row(e, &c, &ln, &name, vals, nvals);
			c.rows = true;
			continue;
		}
		if (!line_kv(&ln, ':', &key, &val) || !val.len ||
		    line_eq(&val, "N/A"))
			continue;
		if (line_eq(&key, "Device") || line_eq(&key, "PCI device"))
			set_device(&c, &val);
		else if (line_eq(&key, "Device type"))
			line_copy(&val, c.device_type, sizeof(c.device_type));
	}
	return (int)(e->nfacts - before);
}
