/* --redact: addresses, identifiers and known names replaced by stable
 * tokens. */
#include "cli/redact.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/xalloc.h"

/* Longest value that is registered or matched. */
#define REDACT_MAX_VALUE 256 /* @@ */
/* Distinct values masked in one run; later ones share one token per
 * class, so memory stays bounded. */
#define REDACT_MAX_VALUES 100000 /* @@ */

static const char *const class_names[REDACT_CLASS_COUNT] = {
	[REDACT_HOST] = "host",	    [REDACT_IPV4] = "ipv4",
	[REDACT_IPV6] = "ipv6",	    [REDACT_MAC] = "mac",
	[REDACT_GUID] = "guid",	    [REDACT_GID] = "gid",
	[REDACT_SERIAL] = "serial", [REDACT_USER] = "user",
};

struct entry {
	char *value;
	char *token;
	enum redact_class c;
};

struct redactor {
	struct entry *seen; /* every value mapped, in order */
	size_t nseen, capseen;
	struct entry *known; /* registered values, longest first */
	size_t nknown, capknown;
	unsigned next[REDACT_CLASS_COUNT];
};

struct redactor *redact_new(void)
{
	return xcalloc(1, sizeof(struct redactor));
}

void redact_free(struct redactor *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nseen; i++) {
		free(r->seen[i].value);
		free(r->seen[i].token);
	}
	for (size_t i = 0; i < r->nknown; i++)
		free(r->known[i].value);
	free(r->seen);
	free(r->known);
	free(r);
}

/* The token of value (n bytes) of class c, made on first sight.  Hex
 * values are compared without case, as the same address is. */
static const char *token_of(struct redactor *r, enum redact_class c,
			    const char *value, size_t n)
{
	char buf[64];

	for (size_t i = 0; i < r->nseen; i++)
		if (r->seen[i].c == c && strlen(r->seen[i].value) == n &&
		    !strncasecmp(r->seen[i].value, value, n))
			return r->seen[i].token;
	if (r->nseen >= REDACT_MAX_VALUES) {
		snprintf(buf, sizeof(buf), "redacted-%s", class_names[c]);
		for (size_t i = 0; i < r->nseen; i++)
			if (!strcmp(r->seen[i].token, buf))
				return r->seen[i].token;
	} else {
		snprintf(buf, sizeof(buf), "redacted-%s-%u", class_names[c],
			 ++r->next[c]);
	}
	xgrow(&r->seen, &r->capseen, r->nseen + 1, sizeof(*r->seen));
	r->seen[r->nseen].value = xstrndup(value, n);
	r->seen[r->nseen].token = xstrdup(buf);
	r->seen[r->nseen].c = c;
	return r->seen[r->nseen++].token;
}

void redact_add(struct redactor *r, enum redact_class c, const char *value)
{
	size_t n = value ? strlen(value) : 0, at;

	if (n < 2 || n > REDACT_MAX_VALUE)
		return;
	for (size_t i = 0; i < r->nknown; i++)
		if (!strcmp(r->known[i].value, value))
			return;
	/* longest first, so that a full name wins over its short form */
	for (at = 0; at < r->nknown && strlen(r->known[at].value) >= n; at++)
		;
	xgrow(&r->known, &r->capknown, r->nknown + 1, sizeof(*r->known));
	memmove(&r->known[at + 1], &r->known[at],
		(r->nknown - at) * sizeof(*r->known));
	r->known[at].value = xstrdup(value);
	r->known[at].token = NULL;
	r->known[at].c = c;
	r->nknown++;
}

/* Fields whose values identify the site, by kind (engine/vocab.def). */
static const struct {
	const char *kind, *field;
	enum redact_class c;
} known_fields[] = {
	{ "host", "hostname", REDACT_HOST },
	{ "limits", "domain", REDACT_USER },
};

void redact_add_facts(struct redactor *r, const struct fact_base *fb)
{
	for (size_t t = 0; t < sizeof(known_fields) / sizeof(known_fields[0]);
	     t++) {
		size_t n;
		const uint32_t *ids = fact_base_of_kind(
			fb, sym_intern_cstr(known_fields[t].kind), &n);

		for (size_t i = 0; i < n; i++) {
			const char *v = fact_text(fact_base_get(fb, ids[i]),
						  known_fields[t].field);
			char shortname[REDACT_MAX_VALUE + 1];
			const char *dot;

			/* limits.conf's '*', '@group' and uid ranges name
			 * no user */
			if (!v || !*v ||
			    (known_fields[t].c == REDACT_USER &&
			     (strchr("*@%", v[0]) || isdigit((unsigned char)v[0]))))
				continue;
			redact_add(r, known_fields[t].c, v);
			dot = strchr(v, '.');
			if (known_fields[t].c == REDACT_HOST && dot &&
			    (size_t)(dot - v) < sizeof(shortname)) {
				memcpy(shortname, v, (size_t)(dot - v));
				shortname[dot - v] = '\0';
				redact_add(r, REDACT_HOST, shortname);
			}
		}
	}
}

/* ---- matchers: each returns the length matched at s, or 0 ---- */

static bool word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* hex groups separated by ':': 6 or 20 groups of 2 (an Ethernet or an
 * IPoIB MAC), 4 of 4 (a GUID), 8 of 4 (a GID in full), or an IPv6
 * address with '::'. */
static size_t match_colon_hex(const char *s, enum redact_class *c)
{
	size_t n = 0, groups = 0, len = 0, maxlen = 0, minlen = 99;
	bool dbl = false;

	while (n < REDACT_MAX_VALUE && (isxdigit((unsigned char)s[n]) || s[n] == ':')) {
		if (s[n] == ':') {
			if (s[n + 1] == ':') {
				if (dbl)
					break;
				dbl = true;
			}
			if (len) {
				groups++;
				maxlen = len > maxlen ? len : maxlen;
				minlen = len < minlen ? len : minlen;
			}
			len = 0;
		} else if (++len > 4) {
			return 0;
		}
		n++;
	}
	if (len) {
		groups++;
		maxlen = len > maxlen ? len : maxlen;
		minlen = len < minlen ? len : minlen;
	} else if (n && s[n - 1] == ':' && !(n >= 2 && s[n - 2] == ':')) {
		n--; /* a trailing colon is punctuation */
	}
	if (word_char(s[n]) || s[n] == '.' || !groups)
		return 0;
	if (!dbl && minlen == 2 && maxlen == 2 && (groups == 6 || groups == 20))
		*c = REDACT_MAC;
	else if (!dbl && minlen == 4 && maxlen == 4 && groups == 4)
		*c = REDACT_GUID;
	else if (!dbl && minlen == 4 && maxlen == 4 && groups == 8)
		*c = REDACT_GID;
	else if ((dbl && groups >= 2) || (!dbl && groups == 8))
		*c = REDACT_IPV6;
	else
		return 0;
	return n;
}

/* 0x and 16 hex digits: a GUID as ibstat prints it.  One that starts
 * with ffff is a kernel address (x86-64 and arm64 map the kernel at the
 * top of the address space; an EUI-64 whose OUI is ff:ff is no GUID), and
 * identifies nothing. */
static size_t match_hex_guid(const char *s, enum redact_class *c)
{
	size_t n = 2;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return 0;
	while (isxdigit((unsigned char)s[n]))
		n++;
	if (n != 18 || word_char(s[n]) || !strncasecmp(s + 2, "ffff", 4))
		return 0;
	*c = REDACT_GUID;
	return n;
}

/* Four decimal octets. */
static size_t match_ipv4(const char *s, enum redact_class *c)
{
	size_t n = 0;

	for (int part = 0; part < 4; part++) {
		unsigned v = 0, digits = 0;

		if (part && s[n++] != '.')
			return 0;
		while (isdigit((unsigned char)s[n]) && digits < 4) {
			v = v * 10 + (unsigned)(s[n++] - '0');
			digits++;
		}
		if (!digits || digits > 3 || v > 255)
			return 0;
	}
	if (word_char(s[n]) || (s[n] == '.' && isdigit((unsigned char)s[n + 1])))
		return 0;
	*c = REDACT_IPV4;
	return n;
}

/* A registered value as a whole word. */
static size_t match_known(const struct redactor *r, const char *s,
			  enum redact_class *c)
{
	for (size_t i = 0; i < r->nknown; i++) {
		size_t n = strlen(r->known[i].value);

		if (!strncmp(s, r->known[i].value, n) &&
		    !isalnum((unsigned char)s[n])) {
			*c = r->known[i].c;
			return n;
		}
	}
	return 0;
}

/* Words that introduce a serial number ("Serial Number: MT1234X0001",
 * "serial_number=...", "SN: ..."), as lspci -vv, dmidecode, ethtool -m and
 * mlxfwmanager print it; the value is the word that follows. */
static const char *const serial_words[] = {
	"serial number", "serial_number", "serial no", "serialnumber",
	"serial",	 "sn",
};

static size_t match_serial_intro(const char *s, size_t *value_at)
{
	for (size_t i = 0; i < sizeof(serial_words) / sizeof(serial_words[0]);
	     i++) {
		size_t n = strlen(serial_words[i]), k;

		if (strncasecmp(s, serial_words[i], n) || word_char(s[n]))
			continue;
		k = n;
		while (s[k] == ' ' || s[k] == '\t')
			k++;
		if (s[k] != ':' && s[k] != '=')
			continue;
		k++;
		while (s[k] == ' ' || s[k] == '\t' || s[k] == '"')
			k++;
		*value_at = k;
		for (n = 0; n < REDACT_MAX_VALUE &&
			    (isalnum((unsigned char)s[k + n]) || s[k + n] == '-');
		     n++)
			;
		return n >= 3 ? n : 0;
	}
	return 0;
}

/* "/home/NAME" names a user. */
static size_t match_home(const char *s, size_t *value_at)
{
	size_t n = 0;

	if (strncmp(s, "/home/", 6))
		return 0;
	while (n < REDACT_MAX_VALUE &&
	       (isalnum((unsigned char)s[6 + n]) || strchr("._-", s[6 + n])))
		n++;
	*value_at = 6;
	return n >= 2 ? n : 0;
}

char *redact_text(struct redactor *r, const char *text, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	char *copy = xstrndup(text, len); /* NUL-terminated for the matchers */
	const char *s = copy;
	bool after_escape = false;
	size_t i = 0;

	len = strlen(copy);
	while (i < len) {
		enum redact_class c = REDACT_HOST;
		bool boundary = !i || after_escape ||
				(!word_char(s[i - 1]) && s[i - 1] != '.' &&
				 s[i - 1] != ':');
		size_t n = 0, at = 0;

		after_escape = false;
		if (s[i] == '\033' && s[i + 1] == '[') {
			/* a colour: copied whole, and what follows starts a
			 * word (the 'm' that ends it is no part of one) */
			size_t e = i + 2;

			while (s[e] && strchr("0123456789;", s[e]))
				e++;
			if (s[e])
				e++;
			sb_add(&sb, s + i, e - i);
			i = e;
			after_escape = true;
			continue;
		}

		if (boundary) {
			n = match_known(r, s + i, &c);
			if (!n)
				n = match_hex_guid(s + i, &c);
			if (!n)
				n = match_colon_hex(s + i, &c);
			if (!n)
				n = match_ipv4(s + i, &c);
			if (!n && (n = match_serial_intro(s + i, &at)))
				c = REDACT_SERIAL;
		}
		if (!n && (n = match_home(s + i, &at)))
			c = REDACT_USER;
		if (!n) {
			sb_putc(&sb, s[i++]);
			continue;
		}
		sb_add(&sb, s + i, at);
		sb_puts(&sb, token_of(r, c, s + i + at, n));
		i += at + n;
	}
	free(copy);
	return sb_detach(&sb);
}

static char *mask_string(void *ctx, const char *s, size_t len)
{
	return redact_text(ctx, s, len);
}

struct json *redact_json(struct redactor *r, const struct json *j)
{
	return json_map_strings(j, mask_string, r);
}

char *redact_bytes(struct redactor *r, const char *data, size_t len,
		   size_t *outlen)
{
	struct strbuf sb = STRBUF_INIT;
	size_t at = 0;

	while (at < len) {
		const char *nul = memchr(data + at, '\0', len - at);
		size_t n = nul ? (size_t)(nul - (data + at)) : len - at;
		char *piece = redact_text(r, data + at, n);

		sb_puts(&sb, piece);
		free(piece);
		at += n;
		if (nul) {
			sb_add(&sb, "", 1);
			at++;
		}
	}
	*outlen = sb.len;
	return sb_detach(&sb);
}

void redact_write_map(const struct redactor *r, FILE *out)
{
	for (size_t i = 0; i < r->nseen; i++)
		fprintf(out, "%s\t%s\n", r->seen[i].token, r->seen[i].value);
}
