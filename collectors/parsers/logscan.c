/* The signature scanner: Aho-Corasick over literals, PCRE2 to confirm. */
#include "collectors/parsers/logscan.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/parsers/parse_log.h"
#include "engine/factors.h"
#include "engine/litset.h"
#include "engine/symbol.h"
#include "engine/vocab.h"
#include "engine/xalloc.h"

struct signature {
	char *id;
	char *layer;
	struct regex *re;
	uint32_t seen; /* generation of the last line it was queued */
	/* Whether the pattern has factors (factors.h), and the generation
	 * of the last line that held one: a line without is no match. */
	bool factored;
	/* which of the two factor sets hold its factors: the exact ones'
	 * (factors), the caseless ones' (factors_folded) */
	bool exact, folded;
	uint32_t factor_seen;
};

/* A literal of no signature: a log source's, or a mark (log_marks) that
 * only the sieve looks for. */
#define LIT_SOURCE (-1)
#define LIT_MARK (-2)

struct literal {
	int sig; /* signature index, LIT_SOURCE or LIT_MARK */
	int next; /* next literal with the same text, or -1 */
};

struct logscan {
	/* The automaton is built on first use (ready): a command that scans
	 * no log (a sysfs tree, a rules listing) never pays for it. */
	const struct fact_base *fb;
	char *kind; /* of the pattern facts: "signature" or "app_message" */
	bool built;
	struct signature *sigs;
	size_t nsigs;
	struct literal *lits;
	size_t nlits;
	/* nstates x nclasses transitions, each the target's row (state x
	 * nclasses) with HIT set when a literal ends there or on its fail
	 * chain (MARK when only marks do), so that the test every line goes
	 * through is one load per byte.  Bytes in no literal share class 0,
	 * which leads back to the root: rows of 70 columns rather than 256
	 * keep the table in cache. */
	uint32_t *next;
	uint16_t cls[256];
	uint32_t nclasses;
	int32_t *term; /* first literal ending here, or -1 */
	int32_t *dict; /* nearest state on the fail chain with a term */
	size_t nstates;
	uint32_t gen;
	size_t *queue; /* signatures to confirm on this line */
	/* No literal holds a newline: the automaton is at its root at the
	 * start of every line, so that the sieve's hits confirm lines. */
	bool line_roots;
	struct litset *factors; /* tagged with the signature index */
	struct litset *factors_folded; /* those that hold in any case */
	bool no_factors; /* logscan_use_factors(false) */
};

#define HIT 0x80000000u
#define MARK 0x40000000u
#define ROW(t) ((t) & ~(HIT | MARK))

void logscan_free(struct logscan *ls)
{
	if (!ls)
		return;
	for (size_t i = 0; i < ls->nsigs; i++) {
		free(ls->sigs[i].id);
		free(ls->sigs[i].layer);
		regex_free(ls->sigs[i].re);
	}
	free(ls->sigs);
	free(ls->lits);
	free(ls->next);
	free(ls->term);
	free(ls->dict);
	free(ls->queue);
	litset_free(ls->factors);
	litset_free(ls->factors_folded);
	free(ls->kind);
	free(ls);
}

/* ---- building the automaton ---- */

/* The literals are gathered first, so that the trie is built with the
 * scan's byte classes as its columns: no 256-wide rows, even for the
 * moment of the build. */
struct pending {
	const char *text; /* borrowed from the fact base or log_marks */
	size_t len;
	int sig;
};

struct builder {
	struct logscan *ls;
	struct pending *lits;
	size_t nlits, caplits, capstates;
};

#define NO_EDGE UINT32_MAX

static uint32_t new_state(struct builder *b)
{
	struct logscan *ls = b->ls;
	uint32_t n = ls->nclasses;
	size_t cap = b->capstates;

	if (ls->nstates + 1 > cap) {
		xgrow(&ls->term, &cap, ls->nstates + 1, sizeof(*ls->term));
		ls->next = xrealloc(ls->next, cap * n * sizeof(*ls->next));
		ls->dict = xrealloc(ls->dict, cap * sizeof(*ls->dict));
		b->capstates = cap;
	}
	for (uint32_t k = 0; k < n; k++)
		ls->next[ls->nstates * n + k] = NO_EDGE;
	ls->term[ls->nstates] = -1;
	ls->dict[ls->nstates] = 0;
	return (uint32_t)ls->nstates++;
}

static void add_literal(struct builder *b, const char *text, size_t len,
			int sig)
{
	if (!len)
		return;
	xgrow(&b->lits, &b->caplits, b->nlits + 1, sizeof(*b->lits));
	b->lits[b->nlits++] = (struct pending){ text, len, sig };
}

/* Byte classes: each byte of a literal its own, every other byte class
 * 0, which leads back to the root from every state. */
static void classify(struct builder *b)
{
	struct logscan *ls = b->ls;
	bool used[256] = { false };
	uint32_t n = 1;

	for (size_t i = 0; i < b->nlits; i++)
		for (size_t k = 0; k < b->lits[i].len; k++)
			used[(unsigned char)b->lits[i].text[k]] = true;
	for (int c = 0; c < 256; c++)
		ls->cls[c] = used[c] ? (uint16_t)n++ : 0;
	ls->nclasses = n;
	ls->line_roots = !used['\n'];
}

/* The trie of the literals, in the order they were added (the order in
 * which logscan_match queues signatures that end at one state). */
static void insert_all(struct builder *b)
{
	struct logscan *ls = b->ls;
	uint32_t n = ls->nclasses;

	new_state(b);
	ls->lits = xmalloc((b->nlits ? b->nlits : 1) * sizeof(*ls->lits));
	for (size_t i = 0; i < b->nlits; i++) {
		uint32_t s = 0;

		for (size_t k = 0; k < b->lits[i].len; k++) {
			size_t at = s * n +
				    ls->cls[(unsigned char)b->lits[i].text[k]];

			if (ls->next[at] == NO_EDGE) {
				uint32_t t = new_state(b);

				ls->next[at] = t;
			}
			s = ls->next[at];
		}
		ls->lits[ls->nlits].sig = b->lits[i].sig;
		ls->lits[ls->nlits].next = ls->term[s];
		ls->term[s] = (int32_t)ls->nlits++;
	}
}

/* HIT when a literal other than a mark ends at state t or on its fail
 * chain, MARK when only marks do, else 0. */
static uint32_t ending(const struct logscan *ls, uint32_t t)
{
	uint32_t flag = 0;

	for (int32_t s = ls->term[t] >= 0 ? (int32_t)t : ls->dict[t]; s;
	     s = ls->dict[s])
		for (int32_t l = ls->term[s]; l >= 0; l = ls->lits[l].next)
			if (ls->lits[l].sig != LIT_MARK)
				return HIT;
			else
				flag = MARK;
	return flag;
}

/* Numbers the states breadth first (order holds all but the root so):
 * the rows that a scan near the root keeps using then lie together at
 * the start of the table, in fewer cache lines and pages than the
 * literals' insertion order spread them over.  Only the names change:
 * every table is permuted alike. */
static void renumber(struct logscan *ls, const uint32_t *order, size_t n)
{
	uint32_t nc = ls->nclasses;
	uint32_t *to = xmalloc(ls->nstates * sizeof(*to));
	uint32_t *next = xmalloc(ls->nstates * nc * sizeof(*next));
	int32_t *term = xmalloc(ls->nstates * sizeof(*term));
	int32_t *dict = xmalloc(ls->nstates * sizeof(*dict));

	assert(n + 1 == ls->nstates);
	to[0] = 0;
	for (size_t i = 0; i < n; i++)
		to[order[i]] = (uint32_t)i + 1;
	for (size_t s = 0; s < ls->nstates; s++) {
		uint32_t t = to[s];

		for (uint32_t k = 0; k < nc; k++)
			next[(size_t)t * nc + k] = to[ls->next[s * nc + k]];
		term[t] = ls->term[s];
		dict[t] = (int32_t)to[ls->dict[s]];
	}
	free(ls->next);
	free(ls->term);
	free(ls->dict);
	ls->next = next;
	ls->term = term;
	ls->dict = dict;
	free(to);
}

/* Failure links by breadth-first search, folded into a full transition
 * table; dict links chain the states where literals end.  Then each
 * entry becomes its target's row with the flags (see struct logscan). */
static void link(struct builder *b)
{
	struct logscan *ls = b->ls;
	uint32_t *next = ls->next, n = ls->nclasses;
	uint32_t *fail = xcalloc(ls->nstates, sizeof(*fail));
	uint32_t *queue = xmalloc(ls->nstates * sizeof(*queue));
	uint32_t *flags;
	size_t head = 0, tail = 0;

	for (uint32_t k = 0; k < n; k++) {
		uint32_t u = next[k];

		if (u == NO_EDGE) {
			next[k] = 0;
		} else {
			fail[u] = 0;
			queue[tail++] = u;
		}
	}
	while (head < tail) {
		uint32_t s = queue[head++];

		for (uint32_t k = 0; k < n; k++) {
			uint32_t u = next[s * n + k];
			uint32_t f = next[fail[s] * n + k];

			if (u == NO_EDGE) {
				next[s * n + k] = f;
				continue;
			}
			fail[u] = f;
			ls->dict[u] = ls->term[f] >= 0 ? (int32_t)f : ls->dict[f];
			queue[tail++] = u;
		}
	}
	renumber(ls, queue, tail);
	next = ls->next;
	assert(ls->nstates * n < MARK);
	/* Each state's flags once: the dict chains are walked per state, not
	 * per entry of the table (nclasses times as many).  The failure links
	 * are done with, and their array holds the flags. */
	flags = fail;
	for (uint32_t t = 0; t < ls->nstates; t++)
		flags[t] = ending(ls, t);
	for (size_t i = 0; i < ls->nstates * n; i++)
		next[i] = next[i] * n | flags[next[i]];
	free(fail);
	free(queue);
}

static const char *text_of(const struct fact *f, const char *field)
{
	const char *t = fact_text(f, field);

	return t ? t : "";
}

/* The signature's regex is compiled when the automaton first lets a line
 * through to it: the kb loader has already compiled every pattern field
 * once to report a broken one at its position, and most signatures are
 * never run by one command. */
static void add_signature(struct builder *b, const struct fact *f)
{
	struct logscan *ls = b->ls;
	const struct value *lits = fact_get(f, sym_intern_cstr("literals"));
	struct factors fs;
	struct regex *re = regex_defer(text_of(f, "pattern"), 0);
	struct signature *sig;

	ls->sigs = xrealloc(ls->sigs, (ls->nsigs + 1) * sizeof(*ls->sigs));
	sig = &ls->sigs[ls->nsigs];
	sig->id = xstrdup(text_of(f, "id"));
	sig->layer = xstrdup(text_of(f, "layer"));
	sig->re = re;
	sig->seen = 0;
	sig->factor_seen = 0;
	sig->factored = factors_of(text_of(f, "pattern"), &fs);
	sig->exact = sig->folded = false;
	for (size_t i = 0; i < fs.n; i++) {
		litset_add(fs.fold[i] ? ls->factors_folded : ls->factors,
			   fs.s[i], strlen(fs.s[i]), (uint32_t)ls->nsigs);
		sig->exact |= !fs.fold[i];
		sig->folded |= fs.fold[i];
	}
	factors_release(&fs);
	for (size_t i = 0;
	     lits && lits->type == VALUE_LIST && i < lits->list->n; i++) {
		const char *t = value_text(&lits->list->items[i]);

		if (t)
			add_literal(b, t, strlen(t), (int)ls->nsigs);
	}
	ls->nsigs++;
}

/* Builds the automaton of ls->kind's facts in ls->fb. */
static void build(struct logscan *ls)
{
	const struct fact_base *fb = ls->fb;
	const char *kind = ls->kind;
	struct builder b = { ls, NULL, 0, 0, 0 };
	size_t n;
	const uint32_t *ids;

	b.ls->factors = litset_new();
	b.ls->factors_folded = litset_new_folded();
	ids = fact_base_of_kind(fb, sym_intern_cstr(kind), &n);
	for (size_t i = 0; i < n; i++)
		add_signature(&b, fact_base_get(fb, ids[i]));
	/* Log sources mark kernel lines as RDMA's; application messages
	 * stand on their own literals. */
	ids = strcmp(kind, "signature") ?
		      NULL :
		      fact_base_of_kind(fb, sym_intern_cstr("log_source"), &n);
	for (size_t i = 0; ids && i < n; i++) {
		const struct fact *f = fact_base_get(fb, ids[i]);
		const char *t = fact_text(f, "literal");
		const struct value *at = fact_get(f, sym_intern_cstr("at_start"));

		/* a name that counts only where it starts the message ("ice
		 * " inside "device ") only makes its lines candidates: the
		 * log parser confirms them (log_source_at_start) */
		if (t)
			add_literal(&b, t, strlen(t),
				    at && at->type == VALUE_BOOL && at->b ?
					    LIT_MARK :
					    LIT_SOURCE);
	}
	for (size_t i = 0; !strcmp(kind, "signature") && i < log_nmarks; i++)
		add_literal(&b, log_marks[i], strlen(log_marks[i]), LIT_MARK);
	classify(&b);
	insert_all(&b);
	link(&b);
	free(b.lits);
	b.ls->queue = xcalloc(b.ls->nsigs ? b.ls->nsigs : 1, sizeof(size_t));
	b.ls->built = true;
}

/* The scanner, built now if this is its first use.  The automaton is a
 * cache of the kb's facts: building it changes no answer the scanner
 * gives, so a const scanner may be completed here. */
static struct logscan *ready(const struct logscan *cls)
{
	struct logscan *ls = (struct logscan *)cls;

	if (!ls->built)
		build(ls);
	return ls;
}

void logscan_prepare(const struct logscan *ls)
{
	if (ls)
		ready(ls);
}

struct logscan *logscan_new_for(const struct fact_base *fb, const char *kind,
			       struct diag *d)
{
	struct logscan *ls = xcalloc(1, sizeof(*ls));

	(void)d; /* nothing to report: see add_signature */
	ls->fb = fb;
	ls->kind = xstrdup(kind);
	return ls;
}

struct logscan *logscan_new(const struct fact_base *fb, struct diag *d)
{
	return logscan_new_for(fb, "signature", d);
}

/* ---- scanning ---- */

bool logscan_relevant(const struct logscan *ls, const char *text, size_t len)
{
	const unsigned char *p = (const unsigned char *)text;
	const uint32_t *next = ls ? ready(ls)->next : NULL;
	const uint16_t *cls = ls ? ls->cls : NULL;
	uint32_t t = 0;

	if (!ls)
		return false;
	for (size_t i = 0; i < len; i++) {
		t = next[ROW(t) + cls[p[i]]];
		if (t & HIT)
			return true;
	}
	return false;
}

/* ---- sieving a buffer ---- */

/* Stretches of the buffer scanned at once: each step of the automaton
 * waits for its table load, and four independent chains keep as many
 * loads in flight. */
#define SIEVE_LANES 4
_Static_assert(SIEVE_LANES == 4, "sieve_lanes steps four lanes");

struct lane {
	const unsigned char *p, *end;
	uint32_t t;
	/* the end of the line in which a mark was noted (its newline or
	 * the lane's end), while the walk goes on in it, else NULL */
	const unsigned char *mark_end;
};

static void note(struct logscan_sieve *sv, size_t at, bool hit)
{
	xgrow(&sv->at, &sv->cap, sv->n + 1, sizeof(*sv->at));
	sv->at[sv->n++] = at << 1 | hit;
}

/* A literal ended at l->p.  The first in a line is noted (its offset
 * shifted left by one, the low bit set when a literal other than a mark
 * ended there).  After a literal other than a mark the lane goes on
 * after the line, from the root: one is enough.  After a mark it walks
 * on in the line, and notes the first other literal there too, so that
 * the line need not be walked again to tell whether it is relevant. */
static void sieve_hit(struct lane *l, const unsigned char *base,
		      struct logscan_sieve *sv)
{
	bool hit = l->t & HIT;
	const unsigned char *nl;

	if (l->mark_end && l->p < l->mark_end) {
		if (!hit) {
			l->p++;
			return;
		}
		note(sv, (size_t)(l->p - base), true);
		nl = l->mark_end;
	} else {
		note(sv, (size_t)(l->p - base), hit);
		nl = memchr(l->p, '\n', (size_t)(l->end - l->p));
		if (!hit) {
			l->mark_end = nl ? nl : l->end;
			l->p++;
			return;
		}
	}
	l->mark_end = NULL;
	l->p = nl && nl < l->end ? nl + 1 : l->end;
	l->t = 0;
}

/* Steps every lane by one byte per round for as long as all have bytes,
 * stopping at the round in which one finds a literal. */
static void sieve_lanes(const struct logscan *ls, struct lane *l,
			const unsigned char *base, struct logscan_sieve *sv)
{
	const uint32_t *next = ls->next;
	const uint16_t *cls = ls->cls;

	for (;;) {
		size_t m = SIZE_MAX, i;
		uint32_t t0 = l[0].t, t1 = l[1].t, t2 = l[2].t, t3 = l[3].t;
		const unsigned char *p0 = l[0].p, *p1 = l[1].p, *p2 = l[2].p,
				    *p3 = l[3].p;

		for (int k = 0; k < SIEVE_LANES; k++)
			if ((size_t)(l[k].end - l[k].p) < m)
				m = (size_t)(l[k].end - l[k].p);
		if (!m)
			return;
		for (i = 0; i < m; i++) {
			t0 = next[ROW(t0) + cls[p0[i]]];
			t1 = next[ROW(t1) + cls[p1[i]]];
			t2 = next[ROW(t2) + cls[p2[i]]];
			t3 = next[ROW(t3) + cls[p3[i]]];
			if ((t0 | t1 | t2 | t3) & (HIT | MARK))
				break;
		}
		l[0].t = t0;
		l[1].t = t1;
		l[2].t = t2;
		l[3].t = t3;
		for (int k = 0; k < SIEVE_LANES; k++) {
			if (i == m) {
				l[k].p += m;
				continue;
			}
			l[k].p += i;
			if (l[k].t & (HIT | MARK))
				sieve_hit(&l[k], base, sv);
			else
				l[k].p++;
		}
	}
}

static int offset_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

void logscan_sieve(const struct logscan *ls, const char *text, size_t len,
		   struct logscan_sieve *sv)
{
	const unsigned char *base = (const unsigned char *)text;
	struct lane l[SIEVE_LANES];
	size_t from = 0;

	sv->n = sv->next = 0;
	if (!ls || !len)
		return;
	ready(ls);
	/* lanes start at lines, where the automaton is at its root */
	for (int k = 0; k < SIEVE_LANES; k++) {
		size_t to = len / SIEVE_LANES * (size_t)(k + 1);

		if (k == SIEVE_LANES - 1) {
			to = len;
		} else if (to <= from) {
			to = from;
		} else {
			const unsigned char *nl =
				memchr(base + to, '\n', len - to);

			to = nl ? (size_t)(nl - base) + 1 : len;
		}
		l[k] = (struct lane){ base + from, base + to, 0, NULL };
		from = to;
	}
	sieve_lanes(ls, l, base, sv);
	for (int k = 0; k < SIEVE_LANES; k++)
		while (l[k].p < l[k].end) {
			l[k].t = ls->next[ROW(l[k].t) + ls->cls[*l[k].p]];
			if (l[k].t & (HIT | MARK))
				sieve_hit(&l[k], base, sv);
			else
				l[k].p++;
		}
	if (sv->n > 1)
		qsort(sv->at, sv->n, sizeof(*sv->at), offset_cmp);
}

bool logscan_sieve_any(struct logscan_sieve *sv, size_t from, size_t to)
{
	while (sv->next < sv->n && sv->at[sv->next] >> 1 < from)
		sv->next++;
	return sv->next < sv->n && sv->at[sv->next] >> 1 < to;
}

bool logscan_sieve_relevant(const struct logscan *ls, struct logscan_sieve *sv,
			    const char *text, size_t from, size_t to)
{
	if (!logscan_sieve_any(sv, from, to))
		return false;
	if (!ls->line_roots)
		return logscan_relevant(ls, text + from, to - from);
	/* The sieve walked the line from the root, as logscan_relevant
	 * does, to the first literal other than a mark in it, noted with
	 * its low bit set: the line is relevant when that literal ends
	 * before to. */
	for (size_t i = sv->next; i < sv->n && sv->at[i] >> 1 < to; i++)
		if (sv->at[i] & 1)
			return true;
	return false;
}

void logscan_sieve_release(struct logscan_sieve *sv)
{
	free(sv->at);
	*sv = (struct logscan_sieve){ 0 };
}

static void factor_found(void *ctx, uint32_t sig)
{
	struct logscan *ls = ctx;

	ls->sigs[sig].factor_seen = ls->gen;
}

size_t logscan_match(struct logscan *ls, const char *text, size_t len,
		     struct logscan_hit *hits, size_t max, size_t *limit)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t queued = 0, found = 0;
	uint32_t t = 0;
	bool exact = false, folded = false;

	if (!ls)
		return 0;
	ready(ls);
	if (!++ls->gen) {
		for (size_t i = 0; i < ls->nsigs; i++)
			ls->sigs[i].seen = ls->sigs[i].factor_seen = 0;
		ls->gen = 1;
	}
	for (size_t i = 0; i < len; i++) {
		int32_t s;

		t = ls->next[ROW(t) + ls->cls[p[i]]];
		if (!(t & HIT))
			continue;
		s = (int32_t)(ROW(t) / ls->nclasses);
		for (s = ls->term[s] >= 0 ? s : ls->dict[s]; s;
		     s = ls->dict[s]) {
			for (int32_t l = ls->term[s]; l >= 0;
			     l = ls->lits[l].next) {
				int sig = ls->lits[l].sig;

				if (sig < 0 || ls->sigs[sig].seen == ls->gen)
					continue;
				ls->sigs[sig].seen = ls->gen;
				ls->queue[queued++] = (size_t)sig;
			}
		}
	}
	/* only the factor sets of the queued signatures are looked for */
	for (size_t q = 0; q < queued; q++) {
		exact |= ls->sigs[ls->queue[q]].exact;
		folded |= ls->sigs[ls->queue[q]].folded;
	}
	/* (factor_found marks signatures: the order of the calls does not
	 * matter) */
	if (exact && folded && !ls->no_factors)
		litset_scan2(ls->factors, ls->factors_folded, text, len,
			     factor_found, ls);
	else if (exact && !ls->no_factors)
		litset_scan(ls->factors, text, len, factor_found, ls);
	else if (folded && !ls->no_factors)
		litset_scan(ls->factors_folded, text, len, factor_found, ls);
	for (size_t q = 0; q < queued; q++) {
		const struct signature *sig = &ls->sigs[ls->queue[q]];
		struct regex_match m;
		int rc;

		/* a text without any of the pattern's factors cannot match
		 * it: its regex need not run */
		if (sig->factored && !ls->no_factors &&
		    sig->factor_seen != ls->gen)
			continue;
		rc = regex_match(sig->re, text, len, &m);

		if (rc < 0)
			(*limit)++;
		if (rc != 1)
			continue;
		if (found < max) {
			hits[found].sig = ls->queue[q];
			hits[found].m = m;
		}
		found++;
	}
	return found;
}

void logscan_use_factors(struct logscan *ls, bool on)
{
	ls->no_factors = !on;
}

size_t logscan_count(const struct logscan *ls)
{
	return ready(ls)->nsigs;
}

const char *logscan_id(const struct logscan *ls, size_t sig)
{
	return ready(ls)->sigs[sig].id;
}

const char *logscan_layer(const struct logscan *ls, size_t sig)
{
	return ready(ls)->sigs[sig].layer;
}

const struct regex *logscan_regex(const struct logscan *ls, size_t sig)
{
	return ready(ls)->sigs[sig].re;
}
