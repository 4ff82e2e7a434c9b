/* The text report: plain lines that paste well into a ticket. */
#include <stdlib.h>
#include <string.h>

#include "cli/near_miss.h"
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

static void layers(FILE *out, const struct report_doc *doc)
{
	fputs("Layers, checked bottom-up as in the guide's checklist:\n", out);
	for (int l = 0; l < LAYER_COUNT; l++) {
		const struct layer_view *v = &doc->layers[l];
		const char *st = layer_status_to_str(v->status);
		char upper[16];
		size_t i = 0;

		for (; st[i] && i < sizeof(upper) - 1; i++)
			upper[i] = v->status == LAYER_FAULT ?
					   (char)(st[i] - 'a' + 'A') :
					   st[i];
		upper[i] = '\0';
		fprintf(out, "  %-14s %s%-8s%s ", layer_to_str((enum layer)l),
			term_on(doc->color, status_color(v->status)), upper, term_off(doc->color));
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

static void ids_of(FILE *out, const struct report_doc *doc, const size_t *idx,
		   size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s#%d %s", i ? ", " : "",
			doc->diagnoses[idx[i]].rank, doc->diagnoses[idx[i]].id);
}

void report_text_diagnosis(FILE *out, const struct report_doc *doc, size_t i)
{
	const struct report_diagnosis *dg = &doc->diagnoses[i];

	fprintf(out, "%s#%d %s%s  %s, %s layer, confidence %.2f, score %.2f\n",
		term_on(doc->color, TERM_BOLD), dg->rank, dg->title, term_off(doc->color), dg->id,
		layer_to_str(dg->layer), dg->cf, dg->score);
	fprintf(out, "   %s%s%s: ", term_on(doc->color, term_severity_color(dg->severity)),
		severity_to_str(dg->severity), term_off(doc->color));
	term_puts(out, dg->message);
	fputc('\n', out);
	if (dg->nremediation) {
		fputs("   Remediation:\n", out);
		for (size_t k = 0; k < dg->nremediation; k++) {
			fputs("     - ", out);
			term_puts(out, dg->remediation[k]);
			fputc('\n', out);
		}
	}
	if (dg->nevidence) {
		fputs("   Evidence:\n", out);
		for (size_t k = 0; k < dg->nevidence; k++) {
			const struct report_evidence *p = &dg->evidence[k];

			fputs("     ", out);
			term_puts(out, p->source);
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
		ids_of(out, doc, dg->explains, dg->nexplains);
		fputc('\n', out);
	}
	if (dg->nexplained_by) {
		fputs("   Explained by: ", out);
		ids_of(out, doc, dg->explained_by, dg->nexplained_by);
		fputc('\n', out);
	}
	if (!doc->explain)
		return;
	fputs("   Reasoning:\n", out);
	for (size_t k = 0; k < dg->nwhy; k++)
		explain_steps(out, dg->why[k], 5);
}

static void collectors(FILE *out, const struct report_doc *doc)
{
	fputs("Evidence read:\n", out);
	for (size_t i = 0; i < doc->ncollectors; i++) {
		const struct report_collector *c = &doc->collectors[i];

		fprintf(out, "  %-18s %s%-9s%s ", c->name,
			term_on(doc->color, strcmp(c->status, "ok") ? TERM_YELLOW :
							  TERM_NONE),
			c->status, term_off(doc->color));
		term_puts(out, c->detail ? c->detail : "");
		fputc('\n', out);
	}
	if (!doc->ncollectors)
		fputs("  nothing\n", out);
}

/* Whether a rule waits only for answers, not for evidence. */
static bool waits_for_answers(const struct skipped *s)
{
	return s->nquestions && !s->nkinds;
}

static void skipped(FILE *out, const struct report_doc *doc)
{
	const struct skipped *sk = doc->skipped;
	bool explain = doc->explain;
	size_t answers = 0, evidence;

	for (size_t i = 0; i < doc->nskipped; i++)
		answers += waits_for_answers(&sk[i]);
	evidence = doc->nskipped - answers;
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
	for (size_t i = 0; explain && i < doc->nskipped; i++) {
		fprintf(out, "  %s: needs ", sk[i].id);
		for (size_t k = 0; k < sk[i].nmissing; k++) {
			fputs(k ? "; " : "", out);
			term_puts(out, sk[i].missing[k]);
		}
		fputc('\n', out);
	}
}

static void near_fact_text(FILE *out, const struct near_miss *nm,
			   const struct near_fact *nf)
{
	fputs("      ", out);
	term_puts(out, nf->label);
	if (nm->status == NEAR_MISS_MISSING) {
		fprintf(out, " (%zu of %zu tests hold", nf->held, nf->tests);
		for (size_t k = 0; k < nf->nfails; k++) {
			fputs(k ? ", " : "; fails ", out);
			term_puts(out, nf->fails[k]);
		}
		fputc(')', out);
	}
	if (nf->source) {
		fputs("  [", out);
		term_puts(out, nf->source);
		if (nf->line)
			fprintf(out, ":%u", nf->line);
		fputc(']', out);
	}
	fputs("\n        ", out);
	term_puts(out, nf->fields);
	fputc('\n', out);
}

/* What a near miss lacked: the condition, and the facts nearest it. */
static void near_condition_text(FILE *out, const struct near_miss *nm)
{
	const struct rule *r = nm->rule;

	if (nm->status == NEAR_MISS_BLOCKED)
		fprintf(out, "    its condition at %s:%d is contradicted: ",
			r->file, nm->condition_line);
	else
		fprintf(out, "    no fact met its condition at %s:%d: ",
			r->file, nm->condition_line);
	term_puts(out, nm->condition);
	if (nm->status == NEAR_MISS_BLOCKED)
		fputs(", by\n", out);
	else if (!nm->nfacts)
		fprintf(out, "; there are no %s facts\n", nm->kind);
	else
		fprintf(out, "; the nearest of the %zu %s fact%s:\n",
			nm->nfacts, nm->kind, nm->nfacts == 1 ? "" : "s");
	for (size_t k = 0; k < nm->nnearest; k++)
		near_fact_text(out, nm, &nm->nearest[k]);
}

static void near_misses(FILE *out, const struct report_doc *doc)
{
	fputs("Rules nearest to firing (--why-not):\n", out);
	if (!doc->nnear)
		fputs("  none: no rule at warning or above met a condition without firing\n",
		      out);
	for (size_t i = 0; i < doc->nnear; i++) {
		const struct near_miss *nm = &doc->near[i];
		const struct rule *r = nm->rule;

		fprintf(out, "  %s (%s, %s; %s:%d): ", r->id,
			layer_to_str(r->layer), severity_to_str(r->severity),
			r->file, r->line);
		if (nm->status == NEAR_MISS_FIRED) {
			fputs("fired\n", out);
			continue;
		}
		if (nm->status == NEAR_MISS_HOLDS) {
			fputs("every condition holds; it waits for an answer ('rdmadoctor guide' asks; or --answer Q=V)\n",
			      out);
			continue;
		}
		fprintf(out, "%zu of %zu condition%s hold", nm->matched,
			nm->conditions, nm->conditions == 1 ? "" : "s");
		if (nm->evidence_conditions != nm->conditions)
			fprintf(out, " (%zu of %zu on the evidence)",
				nm->evidence_matched, nm->evidence_conditions);
		fputc('\n', out);
		near_condition_text(out, nm);
	}
}

/* No layer could be judged: say so, and how to get the evidence, rather
 * than report a healthy host. */
static void insufficient(FILE *out, const struct report_doc *doc)
{
	fprintf(out,
		"%sInsufficient evidence:%s no layer could be judged, so this is not a clean bill of health.\n"
		"  Give rdmadoctor the host's RDMA evidence: run 'rdmadoctor collect' on the host and\n"
		"  analyse the bundle it writes, or a sosreport, or the outputs of ibstat, ibv_devinfo -v,\n"
		"  lsmod, ethtool -i IFACE, lspci -vv and dmesg (\"Evidence read\" below lists what is missing).\n\n",
		term_on(doc->color, TERM_YELLOW), term_off(doc->color));
}

void report_text(FILE *out, const struct report_doc *doc)
{
	fprintf(out, "rdmadoctor %s: %s ", RD_VERSION, doc->command);
	if (strcmp(doc->kind, "live"))
		term_puts(out, doc->path);
	else
		fputs("of this host", out);
	fprintf(out, " (%s", doc->kind);
	if (doc->hostname[0]) {
		fputs(", host ", out);
		term_puts(out, doc->hostname);
	}
	fputs(")\n\n", out);
	layers(out, doc);
	fputc('\n', out);
	if (doc->insufficient)
		insufficient(out, doc);
	if (!doc->ndiagnoses) {
		if (!doc->insufficient)
			fprintf(out,
				"%sNo diagnosis:%s every rule that could be checked passed.\n",
				term_on(doc->color, TERM_GREEN), term_off(doc->color));
	} else {
		fprintf(out, "Diagnoses, most likely root cause first:\n\n");
		for (size_t i = 0; i < doc->ndiagnoses; i++) {
			report_text_diagnosis(out, doc, i);
			fputc('\n', out);
		}
	}
	if (doc->nskipped)
		skipped(out, doc);
	if (doc->why_not) {
		fputc('\n', out);
		near_misses(out, doc);
	}
	fputc('\n', out);
	collectors(out, doc);
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
