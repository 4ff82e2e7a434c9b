/* fi_info (libfabric util/info.c): the providers libfabric can use.  Its
 * short listing prints each endpoint as "provider: %s" then indented
 * "fabric: %s", "domain: %s", "version: %d.%d", "type: %s" and
 * "protocol: %s" (print_short_info()); libfabric 1.3 and older print
 * "%s: %s" (provider and fabric) above version, type and protocol, and
 * -l prints "%s:" above the version.  When fi_getinfo() fails, run()
 * prints "fi_getinfo: %d" (newer builds add " (%s)", fi_strerror()):
 * -61 (FI_ENODATA) is no provider matching the request.  Each endpoint is
 * a fi_provider fact; the error is a tool_error of fi_info with its errno
 * and the provider the command asked for (-p, the block's argument). */
#include <ctype.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "engine/xalloc.h"

/* The keys of an endpoint's indented lines and the fields they fill. */
static const struct field_key keys[] = {
	{ "fabric", "fabric" },	    { "domain", "domain" },
	{ "version", "version" },   { "type", "type" },
	{ "protocol", "protocol" },
};

/* "fi_getinfo: -61" or "fi_getinfo: -61 (No data available)"; *err gets
 * the errno. */
static bool getinfo_error(const struct line *ln, long *err)
{
	struct line rest;
	long v = 0;
	size_t i;

	if (!line_starts(ln, "fi_getinfo: -"))
		return false;
	rest = (struct line){ ln->p + 13, ln->len - 13, ln->no };
	for (i = 0; i < rest.len && i < 6 && isdigit((unsigned char)rest.p[i]);
	     i++)
		v = v * 10 + (rest.p[i] - '0');
	if (!i || i == 6 || (i < rest.len && rest.p[i] != ' '))
		return false;
	*err = v;
	return true;
}

bool fi_getinfo_error_line(const struct line *ln)
{
	long err;

	return getinfo_error(ln, &err);
}

/* A provider name as fi_info prints it: "verbs", "efa;ofi_rxd",
 * "UDP", "shm". */
static bool provider_name(const struct line *t)
{
	if (!t->len || t->len > 64)
		return false;
	for (size_t i = 0; i < t->len; i++)
		if (!isalnum((unsigned char)t->p[i]) && !strchr("_;-", t->p[i]))
			return false;
	return true;
}

/* The older and -l forms' "NAME: FABRIC" and "NAME:" stand above an
 * indented "version:" or "type:" line; fi_info's own messages
 * ("fi_info: invalid option", "Usage: fi_info [OPTIONS]") and the -v
 * form's YAML ("---", "fi_info:" above "caps:") do not. */
static bool old_entry_follows(const struct lines *it)
{
	struct lines peek = *it;
	struct line next, t;

	if (!lines_next(&peek, &next) || !next.len ||
	    !isspace((unsigned char)next.p[0]))
		return false;
	t = line_trim(next);
	return line_starts(&t, "version:") || line_starts(&t, "type:");
}

/* The top-level line that starts an endpoint: "provider: NAME", or
 * "NAME: FABRIC" and "NAME:" of the older and -l forms (it, the lines
 * after it).  *name gets the provider, *fabric the fabric when the line
 * gives it. */
static bool entry_line(const struct line *raw, const struct lines *it,
		       struct line *name, struct line *fabric)
{
	static const char *const not_names[] = { "fi_getinfo", "fi_info",
						 "Usage" };
	struct line key, val;

	if (!raw->len || isspace((unsigned char)raw->p[0]))
		return false;
	if (!line_kv(raw, ':', &key, &val) || !provider_name(&key))
		return false;
	/* "libfabric:1234:..." and the like: a colon not followed by a
	 * blank or the end is no key */
	if (key.p + key.len + 1 < raw->p + raw->len &&
	    key.p[key.len + 1] != ' ')
		return false;
	*fabric = (struct line){ NULL, 0, raw->no };
	if (line_eq(&key, "provider")) {
		if (!provider_name(&val))
			return false;
		*name = val;
		return true;
	}
	for (size_t i = 0; i < ARRAY_SIZE(not_names); i++)
		if (line_eq(&key, not_names[i]))
			return false;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (line_eq(&key, keys[i].key))
			return false;
	if (!old_entry_follows(it))
		return false;
	*name = key;
	*fabric = val;
	return true;
}

static void getinfo_failed(struct emit *e, const struct line *ln, long err,
			   const char *provider)
{
	struct fact *f = emit_begin(e, "tool_error", ln);

	emit_str(e, f, "tool", "fi_info", 7, ln);
	emit_line(e, f, "message", ln, ln);
	emit_str(e, f, "reason", "error", 5, ln);
	emit_str(e, f, "kb_name", "fi_info", 7, ln);
	emit_int(e, f, "errno", err, ln);
	if (provider && provider[0])
		emit_str(e, f, "provider", provider,
			 strnlen(provider, 64), ln);
	emit_end(e, f);
}

int parse_fi_info(struct emit *e, const char *text, size_t len,
		  const char *arg)
{
	struct fact *f = NULL;
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw), name, fabric, key, val;
		long err;

		if (getinfo_error(&ln, &err)) {
			getinfo_failed(e, &ln, err, arg);
			continue;
		}
		if (entry_line(&raw, &it, &name, &fabric)) {
			emit_end(e, f);
			f = emit_begin(e, "fi_provider", &ln);
			emit_line(e, f, "provider", &name, &ln);
			if (fabric.len)
				emit_line(e, f, "fabric", &fabric, &ln);
			continue;
		}
		if (!f || !raw.len || !isspace((unsigned char)raw.p[0])) {
			/* a top-level line that starts no endpoint ends it */
			if (ln.len && f) {
				emit_end(e, f);
				f = NULL;
			}
			continue;
		}
		if (line_kv(&ln, ':', &key, &val) && val.len)
			emit_keyed(e, f, keys, ARRAY_SIZE(keys), &key, &val,
				   &ln);
	}
	emit_end(e, f);
	return (int)(e->nfacts - before);
}
