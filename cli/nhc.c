/* NHC's one-line failure format. */
#include "cli/nhc.h"

#include <string.h>

#include "engine/strbuf.h"

/* NHC's die() writes "ERROR:  $NAME:  $LEADER $MESSAGE" with LEADER
 * "Health check failed: ", and checks start their message with their own
 * name and two spaces (mej/nhc: nhc, scripts/lbnl_*.nhc). */
#define NHC_PREFIX "ERROR:  nhc:  Health check failed:  rdmadoctor:  "

/* Adds s on one line: newlines and other control characters become
 * spaces, since NHC and Slurm's node reason keep a single line. */
static void put_line(struct strbuf *sb, const char *s)
{
	for (; *s; s++)
		sb_putc(sb, (unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s);
}

static void emit(FILE *out, struct strbuf *sb)
{
	fprintf(out, "%s%s\n", NHC_PREFIX, sb_str(sb));
	fflush(out);
	sb_release(sb);
}

int nhc_report(FILE *out, const struct analysis *a)
{
	const struct diagnosis *first = NULL;
	struct strbuf sb = STRBUF_INIT;
	size_t faults = 0;

	/* the line names the root cause: the first fault that no other
	 * diagnosis explains (a cause is as severe as what it explains) */
	for (size_t i = 0; a->dl && i < a->dl->n; i++) {
		const struct diagnosis *dg = a->dl->items[i];

		if (dg->severity < SEVERITY_ERROR)
			continue;
		faults++;
		if (!first || (first->nexplained_by && !dg->nexplained_by))
			first = dg;
	}
	if (!faults)
		return EXIT_HEALTHY;
	sb_printf(&sb, "%s layer: ", layer_to_str(first->layer));
	put_line(&sb, first->message);
	sb_puts(&sb, " (");
	put_line(&sb, first->id);
	if (faults > 1)
		sb_printf(&sb, "; %zu more fault%s", faults - 1,
			  faults > 2 ? "s" : "");
	sb_putc(&sb, ')');
	emit(out, &sb);
	return EXIT_DIAGNOSED;
}

int nhc_report_error(FILE *out, const struct diag *d, int rc)
{
	struct strbuf sb = STRBUF_INIT;

	sb_puts(&sb, rc == EXIT_RULES ? "rules failed: " :
					"cannot check this host: ");
	for (size_t i = 0; i < diag_count(d); i++) {
		const struct diag_entry *e = diag_get(d, i);

		if (e->level != DIAG_ERROR)
			continue;
		if (e->file) {
			put_line(&sb, e->file);
			sb_puts(&sb, ": ");
		}
		put_line(&sb, e->message);
		emit(out, &sb);
		return rc;
	}
	sb_puts(&sb, "'rdmadoctor check' says why");
	emit(out, &sb);
	return rc;
}
