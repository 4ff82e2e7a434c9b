/* rdmadoctor guide: the guided session on a terminal.  It gathers the
 * evidence with a live progress line, asks the symptom first (it steers
 * the checks), then walks the five layers bottom-up as the field guide's
 * checklist does: for each layer what the evidence shows, the checks that
 * found something, the passing checks folded into one line and those
 * without evidence as "n/a", and the verdict.  It asks a question only
 * when a rule that otherwise matches waits for its answer, and never the
 * same one twice.  Then it ranks the causes with their remediation, says
 * what it could not check and the commands (or 'rdmadoctor collect') that
 * get that evidence, shows any cause's evidence and reasoning, re-checks
 * after a fix and says what changed, and saves the evidence with the
 * answers for a ticket.  '?' explains every prompt. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "cli/answers.h"
#include "cli/commands.h"
#include "analysis/layers.h"
#include "cli/recheck.h"
#include "cli/redact.h"
#include "cli/report.h"
#include "cli/savefile.h"
#include "cli/term.h"
#include "cli/tty.h"
#include "collectors/collect.h"
#include "engine/fill.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/xalloc.h"

/* Evidence changes listed after a re-check before "and N more". */
#define RECHECK_EVIDENCE_LINES 8 /* @@ */
/* Column where the status of a check line starts. */
#define STATUS_COLUMN 66 /* @@ */

/* Checks that lacked the same input. */
struct no_data {
	char *missing;
	size_t n;
};

struct session {
	const struct options *o;
	struct tty *tty;
	struct diag *d;
	struct analysis_opts base; /* what to collect from */
	struct answers answers; /* given beforehand, then in the session */
	struct analysis *a;
	/* a's report document (with the reasoning), made when first shown
	 * and dropped whenever a changes */
	struct report_doc *doc;
	char **asked; /* question ids asked in this session */
	size_t nasked;
	bool no_input; /* input ended: ask nothing more */
	bool quit;
	char *save_path; /* --save, or chosen with 's' */
	struct redactor *redact; /* --redact: what the terminal and the
				  * saved file show masked */
	/* the checks of the current layer that had no data, counted per
	 * missing input and told once at the end of the layer, so that a
	 * layer with many checks still fits the screen */
	struct no_data *no_data;
	size_t nno_data;
	size_t npassed; /* checks of the current layer that passed */
};

/* ---- plumbing ---- */

/* The report document of the current analysis. */
static const struct report_doc *document(struct session *s)
{
	const struct report_opts ro = { true, "guide", s->o->colored, false,
					NULL, 0 };

	if (!s->doc)
		s->doc = report_doc_new(s->a, &ro);
	return s->doc;
}

/* The analysis changed (an answer, a re-check): its document is stale. */
static void analysis_changed(struct session *s)
{
	report_doc_free(s->doc);
	s->doc = NULL;
}

/* Shows what went to the diagnostics sink, paged like everything else. */
static void show_diag(struct session *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (!diag_count(s->d))
		return;
	f = open_memstream(&text, &len);
	if (f) {
		diag_print(s->d, f, "rdmadoctor");
		fclose(f);
		tty_puts(s->tty, text);
		free(text);
	}
	diag_clear(s->d);
}

/* Collects and runs the rules with the answers so far.  Returns 0 with
 * *out set, or an exit code (reported). */
static int analyze(struct session *s, struct analysis **out)
{
	struct analysis_opts ao = s->base;
	int rc;

	answers_to_opts(&s->answers, &ao);
	ao.progress_fn = tty_progress;
	ao.progress_arg = s->tty;
	tty_progress_begin(s->tty);
	rc = analysis_run(&ao, s->d, out);
	tty_progress_end(s->tty);
	if (*out && s->redact) {
		/* names the evidence holds are masked from here on */
		redact_add(s->redact, REDACT_HOST, (*out)->hostname);
		redact_add_facts(s->redact, (*out)->fb);
	}
	show_diag(s);
	if (*out && rc == EXIT_RULES)
		return 0; /* a run-time failure: show what was found */
	return rc;
}

static bool was_asked(const struct session *s, const char *id)
{
	for (size_t i = 0; i < s->nasked; i++)
		if (!strcmp(s->asked[i], id))
			return true;
	return false;
}

static const char *severity_word(enum severity sev)
{
	static const char *const words[] = { "info", "warning", "FAULT",
					     "CRITICAL" };

	return words[sev];
}

/* ---- questions ---- */

/* Reads the answer to q; returns the chosen value, or NULL when input
 * ended or the user quit. */
static const char *read_choice(struct session *s, const struct question *q,
			       const struct rule *r)
{
	char prompt[96], line[128];
	int def = 0;

	for (size_t i = 0; i < q->nchoices; i++)
		if (q->def && !strcmp(q->choices[i].value, q->def))
			def = (int)i + 1;
	if (def)
		snprintf(prompt, sizeof(prompt),
			 "  Choice [1-%zu, Enter = %d, ? = why, q = quit]: ",
			 q->nchoices, def);
	else
		snprintf(prompt, sizeof(prompt),
			 "  Choice [1-%zu, ? = why, q = quit]: ", q->nchoices);
	for (;;) {
		int n = tty_read(s->tty, prompt, line, sizeof(line));
		char *end;
		long k;

		if (n < 0) {
			s->no_input = true;
			return NULL;
		}
		if (!n && def)
			return q->choices[def - 1].value;
		if (!strcmp(line, "q") || !strcmp(line, "quit")) {
			s->quit = true;
			return NULL;
		}
		if (!strcmp(line, "?")) {
			tty_printf(s->tty, "  %s\n",
				   q->why ? q->why : "No reason was given.");
			if (r)
				tty_printf(s->tty,
					   "  (asked for the check \"%s\")\n",
					   r->title);
			continue;
		}
		k = strtol(line, &end, 10);
		if (n && !*end && k >= 1 && (size_t)k <= q->nchoices)
			return q->choices[k - 1].value;
		for (size_t i = 0; i < q->nchoices; i++)
			if (!strcasecmp(line, q->choices[i].value))
				return q->choices[i].value;
		tty_printf(
			s->tty,
			"  '%s' is not one of the choices; type a number from 1 to %zu.\n",
			line, q->nchoices);
	}
}

/* Asks q, which rule r waits for (NULL: asked before the walk), and adds
 * the answer. */
static void ask(struct session *s, const struct question *q,
		const struct rule *r)
{
	const char *value;
	size_t cap = s->nasked;
	int err;

	xgrow(&s->asked, &cap, s->nasked + 1, sizeof(*s->asked));
	s->asked[s->nasked++] = xstrdup(q->id);
	/* a question is never skipped: a 'q' at the pager ends here */
	tty_end_skip(s->tty);
	tty_keep(s->tty, (int)q->nchoices + 4);
	tty_end_skip(s->tty);
	if (r)
		tty_printf(s->tty,
			   "\n  Question %zu, for the check \"%s\":\n",
			   s->nasked, r->title);
	else
		tty_printf(s->tty, "\n  Question %zu:\n", s->nasked);
	tty_printf(s->tty, "  %s%s%s\n", term_on(s->o->colored, TERM_BOLD), q->prompt,
		   term_off(s->o->colored));
	for (size_t i = 0; i < q->nchoices; i++)
		tty_printf(s->tty, "    %2zu  %s%s\n", i + 1,
			   q->choices[i].label,
			   q->def && !strcmp(q->def, q->choices[i].value) ?
				   " (default)" :
				   "");
	value = read_choice(s, q, r);
	if (!value)
		return;
	answers_set(&s->answers, q->id, value, NULL);
	/* a rule chain that runs away now is shown, and the exit code says
	 * so, as for check */
	err = analysis_answer(s->a, q->id, value, NULL);
	if (err && !s->a->engine_rc)
		s->a->engine_rc = err;
	analysis_refresh(s->a);
	analysis_changed(s);
	show_diag(s);
}

/* Asks, one at a time, the questions rule r waits for.  Returns whether
 * anything was asked. */
static bool ask_waiting(struct session *s, const struct rule *r)
{
	bool any = false;

	while (!s->no_input && !s->quit) {
		const struct question *q = NULL;
		char **ids;
		size_t n;

		engine_waits_for_answers(s->a->engine, r, &ids, &n);
		for (size_t i = 0; i < n; i++) {
			if (!q && !was_asked(s, ids[i]))
				q = rule_set_question(s->a->rs, ids[i]);
			free(ids[i]);
		}
		free(ids);
		if (!q)
			break;
		ask(s, q, r);
		any = true;
	}
	return any;
}

/* ---- the layer walk ---- */

static bool skipped_for_evidence(const struct analysis *a, const char *rule_id,
				 const char **missing)
{
	for (size_t i = 0; i < a->nskipped; i++) {
		if (strcmp(a->skipped[i].id, rule_id))
			continue;
		/* the words of the first kind missing (the answers come
		 * first in missing) */
		if (a->skipped[i].nkinds) {
			*missing = a->skipped[i].missing[a->skipped[i].nquestions];
			return true;
		}
	}
	return false;
}

static void count_no_data(struct session *s, const char *missing)
{
	size_t cap = s->nno_data;

	for (size_t i = 0; i < s->nno_data; i++) {
		if (!strcmp(s->no_data[i].missing, missing)) {
			s->no_data[i].n++;
			return;
		}
	}
	xgrow(&s->no_data, &cap, s->nno_data + 1, sizeof(*s->no_data));
	s->no_data[s->nno_data].missing = xstrdup(missing);
	s->no_data[s->nno_data++].n = 1;
}

/* "  Title ........ status", the status in a column of its own. */
static void check_line(struct session *s, const char *title, enum term_color c,
		       const char *word)
{
	int cols = 0, dots;

	for (const char *p = title; *p; p++)
		cols += ((unsigned char)*p & 0xc0) != 0x80;
	dots = STATUS_COLUMN - 2 - cols - 2;
	if (dots < 3)
		dots = 3;
	tty_printf(
		s->tty, "  %s %.*s %s%s%s\n", title, dots,
		"................................................................................",
		term_on(s->o->colored, c), word, term_off(s->o->colored));
}

/* Adds to sb, once each, the kinds of facts a "missing" text names:
 * "log_event facts (from ...); log facts (from ...)". */
static void add_kinds(struct strbuf *sb, const char *missing)
{
	for (const char *p = missing; p;) {
		size_t len = strcspn(p, " ");
		const char *next = strstr(p, "); ");
		bool seen = false;

		for (const char *q = sb_str(sb); q && *q;) {
			size_t ql = strcspn(q, ",");

			seen |= ql == len && !strncmp(q, p, len);
			q += ql;
			q += *q ? 2 : 0;
		}
		if (!seen && len)
			sb_printf(sb, "%s%.*s", sb->len ? ", " : "", (int)len, p);
		p = next ? next + 3 : NULL;
	}
}

/* "  N checks passed ... ok", then "  N checks without evidence ... n/a"
 * with the kinds of evidence they need; the end of the session says how
 * to get it. */
static void show_folded(struct session *s)
{
	struct strbuf kinds = STRBUF_INIT;
	size_t na = 0;
	char title[64];

	if (s->npassed) {
		snprintf(title, sizeof(title), "%zu check%s passed",
			 s->npassed, s->npassed == 1 ? "" : "s");
		check_line(s, title, TERM_GREEN, "ok");
	}
	s->npassed = 0;
	for (size_t i = 0; i < s->nno_data; i++) {
		na += s->no_data[i].n;
		add_kinds(&kinds, s->no_data[i].missing);
		free(s->no_data[i].missing);
	}
	if (na) {
		snprintf(title, sizeof(title), "%zu check%s without evidence",
			 na, na == 1 ? "" : "s");
		check_line(s, title, TERM_DIM, "n/a");
		tty_printf(s->tty, "    %sneed %s facts%s\n", term_on(s->o->colored, TERM_DIM),
			   sb_str(&kinds), term_off(s->o->colored));
	}
	sb_release(&kinds);
	free(s->no_data);
	s->no_data = NULL;
	s->nno_data = 0;
}

/* The outcome of one check: the diagnosis id of rule r in its layer. */
static void show_check(struct session *s, const struct rule *r)
{
	const struct analysis *a = s->a;
	const char *missing = NULL;
	bool fired = false, waiting = false, all_skipped = true;

	for (size_t i = 0; a->dl && i < a->dl->n; i++) {
		const struct diagnosis *dg = a->dl->items[i];

		if (strcmp(dg->id, r->diag_id))
			continue;
		if (!fired)
			check_line(s, dg->rule->title,
				   term_severity_color(dg->severity),
				   severity_word(dg->severity));
		tty_printf(s->tty, "    %s\n", dg->message);
		fired = true;
	}
	if (fired)
		return;
	for (size_t i = 0; i < rule_set_count(a->rs); i++) {
		const struct rule *o = rule_set_at(a->rs, i);
		const char *m = NULL;
		char **ids;
		size_t n;

		if (o->layer != r->layer || !o->diagnoses ||
		    strcmp(o->diag_id, r->diag_id))
			continue;
		if (engine_waits_for_answers(a->engine, o, &ids, &n))
			waiting = true;
		for (size_t k = 0; k < n; k++)
			free(ids[k]);
		free(ids);
		if (skipped_for_evidence(a, o->id, &m))
			missing = missing ? missing : m;
		else
			all_skipped = false;
	}
	if (waiting) {
		check_line(s, r->title, TERM_DIM, "not asked");
	} else if (all_skipped && missing) {
		count_no_data(s, missing);
	} else {
		s->npassed++; /* folded into one line at the end of the layer */
	}
}

static bool first_of_check(const struct rule_set *rs, size_t at)
{
	const struct rule *r = rule_set_at(rs, at);

	for (size_t i = 0; i < at; i++) {
		const struct rule *o = rule_set_at(rs, i);

		if (o->diagnoses && o->layer == r->layer &&
		    !strcmp(o->diag_id, r->diag_id))
			return false;
	}
	return true;
}

/* Whether any rule of the check of rule r may ask a question. */
static bool check_asks(const struct rule_set *rs, const struct rule *r)
{
	for (size_t i = 0; i < rule_set_count(rs); i++) {
		const struct rule *o = rule_set_at(rs, i);

		if (o->diagnoses && o->layer == r->layer &&
		    !strcmp(o->diag_id, r->diag_id) && o->nasks)
			return true;
	}
	return false;
}

/* Runs the check of rule r: its questions, then its outcome. */
static void run_check(struct session *s, const struct rule *r)
{
	const struct rule_set *rs = s->a->rs;
	bool asked = false;

	for (size_t i = 0; i < rule_set_count(rs); i++) {
		const struct rule *o = rule_set_at(rs, i);

		if (o->diagnoses && o->layer == r->layer &&
		    !strcmp(o->diag_id, r->diag_id))
			asked |= ask_waiting(s, o);
	}
	if (asked)
		tty_puts(s->tty, "\n");
	if (!s->quit)
		show_check(s, r);
}

static void verdict(struct session *s, enum layer l)
{
	const struct layer_view *v = &s->a->layers[l];
	static const enum term_color colors[] = {
		[LAYER_OK] = TERM_GREEN,
		[LAYER_WARNING] = TERM_YELLOW,
		[LAYER_FAULT] = TERM_RED,
		[LAYER_UNKNOWN] = TERM_DIM,
	};

	tty_printf(s->tty, "  Verdict: %s%s%s%s\n\n",
		   term_on(s->o->colored, colors[v->status]),
		   v->status == LAYER_FAULT ? "FAULT" :
					      layer_status_to_str(v->status),
		   term_off(s->o->colored),
		   v->status == LAYER_UNKNOWN ? ", not checked" : "");
}

static void walk_layer(struct session *s, enum layer l)
{
	const struct rule_set *rs = s->a->rs;
	char *found = layers_evidence(s->a, l);

	tty_keep(s->tty, 4);
	tty_printf(s->tty, "%s[%d/%d] %s%s:  %s\n", term_on(s->o->colored, TERM_BOLD), l + 1,
		   LAYER_COUNT, layer_to_str(l), term_off(s->o->colored), layer_doc(l));
	tty_printf(s->tty, "  Found: %s\n",
		   found ? found : "nothing for this layer");
	free(found);
	/* the checks the machine answers alone first, then those that may
	 * ask; rules that only derive facts ask without a line of their own */
	for (int pass = 0; pass < 3 && !s->quit; pass++) {
		for (size_t i = 0; i < rule_set_count(rs) && !s->quit; i++) {
			const struct rule *r = rule_set_at(rs, i);

			if (r->layer != l)
				continue;
			if (pass == 2 && !r->diagnoses)
				ask_waiting(s, r);
			if (pass == 2 || !r->diagnoses ||
			    !first_of_check(rs, i) ||
			    check_asks(rs, r) != (pass == 1))
				continue;
			run_check(s, r);
		}
	}
	show_folded(s);
	if (!s->quit)
		verdict(s, l);
}

/* Questions that became relevant after their layer was shown. */
static void sweep(struct session *s, const char *heading)
{
	bool shown = false;

	for (int l = 0; l < LAYER_COUNT && !s->quit; l++) {
		for (size_t i = 0; i < rule_set_count(s->a->rs); i++) {
			const struct rule *r = rule_set_at(s->a->rs, i);
			char **ids;
			size_t n;
			bool waits;

			if (r->layer != (enum layer)l)
				continue;
			waits = engine_waits_for_answers(s->a->engine, r, &ids,
							 &n);
			for (size_t k = 0; k < n; k++) {
				waits &= !was_asked(s, ids[k]);
				free(ids[k]);
			}
			free(ids);
			if (!waits || s->no_input || s->quit)
				continue;
			if (!shown)
				tty_printf(s->tty, "%s\n", heading);
			shown = true;
			ask_waiting(s, r);
		}
	}
}

/* Asks the questions marked 'first' (the symptom) before the walk, as a
 * colleague would: the answer says which checks can explain it.  Not one
 * answered beforehand. */
static void ask_first(struct session *s)
{
	for (size_t i = 0; i < rule_set_question_count(s->a->rs); i++) {
		const struct question *q = rule_set_question_at(s->a->rs, i);

		if (!q->first || answers_get(&s->answers, q->id) ||
		    was_asked(s, q->id))
			continue;
		ask(s, q, NULL);
		tty_puts(s->tty, "\n");
	}
}

/* What the session could not check, and how to get that evidence: the
 * layers no check could judge, the sources of evidence it could not read
 * with the command that reads each (placeholders filled from the facts),
 * and 'rdmadoctor collect', which records them all on the host. */
static void not_checked(struct session *s)
{
	const struct analysis *a = s->a;
	uint32_t kind = sym_intern_cstr("collector");
	size_t n, nlayers = 0, nsources = 0;
	const uint32_t *ids = fact_base_of_kind(a->fb, kind, &n);
	struct strbuf names = STRBUF_INIT, cmds = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		const struct fact *f = fact_base_get(a->fb, ids[i]);
		const char *name = fact_text(f, "name");
		const char *inputs = NULL;
		char *cmd;

		if (!strcmp(fact_text(f, "status"), "ok"))
			continue;
		for (size_t c = 0; c < collect_collector_count(); c++) {
			const char *kinds;

			if (!strcmp(collect_collector_at(c, &inputs, &kinds),
				    name))
				break;
			inputs = NULL;
		}
		cmd = fill_from_facts(inputs ? inputs : name, a->fb);
		sb_printf(&names, "%s%s", nsources ? ", " : "", name);
		sb_printf(&cmds, "%s%s", nsources ? "; " : "", cmd);
		free(cmd);
		nsources++;
	}
	tty_end_skip(s->tty);
	if (!nsources) {
		tty_puts(s->tty,
			 "\nEvery source of evidence was read.\n");
	} else {
		tty_printf(
			s->tty,
			"\n%sNot checked%s, for lack of evidence from %s.\n"
			"  To get it: 'rdmadoctor collect' on the host records it all in one bundle for 'rdmadoctor analyze FILE'; or run or read: %s.\n",
			term_on(s->o->colored, TERM_BOLD), term_off(s->o->colored), sb_str(&names),
			sb_str(&cmds));
	}
	for (int l = 0; l < LAYER_COUNT; l++) {
		if (a->layers[l].status != LAYER_UNKNOWN)
			continue;
		tty_printf(s->tty, "%s%s", nlayers++ ? ", " : "  Layers not judged: ",
			   layer_to_str((enum layer)l));
	}
	if (nlayers)
		tty_puts(s->tty, ".\n");
	sb_release(&names);
	sb_release(&cmds);
}

/* ---- the diagnosis ---- */

static void ranks(struct strbuf *sb, const struct report_doc *doc,
		  const char *what, const size_t *idx, size_t n)
{
	sb_printf(sb, "    %s", what);
	for (size_t k = 0; k < n; k++)
		sb_printf(sb, "%s #%d", k ? "," : "",
			  doc->diagnoses[idx[k]].rank);
	sb_puts(sb, ".\n");
}

/* The ranked causes with what to do.  A symptom that a cause explains
 * shows its message and its cause: what to do is what the cause says. */
static void summary(struct session *s)
{
	const struct report_doc *doc = document(s);
	struct strbuf sb = STRBUF_INIT;

	sb_printf(&sb, "%sDiagnosis%s", term_on(s->o->colored, TERM_BOLD), term_off(s->o->colored));
	if (doc->hostname[0])
		sb_printf(&sb, " of %s", doc->hostname);
	if (!doc->ndiagnoses)
		sb_printf(
			&sb,
			": %snothing found%s; every check that had its evidence passed.\n",
			term_on(s->o->colored, TERM_GREEN), term_off(s->o->colored));
	else
		sb_puts(&sb, ", most likely root cause first:\n");
	for (size_t i = 0; i < doc->ndiagnoses; i++) {
		const struct report_diagnosis *dg = &doc->diagnoses[i];

		sb_printf(&sb, "\n%2d  %s%s%s  %s%s%s  %s[%s]%s\n", dg->rank,
			  term_on(s->o->colored, term_severity_color(dg->severity)),
			  severity_word(dg->severity), term_off(s->o->colored),
			  term_on(s->o->colored, TERM_BOLD), dg->title, term_off(s->o->colored),
			  term_on(s->o->colored, TERM_DIM), layer_to_str(dg->layer),
			  term_off(s->o->colored));
		sb_printf(&sb, "    %s\n", dg->message);
		if (dg->nexplained_by) {
			ranks(&sb, doc, "Explained by", dg->explained_by,
			      dg->nexplained_by);
			continue;
		}
		if (dg->nremediation)
			sb_puts(&sb, "    What to do:\n");
		for (size_t k = 0; k < dg->nremediation; k++)
			sb_printf(&sb, "    - %s\n", dg->remediation[k]);
		if (dg->nexplains)
			ranks(&sb, doc, "Explains", dg->explains,
			      dg->nexplains);
	}
	/* the list, the save line and the menu on one screen when they fit */
	tty_keep(s->tty,
		 tty_rows(s->tty, sb_str(&sb)) + (s->save_path ? 5 : 2));
	tty_puts(s->tty, sb_str(&sb));
	sb_release(&sb);
}

/* Writes the snapshot when there is a place for it; returns false when
 * writing failed (and says why). */
static bool save(struct session *s)
{
	if (!s->save_path)
		return true;
	if (savefile_write(s->a, s->save_path, s->redact, s->d)) {
		show_diag(s);
		return false;
	}
	tty_printf(
		s->tty,
		"\nSaved the evidence and your answers to %s; 'rdmadoctor analyze %s' shows this diagnosis again.\n",
		s->save_path, s->save_path);
	return true;
}

/* "rdmadoctor-HOST.json" with only safe characters (with --redact, the
 * host's token). */
static char *default_save_name(const struct session *s)
{
	struct strbuf sb = STRBUF_INIT;
	const char *host = s->a->hostname;
	char *masked = s->redact ? redact_text(s->redact, host, strlen(host)) :
				   NULL;

	if (masked)
		host = masked;
	sb_puts(&sb, "rdmadoctor");
	if (host[0])
		sb_putc(&sb, '-');
	for (const char *p = host; *p; p++)
		sb_putc(&sb, isalnum((unsigned char)*p) || strchr("._-", *p) ?
				     *p :
				     '_');
	sb_puts(&sb, ".json");
	free(masked);
	return sb_detach(&sb);
}

static void choose_save(struct session *s)
{
	char line[512], prompt[600];
	char *def = default_save_name(s);
	bool chosen = !s->save_path;
	int n;

	if (chosen) {
		snprintf(prompt, sizeof(prompt), "Save to [%s]: ", def);
		for (;;) {
			n = tty_read(s->tty, prompt, line, sizeof(line));
			if (n < 0) {
				s->no_input = true;
				free(def);
				return;
			}
			if (strcmp(line, "?"))
				break;
			tty_puts(
				s->tty,
				"  A file name for the evidence and your answers (JSON); Enter takes the one in brackets.  'rdmadoctor analyze FILE' shows this diagnosis again.\n");
		}
		s->save_path = xstrdup(n ? line : def);
	}
	free(def);
	if (!save(s) && chosen) {
		/* ask again next time */
		free(s->save_path);
		s->save_path = NULL;
	}
}

static void details(struct session *s, size_t i)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	report_text_diagnosis(f, document(s), i);
	fclose(f);
	tty_puts(s->tty, "\n");
	tty_puts(s->tty, text);
	tty_end_skip(s->tty);
	free(text);
}

static void recheck(struct session *s)
{
	struct analysis *now = NULL, *before;
	struct strbuf diff = STRBUF_INIT;

	tty_puts(s->tty, "\nRe-checking with your answers so far.\n");
	if (analyze(s, &now) || !now) {
		tty_puts(s->tty,
			 "The re-check failed; the last results stand.\n");
		return;
	}
	before = s->a;
	s->a = now;
	analysis_changed(s);
	sweep(s, "A new question, since the evidence changed:");
	if (recheck_diff(before, s->a, RECHECK_EVIDENCE_LINES, &diff))
		tty_printf(s->tty,
			   "\n%sWhat changed%s since the last check:\n%s",
			   term_on(s->o->colored, TERM_BOLD), term_off(s->o->colored), sb_str(&diff));
	else
		tty_puts(
			s->tty,
			"\nNothing changed since the last check: the same evidence and the same diagnoses.\n");
	analysis_free(before);
	sb_release(&diff);
	tty_end_skip(s->tty);
	tty_puts(s->tty, "\n");
	summary(s);
	save(s);
}

static void menu_help(struct session *s, size_t n)
{
	char keys[32] = "1";

	if (n > 1)
		snprintf(keys, sizeof(keys), "1-%zu", n);
	if (n)
		tty_printf(
			s->tty,
			"  %-5s the evidence of that cause and the rules' chain of reasoning\n"
			"  l     the ranked list again\n",
			keys);
	tty_puts(
		s->tty,
		"  r     re-check: collect again after a fix, and say what changed\n"
		"  s     save the evidence and your answers to a file for a ticket\n"
		"  q     quit\n");
}

static void menu(struct session *s)
{
	char line[64];

	while (!s->quit && !s->no_input) {
		size_t n = s->a->dl ? s->a->dl->n : 0;
		char *end;
		long k;
		int len;

		tty_end_skip(s->tty);
		if (n == 1)
			tty_puts(s->tty, "[1] evidence  ");
		else if (n)
			tty_printf(s->tty, "[1-%zu] evidence  ", n);
		tty_printf(s->tty,
			   "[r] re-check after a fix  %s[s] save  [q] quit  [?]\n",
			   n ? "[l] list  " : "");
		len = tty_read(s->tty, "> ", line, sizeof(line));
		if (len < 0)
			break;
		k = strtol(line, &end, 10);
		if (len && !*end && k >= 1 && (size_t)k <= n)
			details(s, (size_t)k - 1);
		else if (!strcmp(line, "r"))
			recheck(s);
		else if (!strcmp(line, "s"))
			choose_save(s);
		else if (!strcmp(line, "l"))
			summary(s);
		else if (!strcmp(line, "q") || !strcmp(line, "quit"))
			s->quit = true;
		else if (!strcmp(line, "?"))
			menu_help(s, n);
		else if (len)
			tty_printf(s->tty,
				   "'%s' is not a choice here; '?' says what each does.\n",
				   line);
	}
}

/* ---- the session ---- */

static void evidence_read(struct session *s)
{
	uint32_t kind = sym_intern_cstr("collector");
	size_t n, ok = 0;
	const uint32_t *ids = fact_base_of_kind(s->a->fb, kind, &n);
	struct strbuf missing = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		const struct fact *f = fact_base_get(s->a->fb, ids[i]);

		if (!strcmp(fact_text(f, "status"), "ok"))
			ok++;
		else
			sb_printf(&missing, "%s%s", missing.len ? ", " : "",
				  fact_text(f, "name"));
	}
	tty_printf(s->tty, "Read %zu of %zu sources of evidence", ok, n);
	if (missing.len)
		tty_printf(s->tty, " (none from %s)", sb_str(&missing));
	tty_printf(s->tty, "%s%s.\n", s->a->hostname[0] ? " on host " : "",
		   s->a->hostname);
	sb_release(&missing);
	if (s->answers.n) {
		tty_puts(s->tty, "Answers given beforehand:");
		for (size_t i = 0; i < s->answers.n; i++)
			tty_printf(s->tty, " %s", s->answers.items[i]);
		tty_puts(s->tty, "\n");
	}
	tty_puts(s->tty, "\n");
}

static int session(struct session *s)
{
	const struct options *o = s->o;
	int rc;

	tty_printf(
		s->tty,
		"%srdmadoctor %s%s: a guided check of %s.\n"
		"It walks the RDMA stack bottom-up, layer by layer, as the field guide's checklist does, and asks only what the machine cannot tell.  Questions take a number; Enter takes the default.\n\n",
		term_on(s->o->colored, TERM_BOLD), RD_VERSION, term_off(s->o->colored),
		o->root	 ? o->root :
		o->nargs ? o->args[0] :
			   "this host");
	rc = analyze(s, &s->a);
	if (rc)
		return rc;
	evidence_read(s);
	ask_first(s);
	for (int l = 0; l < LAYER_COUNT && !s->quit; l++)
		walk_layer(s, (enum layer)l);
	if (!s->quit)
		sweep(s, "One more question before the diagnosis:");
	if (s->quit) {
		tty_puts(
			s->tty,
			"\nStopped before the diagnosis; nothing was saved.\n");
		return analysis_exit_code(s->a);
	}
	summary(s);
	not_checked(s);
	save(s);
	menu(s);
	return analysis_exit_code(s->a);
}

static char *mask_text(void *ctx, const char *text, size_t len)
{
	return redact_text(ctx, text, len);
}

/* --redact-map: the tokens the session showed, written at its end. */
static int write_map(struct session *s)
{
	if (!s->redact || !s->o->redact_map)
		return 0;
	return savefile_write_map(s->o->redact_map, s->redact, s->d) ?
		       EXIT_USAGE :
		       0;
}

static bool interactive(const struct options *o)
{
	return !o->json && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
}

int cmd_default(struct options *o)
{
	return interactive(o) ? cmd_guide(o) : diagnose(o);
}

int cmd_guide(struct options *o)
{
	struct session s = { 0 };
	int rc;

	if (!interactive(o))
		return diagnose(o);
	if (o->html || o->nhc) {
		fprintf(stderr,
			"rdmadoctor: error: the guided session does not take %s; use check or analyze\n",
			o->html ? "--html" : "--nhc");
		return EXIT_USAGE;
	}
	s.o = o;
	s.d = diag_new();
	if (o->save)
		s.save_path = xstrdup(o->save);
	if (options_analysis(o, &s.base, &s.answers, s.d)) {
		rc = EXIT_USAGE;
		goto out;
	}
	s.base.progress = false; /* the tty's progress line instead */
	s.tty = tty_open(stdin, stdout, o->colored);
	if (o->redact) {
		s.redact = redact_new();
		tty_set_mask(s.tty, mask_text, s.redact);
	}
	rc = session(&s);
	tty_close(s.tty);
	if (write_map(&s) && !rc)
		rc = EXIT_USAGE;
	redact_free(s.redact);
out:
	diag_print(s.d, stderr, "rdmadoctor");
	analysis_changed(&s);
	analysis_free(s.a);
	answers_release(&s.answers);
	for (size_t i = 0; i < s.nasked; i++)
		free(s.asked[i]);
	free(s.asked);
	free(s.save_path);
	diag_free(s.d);
	return rc;
}
