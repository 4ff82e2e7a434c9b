/* --redact: masks what identifies a site before a report goes into a
 * ticket, as sos clean does: host names, IPv4 and IPv6 addresses, MACs,
 * GUIDs and GIDs, serial numbers and user names.  The same value always
 * gets the same token ("redacted-host-1"), so a redacted report still
 * says which lines speak of the same host or port; the mapping stays in
 * memory unless written with redact_write_map (--redact-map). */
#ifndef RD_REDACT_H
#define RD_REDACT_H

#include <stddef.h>
#include <stdio.h>

#include "engine/fact.h"
#include "engine/json.h"

enum redact_class {
	REDACT_HOST,
	REDACT_IPV4,
	REDACT_IPV6,
	REDACT_MAC,
	REDACT_GUID,
	REDACT_GID,
	REDACT_SERIAL,
	REDACT_USER,
	REDACT_CLASS_COUNT,
};

struct redactor;

struct redactor *redact_new(void);
void redact_free(struct redactor *r);

/* Registers a value known to identify the site (a host name from the
 * facts, a user name), so that it is masked wherever it appears as a
 * word.  Values shorter than 2 bytes or longer than REDACT_MAX_VALUE are
 * ignored. */
void redact_add(struct redactor *r, enum redact_class c, const char *value);
/* Registers the host names (and their short forms), the user names of
 * limits.conf and the serial numbers that the facts of fb hold. */
void redact_add_facts(struct redactor *r, const struct fact_base *fb);

/* Returns text (len bytes) with every address, identifier and registered
 * value replaced by its token; owned by the caller.  Tokens hold only
 * letters, digits and '-', so JSON, HTML and Markdown stay valid. */
char *redact_text(struct redactor *r, const char *text, size_t len);

/* A copy of the document j with each string masked (keys kept), so that
 * no value can break its syntax; owned. */
struct json *redact_json(struct redactor *r, const struct json *j);

/* As redact_text for data that may hold NUL bytes (a recorded file):
 * each NUL-separated piece is masked and the NULs kept; the result's
 * length is left in *outlen. */
char *redact_bytes(struct redactor *r, const char *data, size_t len,
		   size_t *outlen);

/* Writes "token<TAB>value" lines, one per value masked so far, in the
 * order they were first seen. */
void redact_write_map(const struct redactor *r, FILE *out);

#endif
