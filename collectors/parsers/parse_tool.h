/* Error lines of command-line RDMA tools, found anywhere in a text: the
 * shells' "command not found", the dynamic loader's missing library, and
 * a tool's own error line, for the tools kb/tools.yaml names. */
#ifndef RD_PARSE_TOOL_H
#define RD_PARSE_TOOL_H

#include <stdbool.h>
#include <stddef.h>

#include "collectors/parsers/parse.h"

/* Scans every line of text and adds a tool_error fact (tool, message,
 * reason, and library, module or device where the line names one) for
 * each error line of a tool that e's fact base holds a kb 'tool' entry
 * for.  command is the tool the text's command line ran (NULL when
 * none): it names the tool of lines that name none (infiniband-diags'
 * ibwarn and ibpanic, MFT's "-E-").  A line that already has a
 * tool_error fact of e's source (a tool's own parser read it), or that an
 * application message of e->app_scan matches, is left alone.  Returns the
 * facts added: 0 when the fact base has no tool entries. */
int tool_scan(struct emit *e, const char *text, size_t len,
	      const char *command);

/* The name of the kb 'tool' entry that names tool (its basename; the
 * n bytes at tool), a pattern such as "ib_*_bw" or the name itself,
 * owned by fb; NULL when the kb names no such tool. */
const char *tool_entry(const struct fact_base *fb, const char *tool,
		       size_t n);
/* Whether tool_entry finds one. */
bool tool_known(const struct fact_base *fb, const char *tool, size_t n);

#endif
