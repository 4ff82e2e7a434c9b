/* Application and library error lines found anywhere in a text, by the
 * app_message patterns of the knowledge base. */
#ifndef RD_PARSE_APP_H
#define RD_PARSE_APP_H

#include <stddef.h>

#include "collectors/parsers/parse.h"

/* Scans every line of text for the app_message patterns of e's fact base
 * and adds one app_error fact per distinct message and values (with its
 * count and first line), plus a limits fact (scope application) for a
 * locked-memory limit a line reports.  Lines cite e's source.  Returns the
 * facts added: 0 when the fact base holds no app_message entries. */
int app_scan(struct emit *e, const char *text, size_t len);

#endif
