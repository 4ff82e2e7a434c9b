/* The signature scanner: Aho-Corasick over literals, PCRE2 to confirm. */
#include "collectors/parsers/logscan.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/symbol.h"
#include "engine/vocab.h"
#include "engine/xalloc.h"

struct signature {
	char *id;
	char *layer;
	struct regex *re;
	uint32_t seen; /* generation of the last line it was queued */
};

struct literal {
	int sig; /* signature index, or -1 for a log source */
	int next; /* next literal with the same text, or -1 */
};

struct logscan {
	struct signature *sigs;
	size_t nsigs;
	struct literal *lits;
	size_t nlits;
	/* nstates x nclasses transitions, each the target's row (state x
	 * nclasses) with HIT set when a literal ends there or on its fail
	 * chain, so that the test every line goes through is one load per
	 * byte.  Bytes in no literal share class 0, which leads back to the
	 * root: rows of 70 columns rather than 256 keep the table in cache. */
	uint32_t *next;
	uint16_t cls[256];
	uint32_t nclasses;
	int32_t *term; /* first literal ending here, or -1 */
	int32_t *dict; /* nearest state on the fail chain with a term */
	size_t nstates;
	uint32_t gen;
	size_t *queue; /* signatures to confirm on this line */
};

#define HIT 0x80000000u
#define ROW(t) ((t) & ~HIT)

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
	free(ls);
}

/* ---- building the automaton ---- */

struct builder {
	struct logscan *ls;
	int32_t *next; /* the trie: nstates x 256, -1 for no edge */
	size_t capstates, caplits;
};

static int32_t new_state(struct builder *b)
{
	struct logscan *ls = b->ls;
	size_t cap = b->capstates;

	if (ls->nstates + 1 > cap) {
		xgrow(&ls->term, &cap, ls->nstates + 1, sizeof(*ls->term));
		b->next = xrealloc(b->next, cap * 256 * sizeof(*b->next));
		ls->dict = xrealloc(ls->dict, cap * sizeof(*ls->dict));
		b->capstates = cap;
	}
	for (int c = 0; c < 256; c++)
		b->next[ls->nstates * 256 + c] = -1;
	ls->term[ls->nstates] = -1;
	ls->dict[ls->nstates] = 0;
	return (int32_t)ls->nstates++;
}

static void add_literal(struct builder *b, const char *text, size_t len,
			int sig)
{
	struct logscan *ls = b->ls;
	int32_t s = 0;

	if (!len)
		return;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if (b->next[s * 256 + c] < 0) {
			int32_t t = new_state(b);

			b->next[s * 256 + c] = t;
		}
		s = b->next[s * 256 + c];
	}
	xgrow(&ls->lits, &b->caplits, ls->nlits + 1, sizeof(*ls->lits));
	ls->lits[ls->nlits].sig = sig;
	ls->lits[ls->nlits].next = ls->term[s];
	ls->term[s] = (int32_t)ls->nlits++;
}

/* The scan's table (see struct logscan) from the full one. */
static void fold(struct builder *b)
{
	struct logscan *ls = b->ls;
	uint8_t rep[257]; /* a byte of each class */
	bool used[256] = { false };
	uint32_t n = 1;

	for (size_t s = 0; s < ls->nstates; s++)
		for (int c = 0; c < 256; c++)
			used[c] |= b->next[s * 256 + c] != 0;
	rep[0] = 0;
	for (int c = 0; c < 256; c++) {
		ls->cls[c] = 0;
		if (used[c]) {
			rep[n] = (uint8_t)c;
			ls->cls[c] = (uint16_t)n++;
		} else {
			rep[0] = (uint8_t)c;
		}
	}
	ls->nclasses = n;
	assert(ls->nstates * n < HIT);
	ls->next = xmalloc(ls->nstates * n * sizeof(*ls->next));
	for (size_t s = 0; s < ls->nstates; s++) {
		for (uint32_t k = 0; k < n; k++) {
			int32_t t = b->next[s * 256 + rep[k]];

			ls->next[s * n + k] =
				(uint32_t)t * n |
				(ls->term[t] >= 0 || ls->dict[t] ? HIT : 0);
		}
	}
}

/* Failure links by breadth-first search, folded into a full transition
 * table; dict links chain the states where literals end. */
static void link(struct builder *b)
{
	struct logscan *ls = b->ls;
	int32_t *next = b->next;
	int32_t *fail = xcalloc(ls->nstates, sizeof(*fail));
	int32_t *queue = xmalloc(ls->nstates * sizeof(*queue));
	size_t head = 0, tail = 0;

	for (int c = 0; c < 256; c++) {
		int32_t u = next[c];

		if (u < 0) {
			next[c] = 0;
		} else {
			fail[u] = 0;
			queue[tail++] = u;
		}
	}
	while (head < tail) {
		int32_t s = queue[head++];

		for (int c = 0; c < 256; c++) {
			int32_t u = next[s * 256 + c];
			int32_t f = next[fail[s] * 256 + c];

			if (u < 0) {
				next[s * 256 + c] = f;
				continue;
			}
			fail[u] = f;
			ls->dict[u] = ls->term[f] >= 0 ? f : ls->dict[f];
			queue[tail++] = u;
		}
	}
	fold(b);
	free(fail);
	free(queue);
}

static const char *text_of(const struct fact *f, const char *field)
{
	const char *t = fact_text(f, field);

	return t ? t : "";
}

static void add_signature(struct builder *b, const struct fact_base *fb,
			  const struct fact *f, struct diag *d)
{
	struct logscan *ls = b->ls;
	const struct value *lits = fact_get(f, sym_intern_cstr("literals"));
	char msg[256];
	size_t off = 0;
	struct regex *re =
		regex_compile(text_of(f, "pattern"), 0, msg, sizeof(msg), &off);
	struct signature *sig;

	if (!re) {
		diag_at(d, DIAG_ERROR, fact_base_source_name(fb, f->prov.src),
			(int)f->prov.line, 0, NULL,
			"signature '%s': pattern does not compile: %s at offset %zu",
			text_of(f, "id"), msg, off);
		return;
	}
	ls->sigs = xrealloc(ls->sigs, (ls->nsigs + 1) * sizeof(*ls->sigs));
	sig = &ls->sigs[ls->nsigs];
	sig->id = xstrdup(text_of(f, "id"));
	sig->layer = xstrdup(text_of(f, "layer"));
	sig->re = re;
	sig->seen = 0;
	for (size_t i = 0;
	     lits && lits->type == VALUE_LIST && i < lits->list->n; i++) {
		const char *t = value_text(&lits->list->items[i]);

		if (t)
			add_literal(b, t, strlen(t), (int)ls->nsigs);
	}
	ls->nsigs++;
}

struct logscan *logscan_new(const struct fact_base *fb, struct diag *d)
{
	struct builder b = { xcalloc(1, sizeof(struct logscan)), NULL, 0, 0 };
	size_t n;
	const uint32_t *ids;

	new_state(&b);
	ids = fact_base_of_kind(fb, sym_intern_cstr("signature"), &n);
	for (size_t i = 0; i < n; i++)
		add_signature(&b, fb, fact_base_get(fb, ids[i]), d);
	ids = fact_base_of_kind(fb, sym_intern_cstr("log_source"), &n);
	for (size_t i = 0; i < n; i++) {
		const char *t = fact_text(fact_base_get(fb, ids[i]), "literal");

		if (t)
			add_literal(&b, t, strlen(t), -1);
	}
	link(&b);
	free(b.next);
	b.ls->queue = xcalloc(b.ls->nsigs ? b.ls->nsigs : 1, sizeof(size_t));
	return b.ls;
}

/* ---- scanning ---- */

bool logscan_relevant(const struct logscan *ls, const char *text, size_t len)
{
	const unsigned char *p = (const unsigned char *)text;
	const uint32_t *next = ls ? ls->next : NULL;
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

size_t logscan_match(struct logscan *ls, const char *text, size_t len,
		     struct logscan_hit *hits, size_t max, size_t *limit)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t queued = 0, found = 0;
	uint32_t t = 0;

	if (!ls)
		return 0;
	if (!++ls->gen) {
		for (size_t i = 0; i < ls->nsigs; i++)
			ls->sigs[i].seen = 0;
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
	for (size_t q = 0; q < queued; q++) {
		struct regex_match m;
		int rc = regex_match(ls->sigs[ls->queue[q]].re, text, len, &m);

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

size_t logscan_count(const struct logscan *ls)
{
	return ls->nsigs;
}

const char *logscan_id(const struct logscan *ls, size_t sig)
{
	return ls->sigs[sig].id;
}

const char *logscan_layer(const struct logscan *ls, size_t sig)
{
	return ls->sigs[sig].layer;
}
