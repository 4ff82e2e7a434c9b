/* Aho-Corasick over a trie kept as child and sibling lists while it is
 * built; once linked, a full transition table over byte classes, so that
 * a scan is one load per byte. */
#include "engine/litset.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

struct node {
	uint32_t child, sibling; /* 0: none (the root is nobody's child) */
	uint32_t fail, dict; /* dict: nearest state on the fail chain with
				output, or 0 */
	int32_t out; /* first output, or -1 */
	unsigned char byte;
};

struct output {
	uint32_t tag;
	int32_t next;
};

struct litset {
	struct node *nodes;
	size_t nnodes, capnodes;
	struct output *outs;
	size_t nouts, capouts;
	uint32_t root[256];
	bool linked;
	bool fold; /* litset_new_folded */
	/* Once linked, the shallowest states (the root, then breadth
	 * first, as many as DENSE_CELLS allow) have full rows over byte
	 * classes: the text keeps the automaton near the root, so most
	 * bytes take one load.  Each entry is the target's row (its first
	 * entry), or the target state with NO_ROW set when it has none, and
	 * OUT set when an output ends there or on its dict chain.  Deeper states
	 * look up their children and fall back along their fail links to a
	 * state with a row (a state's fail target is shallower).  Bytes in
	 * no literal share class 0, which leads to the root; a folded set
	 * gives A-Z the classes of a-z. */
	uint32_t *rows;
	uint32_t *row_of; /* per state: its row's first entry, or NO_ROW */
	uint32_t *row_state; /* per row: its state */
	uint16_t cls[256];
	uint32_t nclasses;
};

#define OUT 0x80000000u
#define NO_ROW 0x40000000u
#define BITS(t) ((t) & ~(OUT | NO_ROW))
/* entries of the rows: 64K, 256 KiB */
#define DENSE_CELLS 65536

static uint32_t new_node(struct litset *ls, unsigned char byte)
{
	xgrow(&ls->nodes, &ls->capnodes, ls->nnodes + 1, sizeof(*ls->nodes));
	ls->nodes[ls->nnodes] = (struct node){ 0, 0, 0, 0, -1, byte };
	return (uint32_t)ls->nnodes++;
}

struct litset *litset_new(void)
{
	struct litset *ls = xcalloc(1, sizeof(*ls));

	new_node(ls, 0);
	return ls;
}

struct litset *litset_new_folded(void)
{
	struct litset *ls = litset_new();

	ls->fold = true;
	return ls;
}

void litset_free(struct litset *ls)
{
	if (!ls)
		return;
	free(ls->nodes);
	free(ls->outs);
	free(ls->rows);
	free(ls->row_of);
	free(ls->row_state);
	free(ls);
}

/* The child of s on byte c, or 0. */
static uint32_t child(const struct litset *ls, uint32_t s, unsigned char c)
{
	for (uint32_t k = ls->nodes[s].child; k; k = ls->nodes[k].sibling)
		if (ls->nodes[k].byte == c)
			return k;
	return 0;
}

void litset_add(struct litset *ls, const char *text, size_t len, uint32_t tag)
{
	uint32_t s = 0;

	if (!len || ls->linked)
		return;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];
		uint32_t k = child(ls, s, c);

		if (!k) {
			k = new_node(ls, c);
			ls->nodes[k].sibling = ls->nodes[s].child;
			ls->nodes[s].child = k;
		}
		s = k;
	}
	xgrow(&ls->outs, &ls->capouts, ls->nouts + 1, sizeof(*ls->outs));
	ls->outs[ls->nouts] = (struct output){ tag, ls->nodes[s].out };
	ls->nodes[s].out = (int32_t)ls->nouts++;
}

/* Where the automaton goes from s on c, following fail links. */
static uint32_t step(const struct litset *ls, uint32_t s, unsigned char c)
{
	for (; s; s = ls->nodes[s].fail) {
		uint32_t k = child(ls, s, c);

		if (k)
			return k;
	}
	return ls->root[c];
}

/* Byte classes: each byte of a literal its own class (A-Z that of a-z
 * in a folded set), every other byte class 0. */
static void classify(struct litset *ls)
{
	bool used[256] = { false };
	uint32_t n = 1;

	for (size_t k = 1; k < ls->nnodes; k++)
		used[ls->nodes[k].byte] = true;
	/* a folded scan never meets A-Z: it reads them as a-z */
	if (ls->fold)
		memset(used + 'A', 0, 'Z' - 'A' + 1);
	memset(ls->cls, 0, sizeof(ls->cls));
	for (int c = 0; c < 256; c++)
		if (used[c])
			ls->cls[c] = (uint16_t)n++;
	if (ls->fold)
		for (int c = 'A'; c <= 'Z'; c++)
			ls->cls[c] = ls->cls[c - 'A' + 'a'];
	ls->nclasses = n;
}

static bool has_output(const struct litset *ls, uint32_t t)
{
	return ls->nodes[t].out >= 0 || ls->nodes[t].dict;
}

/* State t as an entry of the rows (struct litset). */
static uint32_t entry(const struct litset *ls, uint32_t t)
{
	uint32_t row = ls->row_of[t];

	return (row != NO_ROW ? row : t | NO_ROW) |
	       (has_output(ls, t) ? OUT : 0);
}

/* The state an entry stands for. */
static uint32_t state_of(const struct litset *ls, uint32_t e)
{
	return e & NO_ROW ? BITS(e) : ls->row_state[BITS(e) / ls->nclasses];
}

/* The rows of the shallowest states (struct litset): order holds the
 * states other than the root breadth first, so that a state's fail
 * target has its row when the state's row is filled. */
static void tabulate(struct litset *ls, const uint32_t *order, size_t n)
{
	uint32_t nc, *d, nrows;
	unsigned char rep[256]; /* a byte of each class (a-z, not A-Z) */

	classify(ls);
	nc = ls->nclasses;
	nrows = DENSE_CELLS / nc;
	if (nrows > n + 1)
		nrows = (uint32_t)n + 1;
	for (int c = 0; c < 256; c++)
		rep[ls->cls[c]] = (unsigned char)c;
	ls->row_of = xmalloc(ls->nnodes * sizeof(*ls->row_of));
	for (size_t i = 0; i < ls->nnodes; i++)
		ls->row_of[i] = NO_ROW;
	ls->row_state = xmalloc(nrows * sizeof(*ls->row_state));
	ls->row_state[0] = 0;
	ls->row_of[0] = 0;
	for (uint32_t i = 1; i < nrows; i++) {
		ls->row_state[i] = order[i - 1];
		ls->row_of[order[i - 1]] = i * nc;
	}
	/* first the target states, then their entries */
	d = ls->rows = xmalloc((size_t)nrows * nc * sizeof(*d));
	d[0] = 0;
	for (uint32_t k = 1; k < nc; k++)
		d[k] = ls->root[rep[k]];
	for (uint32_t i = 1; i < nrows; i++) {
		uint32_t s = ls->row_state[i], *r = d + (size_t)i * nc;
		const uint32_t *f = d + ls->row_of[ls->nodes[s].fail];

		r[0] = 0;
		for (uint32_t k = 1; k < nc; k++)
			r[k] = f[k];
		/* (a folded set's A-Z children are never reached) */
		for (uint32_t k = ls->nodes[s].child; k;
		     k = ls->nodes[k].sibling) {
			unsigned char b = ls->nodes[k].byte;

			if (ls->cls[b] && rep[ls->cls[b]] == b)
				r[ls->cls[b]] = k;
		}
	}
	for (size_t i = 0; i < (size_t)nrows * nc; i++)
		d[i] = entry(ls, d[i]);
}

/* next_entry for a state without a row: its children, then its fail
 * chain's, down to a state with a row. */
static uint32_t next_sparse(const struct litset *ls, uint32_t e,
			    unsigned char c)
{
	uint32_t k = ls->cls[c], s;

	if (!k)
		return 0;
	if (ls->fold && c >= 'A' && c <= 'Z')
		c = (unsigned char)(c - 'A' + 'a');
	for (s = BITS(e); ls->row_of[s] == NO_ROW; s = ls->nodes[s].fail) {
		uint32_t t = child(ls, s, c);

		if (t)
			return entry(ls, t);
	}
	return ls->rows[ls->row_of[s] + k];
}

/* Where the automaton goes from entry e on byte c. */
static inline uint32_t next_entry(const struct litset *ls, uint32_t e,
				  unsigned char c)
{
	if (__builtin_expect(!(e & NO_ROW), 1))
		return ls->rows[BITS(e) + ls->cls[c]];
	return next_sparse(ls, e, c);
}

/* Fail and dict links, breadth first. */
static void link_nodes(struct litset *ls)
{
	uint32_t *queue = xmalloc(ls->nnodes * sizeof(*queue));
	size_t head = 0, tail = 0;

	for (uint32_t k = ls->nodes[0].child; k; k = ls->nodes[k].sibling) {
		ls->root[ls->nodes[k].byte] = k;
		queue[tail++] = k;
	}
	while (head < tail) {
		uint32_t s = queue[head++];

		for (uint32_t k = ls->nodes[s].child; k;
		     k = ls->nodes[k].sibling) {
			uint32_t f = step(ls, ls->nodes[s].fail,
					  ls->nodes[k].byte);

			ls->nodes[k].fail = f;
			ls->nodes[k].dict =
				ls->nodes[f].out >= 0 ? f : ls->nodes[f].dict;
			queue[tail++] = k;
		}
	}
	ls->linked = true;
	tabulate(ls, queue, tail);
	free(queue);
}

/* Reports the outputs of the state entry t stands for. */
static void report(const struct litset *ls, uint32_t t,
		   void (*found)(void *ctx, uint32_t tag), void *ctx)
{
	uint32_t s = state_of(ls, t);

	for (uint32_t o = ls->nodes[s].out >= 0 ? s : ls->nodes[s].dict; o;
	     o = ls->nodes[o].dict)
		for (int32_t k = ls->nodes[o].out; k >= 0; k = ls->outs[k].next)
			found(ctx, ls->outs[k].tag);
}

void litset_scan(struct litset *ls, const char *text, size_t len,
		 void (*found)(void *ctx, uint32_t tag), void *ctx)
{
	const unsigned char *p = (const unsigned char *)text;
	uint32_t t = 0;

	if (!ls->linked)
		link_nodes(ls);
	for (size_t i = 0; i < len; i++) {
		t = next_entry(ls, t, p[i]);
		if (t & OUT)
			report(ls, t, found, ctx);
	}
}

void litset_scan2(struct litset *a, struct litset *b, const char *text,
		  size_t len, void (*found)(void *ctx, uint32_t tag), void *ctx)
{
	const unsigned char *p = (const unsigned char *)text;
	uint32_t ta = 0, tb = 0;

	if (!a->linked)
		link_nodes(a);
	if (!b->linked)
		link_nodes(b);
	/* two independent walks, so that their loads overlap */
	for (size_t i = 0; i < len; i++) {
		ta = next_entry(a, ta, p[i]);
		tb = next_entry(b, tb, p[i]);
		if (ta & OUT)
			report(a, ta, found, ctx);
		if (tb & OUT)
			report(b, tb, found, ctx);
	}
}
