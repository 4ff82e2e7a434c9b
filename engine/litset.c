/* Aho-Corasick over a trie kept as child and sibling lists; the root's
 * edges in a table, since every byte starts there. */
#include "engine/litset.h"

#include <stdbool.h>
#include <stdlib.h>

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
};

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
	free(queue);
	ls->linked = true;
}

void litset_scan(struct litset *ls, const char *text, size_t len,
		 void (*found)(void *ctx, uint32_t tag), void *ctx)
{
	uint32_t s = 0;

	if (!ls->linked)
		link_nodes(ls);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if (ls->fold && c >= 'A' && c <= 'Z')
			c = (unsigned char)(c - 'A' + 'a');
		s = step(ls, s, c);
		for (uint32_t o = ls->nodes[s].out >= 0 ? s : ls->nodes[s].dict;
		     o; o = ls->nodes[o].dict)
			for (int32_t k = ls->nodes[o].out; k >= 0;
			     k = ls->outs[k].next)
				found(ctx, ls->outs[k].tag);
	}
}
