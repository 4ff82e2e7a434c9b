/* rxe_cfg status (the soft-RoCE setup script rdma-core shipped as
 * providers/rxe/rxe_cfg.in): a header "Name Link Driver Speed NMTU
 * IPv4_addr RDEV RMTU" and one row per Ethernet interface.  The script
 * pads every field of a column to one width and prints an empty field as
 * blanks, so a row is read by the columns its header starts, not by words.
 * It prints "rdma_rxe module not loaded" above the table when it is not. */
#include <string.h>

#include "collectors/parsers/formats.h"
#include "engine/xalloc.h"

#define RXE_LINE 512 /* @@ columns of a status line read */

/* The header's words, in order (do_status() in rxe_cfg.in). */
static const char *const columns[] = { "Name", "Link",	    "Driver", "Speed",
				       "NMTU", "IPv4_addr", "RDEV",   "RMTU" };
enum { COL_NAME, COL_LINK, COL_DRIVER, COL_SPEED, COL_NMTU, COL_IPV4,
       COL_RDEV, COL_RMTU, COLS };

/* Lines the script prints instead of, or above, its table. */
static const char *const failures[] = { "rdma_rxe module not loaded" };

bool rxe_cfg_header_line(const struct line *ln)
{
	struct line tok[COLS + 1];
	size_t n = line_split(ln, tok, COLS + 1);

	if (n != COLS)
		return false;
	for (size_t i = 0; i < COLS; i++)
		if (!line_eq(&tok[i], columns[i]))
			return false;
	return true;
}

/* The field of row that starts at column offset at (up to the next
 * blank), empty when the row has blanks there. */
static struct line cell(const struct line *row, size_t at)
{
	struct line c = { row->p, 0, row->no };

	if (at >= row->len || row->p[at] == ' ' || row->p[at] == '\t' ||
	    (at > 0 && row->p[at - 1] != ' ' && row->p[at - 1] != '\t'))
		return c;
	c.p = row->p + at;
	while (at + c.len < row->len && c.p[c.len] != ' ' && c.p[c.len] != '\t')
		c.len++;
	return c;
}

/* The offsets the header's words start at. */
static void header_offsets(const struct line *ln, size_t *at)
{
	struct line tok[COLS];

	line_split(ln, tok, COLS);
	for (size_t i = 0; i < COLS; i++)
		at[i] = (size_t)(tok[i].p - ln->p);
}

static void row(struct emit *e, const struct line *ln, const size_t *at)
{
	struct line name = cell(ln, at[COL_NAME]), rdev = cell(ln, at[COL_RDEV]);
	struct line driver = cell(ln, at[COL_DRIVER]), mtu = cell(ln, at[COL_NMTU]);
	struct line link = cell(ln, at[COL_LINK]);
	struct fact *f;

	if (!name.len)
		return;
	f = emit_begin(e, "netdev", ln);
	emit_line(e, f, "name", &name, ln);
	if (rdev.len)
		emit_line(e, f, "hca", &rdev, ln);
	if (driver.len)
		emit_line(e, f, "driver", &driver, ln);
	if (mtu.len && line_digits(&mtu, 5))
		emit_line(e, f, "mtu", &mtu, ln);
	/* ethtool's "Link detected:" as the script copies it */
	if (line_eq(&link, "yes") || line_eq(&link, "no"))
		emit_bool(e, f, "link_detected", line_eq(&link, "yes"), ln);
	emit_end(e, f);
	if (!rdev.len)
		return;
	f = emit_begin(e, "hca", ln);
	emit_line(e, f, "name", &rdev, ln);
	emit_end(e, f);
}

int parse_rxe_cfg(struct emit *e, const char *text, size_t len, const char *arg)
{
	size_t at[COLS] = { 0 };
	bool table = false;
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		/* the columns are the script's: keep the line's own blanks */
		struct line ln = raw, t = line_trim(raw);

		if (ln.len > RXE_LINE)
			ln.len = RXE_LINE;
		for (size_t i = 0; i < ARRAY_SIZE(failures); i++)
			if (line_starts(&t, failures[i]))
				emit_tool_error(e, "rxe_cfg", &t);
		if (rxe_cfg_header_line(&t)) {
			header_offsets(&ln, at);
			table = true;
			continue;
		}
		if (!t.len)
			table = false;
		else if (table)
			row(e, &ln, at);
	}
	return (int)(e->nfacts - before);
}
