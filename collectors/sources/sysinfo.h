/* NVIDIA's sysinfo-snapshot read as a host: its HTML report cut into the
 * sections it writes (a command's output, an internal file's content),
 * and its other_system_files (the /sys entries whose path holds
 * "infini") rebuilt into a /sys tree.  The source layer lays both over
 * the bundle, so that the collectors find /proc/modules, the sysfs
 * InfiniBand tree and each command's output where a sosreport has them. */
#ifndef RD_SYSINFO_H
#define RD_SYSINFO_H

#include <stddef.h>

#include "engine/diag.h"

#define SYSINFO_SECTIONS_MAX 65536 /* @@ sections of one report */
#define SYSINFO_NAME_MAX 1024 /* @@ bytes of a section's title */
#define SYSINFO_FILES_MAX 200000 /* @@ entries of other_system_files */
#define SYSINFO_PATH_MAX 4096 /* @@ bytes of one of their paths */

/* One section of the report: "<a name="secN"></a>...<h2>NAME</h2>
 * <p>BODY</p>".  The tool numbers server commands 1xxx, fabric commands
 * 2xxx and internal files 3xxx.  name and body point into the report,
 * still escaped; line is the line of the anchor. */
struct sysinfo_section {
	long number;
	const char *name;
	size_t name_len;
	const char *body;
	size_t body_len;
	int line;
};

typedef void (*sysinfo_section_fn)(const struct sysinfo_section *sec,
				   void *arg);

/* Calls fn for each section of the report html (len bytes; where names it
 * in messages).  Each section ends at the next anchor whatever it holds: a
 * body not closed by </p> runs up to there, a title not closed or over
 * SYSINFO_NAME_MAX skips its section, each with a warning into d naming
 * the line (for unterminated ones, the first; then their count); more than
 * SYSINFO_SECTIONS_MAX sections end the reading.  Returns the number of
 * sections given to fn. */
size_t sysinfo_html_sections(const char *html, size_t len, const char *where,
			     struct diag *d, sysinfo_section_fn fn, void *arg);

/* The text the tool escaped into HTML: <br/> is a newline, four &nbsp;
 * a tab, &lt; &gt; &amp; &quot; &#N; their characters, other tags are
 * dropped.  Owned, NUL-terminated; *out_len gets its length. */
char *sysinfo_html_text(const char *s, size_t len, size_t *out_len);

/* The file name the tool gives a command's output in commands_txt_output
 * (without ".txt"): '/', ':', '*', '?', '"', '<', '|' and '-' removed,
 * spaces made '_', then "__" made '_'.  Owned. */
char *sysinfo_file_name(const char *cmd, size_t len);

/* One entry of other_system_files: "File: PATH: CONTENT".  path and data
 * point into the text. */
struct sysinfo_file {
	const char *path;
	size_t path_len;
	const char *data;
	size_t data_len;
	int line;
};

typedef void (*sysinfo_file_fn)(const struct sysinfo_file *f, void *arg);

/* Calls fn for each /sys file of other_system_files, up to the tool's
 * "Cannot open the following files:" list.  A path over SYSINFO_PATH_MAX
 * or more than SYSINFO_FILES_MAX entries end the reading with a warning
 * into d.  Returns the number of entries given to fn. */
size_t sysinfo_system_files(const char *text, size_t len, const char *where,
			    struct diag *d, sysinfo_file_fn fn, void *arg);

struct source;

/* Lays the report's sections and the rebuilt /sys tree over a
 * sysinfo-snapshot source; what the bundle holds itself wins.  Problems
 * of the report are warnings into d; a bundle without a report is read
 * as it is. */
void sysinfo_overlay(struct source *s, struct diag *d);

#endif
