/* ofed_info: "-s" prints "MLNX_OFED_LINUX-5.4-3.1.0.0:" (DOCA-OFED:
 * "OFED-internal-24.07-0.6.1:"), the full listing starts with
 * "MLNX_OFED_LINUX-5.4-3.1.0.0 (OFED-5.4-3.1.0):", and "-n" prints the
 * bare "5.4-3.1.0.0". */
#include <ctype.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "collectors/parsers/parse_install.h"
#include "engine/xalloc.h"

static const struct {
	const char *prefix;
	const char *distribution;
} prefixes[] = {
	{ "MLNX_OFED_LINUX-", "MLNX_OFED" },
	{ "OFED-internal-", "DOCA-OFED" },
};

/* Length of a version-release at p ("5.4-3.1.0.0"), or 0. */
static size_t release_len(const char *p, size_t n)
{
	size_t i = 0, dots = 0;
	bool dash = false;

	if (!n || !isdigit((unsigned char)p[0]))
		return 0;
	for (; i < n && i < 64; i++) {
		char c = p[i];

		if (isdigit((unsigned char)c))
			continue;
		if (c == '.' && isdigit((unsigned char)p[i - 1]))
			dots++;
		else if (c == '-' && !dash && isdigit((unsigned char)p[i - 1]))
			dash = true;
		else
			break;
	}
	if (!dash || !dots || !isdigit((unsigned char)p[i - 1]))
		return 0;
	return i;
}

struct ofed_line {
	struct line version;
	const char *distribution; /* NULL for the bare -n form */
};

/* Whether ln is a version line; the bare form must be alone on it. */
static bool ofed_line(const struct line *ln, struct ofed_line *o)
{
	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++) {
		size_t k = strlen(prefixes[i].prefix), n;

		if (!line_starts(ln, prefixes[i].prefix))
			continue;
		n = release_len(ln->p + k, ln->len - k);
		if (!n || (k + n < ln->len && ln->p[k + n] != ':' &&
			   ln->p[k + n] != ' '))
			return false;
		o->version = (struct line){ ln->p + k, n, ln->no };
		o->distribution = prefixes[i].distribution;
		return true;
	}
	if (!ln->len || release_len(ln->p, ln->len) != ln->len)
		return false;
	o->version = *ln;
	o->distribution = NULL;
	return true;
}

int parse_ofed_info(struct emit *e, const char *text, size_t len,
		    const char *arg)
{
	struct ofed_line best = { { 0 }, NULL }, o;
	struct line best_ln = { 0 };
	struct lines it;
	struct line raw;
	struct fact *f;
	unsigned before = e->nfacts;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw);

		/* The named form wins over the bare one, the first over later. */
		if (!ofed_line(&ln, &o) || best.distribution ||
		    (best.version.len && !o.distribution))
			continue;
		best = o;
		best_ln = ln;
	}
	if (!best.version.len)
		return 0;
	f = emit_begin(e, "ofed", &best_ln);
	emit_line(e, f, "version", &best.version, &best_ln);
	if (best.distribution)
		emit_str(e, f, "distribution", best.distribution,
			 strlen(best.distribution), &best_ln);
	emit_end(e, f);
	return (int)(e->nfacts - before);
}

bool ofed_release_line(const struct line *ln)
{
	struct ofed_line o;

	return ofed_line(ln, &o) && o.distribution;
}

bool ofed_version_line(const struct line *ln)
{
	struct ofed_line o;

	return ofed_line(ln, &o);
}

/* mlnx_fw_updater's verdict on a board whose PSID has no image in the
 * installer's set: "The firmware for this device is not distributed
 * inside Mellanox driver: $ibdev (PSID: $psid)" (MLNX_OFED and MLNX_EN's
 * mlnx_fw_updater.pl, $ibdev the PCI address). */
static const char not_distributed[] =
	"The firmware for this device is not distributed inside Mellanox "
	"driver: ";

static void fw_not_distributed(struct emit *e, const struct line *ln)
{
	static const char status[] = "not distributed inside Mellanox driver";
	const size_t k = sizeof(not_distributed) - 1;
	struct line rest = { ln->p + k, ln->len - k, ln->no }, tok[3], psid;
	char pci[32];
	struct fact *f;

	if (line_split(&rest, tok, 3) != 3 || !line_eq(&tok[1], "(PSID:") ||
	    !line_pci_addr(&tok[0], pci, sizeof(pci)))
		return;
	psid = tok[2];
	if (!psid.len || psid.p[psid.len - 1] != ')')
		return;
	psid.len--;
	f = emit_begin(e, "fw_image", ln);
	emit_str(e, f, "pci", pci, strlen(pci), ln);
	emit_line(e, f, "psid", &psid, ln);
	emit_str(e, f, "status", status, sizeof(status) - 1, ln);
	emit_end(e, f);
}

/* What MLNX_OFED's (and MLNX_EN's) installer prints when it ends: the
 * firmware updater's verdicts, then each Mellanox function's lspci line
 * and link ("Device (b3:00.0):", read by the lspci parser); or the
 * failure it stopped at (parse_install.c). */
int parse_ofed_install(struct emit *e, const char *text, size_t len,
		       const char *arg)
{
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw);

		if (line_starts(&ln, not_distributed))
			fw_not_distributed(e, &ln);
	}
	parse_lspci(e, text, len, NULL);
	(void)arg;
	install_scan_ofed(e, text, len);
	return (int)(e->nfacts - before);
}
