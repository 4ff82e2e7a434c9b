/* The lines that installing or starting the RDMA driver stack prints when
 * it fails (MLNX_OFED's installer, DKMS, rpm, dpkg, openibd,
 * systemd-modules-load), found anywhere in a text. */
#ifndef RD_PARSE_INSTALL_H
#define RD_PARSE_INSTALL_H

#include <stddef.h>

#include "collectors/parsers/parse.h"

/* Scans every line of text and adds a tool_error fact (tool, message,
 * reason, kb_name when the kb names the tool, and the package, kernel or
 * module the line names) for each installer, DKMS, package-manager or
 * openibd failure line.  command is the tool the text's command line ran
 * (NULL when none): openibd's lines under MLNX_EN's mlnx-en.d are that
 * script's.  A line that already has a tool_error fact of e's source is
 * left alone.  Returns the facts added. */
int install_scan(struct emit *e, const char *text, size_t len,
		 const char *command);
/* install_scan of MLNX_OFED's installer's block, whose program is the one
 * the command above the block ran (e->command), if any. */
int install_scan_ofed(struct emit *e, const char *text, size_t len);

#endif
