/* A set of literals found all at once in a text: an Aho-Corasick
 * automaton with its edges in lists, small in memory, for texts that are
 * scanned rarely (the few lines a signature's own literals picked). */
#ifndef RD_LITSET_H
#define RD_LITSET_H

#include <stddef.h>
#include <stdint.h>

struct litset;

/* An empty set; owned by the caller (litset_free). */
struct litset *litset_new(void);
/* An empty set whose literals, added in lower case, are found in any
 * (ASCII) case: litset_scan folds the text's bytes A-Z. */
struct litset *litset_new_folded(void);
void litset_free(struct litset *ls);

/* Adds text[0..len) (an empty one is left out) with a tag that
 * litset_scan reports.  Adding after a scan is not allowed. */
void litset_add(struct litset *ls, const char *text, size_t len, uint32_t tag);

/* Calls found(ctx, tag) for every occurrence in text[0..len) of every
 * literal added, in the order the occurrences end. */
void litset_scan(struct litset *ls, const char *text, size_t len,
		 void (*found)(void *ctx, uint32_t tag), void *ctx);
/* litset_scan of a and of b at once, in one pass over the text: the
 * occurrences of both sets in the order they end, a's first where both
 * end at one byte. */
void litset_scan2(struct litset *a, struct litset *b, const char *text,
		  size_t len, void (*found)(void *ctx, uint32_t tag), void *ctx);

#endif
