/* The text report: plain lines that paste well into a ticket. */
#include <stdlib.h>
#include <string.h>

#include "cli/report.h"
#include "cli/term.h"
#include "engine/explain.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"

static enum term_color status_color(enum layer_status s)
{
	static const enum term_color c[] = {
		[LAYER_OK] = TERM_GREEN,
		[LAYER_WARNING] = TERM_YELLOW,
		[LAYER_FAULT] = TERM_RED,
		[LAYER_UNKNOWN] = TERM_DIM,
	};

	return c[s];
}

static void layers(FILE *out, const struct analysis *a)
{
	fputs("Layers, checked bottom-up as in the guide's checklist:\n", out);
	for (int l = 0; l < LAYER_COUNT; l++) {
		const struct layer_view *v = &a->layers[l];
		const char *st = layer_status_to_str(v->status);
		char upper[16];
		size_t i = 0;

		for (; st[i] && i < sizeof(upper) - 1; i++)
			upper[i] = v->status == LAYER_FAULT ?
					   (char)(st[i] - 'a' + 'A') :
					   st[i];
		upper[i] = '\0';
		fprintf(out, "  %-14s %s%-8s%s ", layer_to_str((enum layer)l),
			term_on(status_color(v->status)), upper, term_off());
		term_puts(out, v->summary ? v->summary : "");
		fputc('\n', out);
	}
}

static void explain_steps(FILE *out, const struct explain *x, int indent)
{
	fprintf(out, "%*srule %s (%s:%d), confidence %.2f\n", indent, "",
		x->rule->id, x->rule->file, x->rule->line, x->firing->cf);
	for (size_t i = 0; i < x->nsteps; i++) {
		const struct explain_step *s = &x->steps[i];

		fprintf(out, "%*s- ", indent + 2, "");
		term_puts(out, s->label);
		if (s->where) {
			fputs("  [", out);
			term_puts(out, s->where);
			fputc(']', out);
		}
		fputc('\n', out);
		for (size_t k = 0; k < s->ncomparisons; k++) {
			fprintf(out, "%*s", indent + 6, "");
			term_puts(out, s->comparisons[k]);
			fputc('\n', out);
		}
		if (s->because) {
			fprintf(out, "%*sderived by:\n", indent + 6, "");
			explain_steps(out, s->because, indent + 8);
		}
	}
}

static void ids_of(FILE *out, const struct analysis *a, const size_t *idx,
		   size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s#%d %s", i ? ", " : "",
			a->dl->items[idx[i]]->rank, a->dl->items[idx[i]]->id);
}

void report_text_diagnosis(FILE *out, const struct analysis *a,
			   const struct diagnosis *dg, bool explain)
{
	fprintf(out, "%s#%d %s%s  %s, %s layer, confidence %.2f, score %.2f\n",
		term_on(TERM_BOLD), dg->rank, dg->rule->title, term_off(),
		dg->id, layer_to_str(dg->layer), dg->cf, dg->score);
	fprintf(out, "   %s%s%s: ", term_on(term_severity_color(dg->severity)),
		severity_to_str(dg->severity), term_off());
	term_puts(out, dg->message);
	fputc('\n', out);
	if (dg->nremediation) {
		fputs("   Remediation:\n", out);
		for (size_t i = 0; i < dg->nremediation; i++) {
			fputs("     - ", out);
			term_puts(out, dg->remediation[i]);
			fputc('\n', out);
		}
	}
	if (dg->nevidence) {
		fputs("   Evidence:\n", out);
		for (size_t i = 0; i < dg->nevidence; i++) {
			const struct prov *p = &dg->evidence[i];

			fputs("     ", out);
			term_puts(out, fact_base_source_name(a->fb, p->src));
			if (p->line)
				fprintf(out, ":%u", p->line);
			if (p->text) {
				fputs("  ", out);
				term_puts(out, p->text);
			}
			fputc('\n', out);
		}
	}
	if (dg->nexplains) {
		fputs("   Explains: ", out);
		ids_of(out, a, dg->explains, dg->nexplains);
		fputc('\n', out);
	}
	if (dg->nexplained_by) {
		fputs("   Explained by: ", out);
		ids_of(out, a, dg->explained_by, dg->nexplained_by);
		fputc('\n', out);
	}
	if (!explain)
		return;
	fputs("   Reasoning:\n", out);
	for (size_t i = 0; i < dg->nfirings; i++) {
		const struct firing *fi =
			engine_firing(a->engine, dg->firings[i]);
		struct explain *x = explain_firing(a->engine, a->fb, fi);

		explain_steps(out, x, 5);
		explain_free(x);
	}
}

static void collectors(FILE *out, const struct analysis *a)
{
	uint32_t kind = sym_intern_cstr("collector");
	size_t n, shown = 0;
	const uint32_t *ids = fact_base_of_kind(a->fb, kind, &n);

	fputs("Evidence read:\n", out);
	for (size_t i = 0; i < n; i++) {
		const struct fact *f = fact_base_get(a->fb, ids[i]);
		const char *st = fact_text(f, "status");

		fprintf(out, "  %-18s %s%-9s%s ", fact_text(f, "name"),
			term_on(strcmp(st, "ok") ? TERM_YELLOW : TERM_NONE), st,
			term_off());
		term_puts(out,
			  fact_text(f, "detail") ? fact_text(f, "detail") : "");
		fputc('\n', out);
		shown++;
	}
	if (!shown)
		fputs("  nothing\n", out);
}

/* Whether a rule waits only for answers, not for evidence. */
static bool waits_for_answers(const struct skipped *s)
{
	for (size_t k = 0; k < s->nmissing; k++)
		if (strncmp(s->missing[k], "answer to question ", 19))
			return false;
	return true;
}

static void skipped(FILE *out, const struct analysis *a, bool explain)
{
	size_t answers = 0, evidence;

	for (size_t i = 0; i < a->nskipped; i++)
		answers += waits_for_answers(&a->skipped[i]);
	evidence = a->nskipped - answers;
	if (evidence)
		fprintf(out,
			"%zu rule%s could not be checked for lack of evidence%s\n",
			evidence, evidence == 1 ? "" : "s",
			explain ? "." : " (--explain lists them).");
	if (answers)
		fprintf(out,
			"%zu rule%s wait%s for answers ('rdmadoctor guide' asks; or --answer Q=V).\n",
			answers, answers == 1 ? "" : "s",
			answers == 1 ? "s" : "");
	for (size_t i = 0; explain && i < a->nskipped; i++) {
		fprintf(out, "  %s: needs ", a->skipped[i].id);
		for (size_t k = 0; k < a->skipped[i].nmissing; k++) {
			fputs(k ? "; " : "", out);
			term_puts(out, a->skipped[i].missing[k]);
		}
		fputc('\n', out);
	}
}

/* No layer could be judged: say so, and how to get the evidence, rather
 * than report a healthy host. */
static void insufficient(FILE *out)
{
	fprintf(out,
		"%sInsufficient evidence:%s no layer could be judged, so this is not a clean bill of health.\n"
		"  Give rdmadoctor the host's RDMA evidence: run 'rdmadoctor collect' on the host and\n"
		"  analyse the bundle it writes, or a sosreport, or the outputs of ibstat, ibv_devinfo -v,\n"
		"  lsmod, ethtool -i IFACE, lspci -vv and dmesg (\"Evidence read\" below lists what is missing).\n\n",
		term_on(TERM_YELLOW), term_off());
}

void report_text(FILE *out, const struct analysis *a,
		 const struct report_opts *o)
{
	fprintf(out, "rdmadoctor %s: %s ", RD_VERSION, o->command);
	if (strcmp(a->source_kind, "live"))
		term_puts(out, a->source_path);
	else
		fputs("of this host", out);
	fprintf(out, " (%s", a->source_kind);
	if (a->hostname && a->hostname[0]) {
		fputs(", host ", out);
		term_puts(out, a->hostname);
	}
	fputs(")\n\n", out);
	layers(out, a);
	fputc('\n', out);
	if (analysis_insufficient(a))
		insufficient(out);
	if (!a->dl || !a->dl->n) {
		if (!analysis_insufficient(a))
			fprintf(out,
				"%sNo diagnosis:%s every rule that could be checked passed.\n",
				term_on(TERM_GREEN), term_off());
	} else {
		fprintf(out, "Diagnoses, most likely root cause first:\n\n");
		for (size_t i = 0; i < a->dl->n; i++) {
			report_text_diagnosis(out, a, a->dl->items[i],
					      o->explain);
			fputc('\n', out);
		}
	}
	if (a->nskipped)
		skipped(out, a, o->explain);
	fputc('\n', out);
	collectors(out, a);
}

void report_facts_text(FILE *out, const struct fact_base *fb)
{
	for (uint32_t id = 1; id <= fact_base_count(fb); id++) {
		const struct fact *f = fact_base_get(fb, id);
		struct strbuf sb = STRBUF_INIT;

		sb_printf(&sb, "#%u %s", f->id, sym_str(f->kind));
		for (uint32_t i = 0; i < f->nfields; i++) {
			sb_printf(&sb, " %s=", sym_str(f->fields[i].name));
			value_format(&f->fields[i].v, &sb);
		}
		if (f->prov.src) {
			sb_printf(&sb, "  [%s",
				  fact_base_source_name(fb, f->prov.src));
			if (f->prov.line)
				sb_printf(&sb, ":%u", f->prov.line);
			sb_putc(&sb, ']');
		}
		term_puts(out, sb_str(&sb));
		fputc('\n', out);
		sb_release(&sb);
	}
}
