/* Application and library error lines found anywhere in a text, by the
 * app_message patterns of the knowledge base. */
#ifndef RD_PARSE_APP_H
#define RD_PARSE_APP_H

#include <stddef.h>

#include "collectors/parsers/parse.h"

/* Scans every line of text with e's application-message scanner
 * (e->app_scan, built by logscan_new_for(fb, "app_message", d)) and adds
 * one app_error fact per distinct message and values (with its count and
 * first line), plus a limits fact (scope application) for a
 * locked-memory limit a line reports.  Lines cite e's source.  Returns the
 * facts added: 0 without a scanner or app_message entries. */
int app_scan(struct emit *e, const char *text, size_t len);

#endif
