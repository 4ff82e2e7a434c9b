/* Process-wide string interning with an open-addressing hash table. */
#include "engine/symbol.h"

#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

struct sym {
	char *str;
	uint32_t len;
	uint32_t hash;
};

static struct sym *syms; /* syms[0] is unused */
static size_t nsyms, capsyms;
static uint32_t *slots; /* 0 = empty, else an id */
static size_t nslots;

/* Strings are carved from large chunks, freed together. */
struct chunk {
	struct chunk *next;
	size_t used, size;
	char data[];
};
static struct chunk *chunks;

uint32_t hash_bytes(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++) {
		h ^= s[i];
		h *= 16777619u;
	}
	return h;
}

uint64_t hash_mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static char *store(const char *s, size_t len)
{
	struct chunk *c = chunks;
	char *p;

	if (!c || c->size - c->used < len + 1) {
		size_t size = len + 1 > 65536 ? len + 1 : 65536;

		c = xmalloc(sizeof(*c) + size);
		c->size = size;
		c->used = 0;
		c->next = chunks;
		chunks = c;
	}
	p = c->data + c->used;
	memcpy(p, s, len);
	p[len] = '\0';
	c->used += len + 1;
	return p;
}

static void rehash(void)
{
	size_t n = nslots ? nslots * 2 : 1024;

	free(slots);
	slots = xcalloc(n, sizeof(*slots));
	nslots = n;
	for (uint32_t id = 1; id < nsyms; id++) {
		size_t i = syms[id].hash & (n - 1);

		while (slots[i])
			i = (i + 1) & (n - 1);
		slots[i] = id;
	}
}

static size_t probe(const char *s, size_t len, uint32_t h)
{
	size_t i = h & (nslots - 1);

	while (slots[i]) {
		const struct sym *y = &syms[slots[i]];

		if (y->hash == h && y->len == len && !memcmp(y->str, s, len))
			break;
		i = (i + 1) & (nslots - 1);
	}
	return i;
}

uint32_t sym_find(const char *s, size_t len)
{
	if (!nslots)
		return 0;
	return slots[probe(s, len, hash_bytes(s, len))];
}

uint32_t sym_intern(const char *s, size_t len)
{
	uint32_t h = hash_bytes(s, len);
	size_t i;

	if (!nsyms)
		nsyms = 1;
	if ((nsyms + 1) * 2 > nslots)
		rehash();
	i = probe(s, len, h);
	if (slots[i])
		return slots[i];
	xgrow(&syms, &capsyms, nsyms + 1, sizeof(*syms));
	syms[nsyms].str = store(s, len);
	syms[nsyms].len = (uint32_t)len;
	syms[nsyms].hash = h;
	slots[i] = (uint32_t)nsyms;
	return (uint32_t)nsyms++;
}

uint32_t sym_intern_cstr(const char *s)
{
	return sym_intern(s, strlen(s));
}

const char *sym_str(uint32_t id)
{
	return id && id < nsyms ? syms[id].str : "";
}

size_t sym_len(uint32_t id)
{
	return id && id < nsyms ? syms[id].len : 0;
}

uint32_t sym_hash(uint32_t id)
{
	return id && id < nsyms ? syms[id].hash : 0;
}
