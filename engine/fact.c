/* The fact base: storage, key merging, dedup and value indexes. */
#include "engine/fact.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/symbol.h"
#include "engine/vocab.h"
#include "engine/xalloc.h"

/* Evidence lines are cut here; a line longer than this is not evidence a
 * person reads. */
#define PROV_TEXT_MAX 512 /* @@ */

/* One bucket of the value index: the facts of a kind whose field holds a
 * value.  field == 0 lists every fact of the kind. */
struct slot {
	uint64_t hash;
	uint32_t kind;
	uint32_t field;
	struct value v;
	uint32_t *ids;
	uint32_t n, cap;
};

struct arena {
	struct arena *next;
	size_t used, size;
	char data[];
};

struct fact_base {
	struct fact **facts;
	size_t n, cap;
	struct slot *slots;
	size_t nslots, used;
	char **sources;
	size_t nsources, capsources;
	/* source name hash -> id + 1 (0: empty), open addressing, a power
	 * of two at most half full */
	uint32_t *srcidx;
	size_t nsrcidx;
	struct arena *arena;
	/* content hash -> derived fact ids, for dedup of asserted facts */
	struct slot *dedup;
	size_t ndedup, useddedup;
	struct mark *mark; /* what fact_base_rollback returns to, or NULL */
};

/* The base as fact_base_mark found it.  Facts and sources are only ever
 * appended, and fields of a fact only appended, so counts restore them;
 * the two hash tables are copied whole, since an insertion may have
 * rehashed them. */
struct mark {
	size_t n; /* facts */
	uint32_t *nfields; /* each marked fact's field count */
	size_t nsources, nsrcidx;
	struct slot *slots;
	size_t nslots, used;
	struct slot *dedup;
	size_t ndedup, useddedup;
	struct arena *arena; /* the newest arena then, and how full */
	size_t arena_used;
};

static void *arena_alloc(struct fact_base *fb, size_t n)
{
	struct arena *a = fb->arena;
	void *p;

	n = (n + 7) & ~(size_t)7;
	if (!a || a->size - a->used < n) {
		size_t size = n > 65536 ? n : 65536;

		a = xmalloc(sizeof(*a) + size);
		a->size = size;
		a->used = 0;
		a->next = fb->arena;
		fb->arena = a;
	}
	p = a->data + a->used;
	a->used += n;
	return p;
}

const char *fact_base_strdup(struct fact_base *fb, const char *s, size_t n)
{
	char *p = arena_alloc(fb, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

struct value_list *fact_base_list(struct fact_base *fb, size_t n)
{
	struct value_list *l =
		arena_alloc(fb, sizeof(*l) + n * sizeof(struct value));

	l->n = n;
	return l;
}

struct fact_base *fact_base_new(void)
{
	struct fact_base *fb = xcalloc(1, sizeof(*fb));

	fact_base_source(fb, ""); /* id 0: unknown */
	return fb;
}

static void free_slots(struct slot *slots, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(slots[i].ids);
	free(slots);
}

static void mark_free(struct mark *m);

void fact_base_free(struct fact_base *fb)
{
	if (!fb)
		return;
	mark_free(fb->mark);
	for (size_t i = 0; i < fb->n; i++) {
		free(fb->facts[i]->fields);
		free(fb->facts[i]);
	}
	free(fb->facts);
	free_slots(fb->slots, fb->nslots);
	free_slots(fb->dedup, fb->ndedup);
	for (size_t i = 0; i < fb->nsources; i++)
		free(fb->sources[i]);
	free(fb->sources);
	free(fb->srcidx);
	while (fb->arena) {
		struct arena *next = fb->arena->next;

		free(fb->arena);
		fb->arena = next;
	}
	free(fb);
}

static void source_index_put(uint32_t *idx, size_t n, const char *name,
			     uint32_t id)
{
	size_t i = hash_bytes(name, strlen(name)) & (n - 1);

	while (idx[i])
		i = (i + 1) & (n - 1);
	idx[i] = id + 1;
}

uint32_t fact_base_source(struct fact_base *fb, const char *name)
{
	size_t i;

	if (fb->nsrcidx) {
		i = hash_bytes(name, strlen(name)) & (fb->nsrcidx - 1);
		for (; fb->srcidx[i]; i = (i + 1) & (fb->nsrcidx - 1))
			if (!strcmp(fb->sources[fb->srcidx[i] - 1], name))
				return fb->srcidx[i] - 1;
	}
	if (2 * (fb->nsources + 1) > fb->nsrcidx) {
		size_t n = fb->nsrcidx ? 2 * fb->nsrcidx : 64;
		uint32_t *idx = xcalloc(n, sizeof(*idx));

		for (size_t k = 0; k < fb->nsources; k++)
			source_index_put(idx, n, fb->sources[k], (uint32_t)k);
		free(fb->srcidx);
		fb->srcidx = idx;
		fb->nsrcidx = n;
	}
	xgrow(&fb->sources, &fb->capsources, fb->nsources + 1,
	      sizeof(*fb->sources));
	fb->sources[fb->nsources] = xstrdup(name);
	source_index_put(fb->srcidx, fb->nsrcidx, name, (uint32_t)fb->nsources);
	return (uint32_t)fb->nsources++;
}

const char *fact_base_source_name(const struct fact_base *fb, uint32_t src)
{
	return src < fb->nsources ? fb->sources[src] : "";
}

/* ---- mark and rollback ---- */

/* A copy of a hash table, each bucket's id list its own. */
static struct slot *slots_dup(const struct slot *slots, size_t n)
{
	struct slot *t = n ? xmalloc(n * sizeof(*t)) : NULL;

	for (size_t i = 0; i < n; i++) {
		t[i] = slots[i];
		if (!slots[i].ids)
			continue;
		t[i].ids = xmalloc(slots[i].cap * sizeof(*t[i].ids));
		memcpy(t[i].ids, slots[i].ids,
		       slots[i].n * sizeof(*slots[i].ids));
	}
	return t;
}

static void mark_free(struct mark *m)
{
	if (!m)
		return;
	free(m->nfields);
	free_slots(m->slots, m->nslots);
	free_slots(m->dedup, m->ndedup);
	free(m);
}

void fact_base_mark(struct fact_base *fb)
{
	struct mark *m = xcalloc(1, sizeof(*m));

	mark_free(fb->mark);
	m->n = fb->n;
	m->nfields = xcalloc(fb->n + 1, sizeof(*m->nfields));
	for (size_t i = 0; i < fb->n; i++)
		m->nfields[i] = fb->facts[i]->nfields;
	m->nsources = fb->nsources;
	m->nsrcidx = fb->nsrcidx;
	m->slots = slots_dup(fb->slots, fb->nslots);
	m->nslots = fb->nslots;
	m->used = fb->used;
	m->dedup = slots_dup(fb->dedup, fb->ndedup);
	m->ndedup = fb->ndedup;
	m->useddedup = fb->useddedup;
	m->arena = fb->arena;
	m->arena_used = fb->arena ? fb->arena->used : 0;
	fb->mark = m;
}

void fact_base_rollback(struct fact_base *fb)
{
	const struct mark *m = fb->mark;

	if (!m)
		return;
	for (size_t i = m->n; i < fb->n; i++) {
		free(fb->facts[i]->fields);
		free(fb->facts[i]);
	}
	fb->n = m->n;
	for (size_t i = 0; i < m->n; i++)
		fb->facts[i]->nfields = m->nfields[i];
	free_slots(fb->slots, fb->nslots);
	fb->slots = slots_dup(m->slots, m->nslots);
	fb->nslots = m->nslots;
	fb->used = m->used;
	free_slots(fb->dedup, fb->ndedup);
	fb->dedup = slots_dup(m->dedup, m->ndedup);
	fb->ndedup = m->ndedup;
	fb->useddedup = m->useddedup;
	for (size_t i = m->nsources; i < fb->nsources; i++)
		free(fb->sources[i]);
	fb->nsources = m->nsources;
	/* rebuilt, not copied: a dropped name's probe chain must not stay */
	free(fb->srcidx);
	fb->srcidx = xcalloc(m->nsrcidx, sizeof(*fb->srcidx));
	fb->nsrcidx = m->nsrcidx;
	for (size_t i = 0; i < fb->nsources; i++)
		source_index_put(fb->srcidx, fb->nsrcidx, fb->sources[i],
				 (uint32_t)i);
	while (fb->arena != m->arena) {
		struct arena *next = fb->arena->next;

		free(fb->arena);
		fb->arena = next;
	}
	if (fb->arena)
		fb->arena->used = m->arena_used;
}

static struct prov make_prov(struct fact_base *fb, uint32_t src, uint32_t line,
			     const char *text, size_t len)
{
	struct prov p = { src, line, NULL };

	if (text) {
		if (len > PROV_TEXT_MAX)
			len = PROV_TEXT_MAX;
		while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
			len--;
		p.text = fact_base_strdup(fb, text, len);
	}
	return p;
}

struct fact *fact_base_begin(struct fact_base *fb, uint32_t kind, uint32_t src,
			     uint32_t line, const char *text, size_t textlen)
{
	struct fact *f = xcalloc(1, sizeof(*f));

	f->kind = kind;
	f->cf = 1.0;
	f->prov = make_prov(fb, src, line, text, textlen);
	return f;
}

void fact_base_abandon(struct fact_base *fb, struct fact *f)
{
	(void)fb;
	if (!f || f->committed)
		return;
	free(f->fields);
	free(f);
}

const struct field *fact_field(const struct fact *f, uint32_t name)
{
	for (uint32_t i = 0; i < f->nfields; i++)
		if (f->fields[i].name == name)
			return &f->fields[i];
	return NULL;
}

const struct value *fact_get(const struct fact *f, uint32_t name)
{
	const struct field *fl = fact_field(f, name);

	return fl ? &fl->v : NULL;
}

const char *fact_text(const struct fact *f, const char *name)
{
	uint32_t sym = sym_find(name, strlen(name));
	const struct value *v = sym ? fact_get(f, sym) : NULL;

	return v ? value_text(v) : NULL;
}

/* ---- value index ---- */

static uint64_t slot_hash(uint32_t kind, uint32_t field, const struct value *v)
{
	return hash_mix64(((uint64_t)kind << 32 | field) ^ value_hash(v));
}

static size_t find_slot(const struct slot *slots, size_t nslots, uint64_t h,
			uint32_t kind, uint32_t field, const struct value *v)
{
	size_t i = h & (nslots - 1);

	while (slots[i].ids) {
		const struct slot *s = &slots[i];

		if (s->hash == h && s->kind == kind && s->field == field &&
		    value_equal(&s->v, v))
			break;
		i = (i + 1) & (nslots - 1);
	}
	return i;
}

static void grow_table(struct slot **slots, size_t *nslots, size_t used)
{
	size_t n = *nslots ? *nslots * 2 : 4096;
	struct slot *t;

	if ((used + 1) * 4 < *nslots * 3)
		return;
	t = xcalloc(n, sizeof(*t));
	for (size_t i = 0; i < *nslots; i++) {
		struct slot *s = &(*slots)[i];
		size_t j;

		if (!s->ids)
			continue;
		j = s->hash & (n - 1);
		while (t[j].ids)
			j = (j + 1) & (n - 1);
		t[j] = *s;
	}
	free(*slots);
	*slots = t;
	*nslots = n;
}

static void slot_add(struct slot **slots, size_t *nslots, size_t *used,
		     uint32_t kind, uint32_t field, const struct value *v,
		     uint32_t id)
{
	uint64_t h = slot_hash(kind, field, v);
	struct slot *s;
	size_t i, cap;

	grow_table(slots, nslots, *used);
	i = find_slot(*slots, *nslots, h, kind, field, v);
	s = &(*slots)[i];
	if (!s->ids) {
		s->hash = h;
		s->kind = kind;
		s->field = field;
		s->v = *v;
		s->cap = 2;
		s->ids = xmalloc(s->cap * sizeof(*s->ids));
		(*used)++;
	}
	if (s->n && s->ids[s->n - 1] == id)
		return;
	cap = s->cap;
	xgrow(&s->ids, &cap, s->n + 1, sizeof(*s->ids));
	s->cap = (uint32_t)cap;
	s->ids[s->n++] = id;
}

static bool indexable(const struct value *v)
{
	return v->type != VALUE_LIST && v->type != VALUE_NONE;
}

static void index_field(struct fact_base *fb, const struct fact *f,
			const struct field *fl)
{
	if (indexable(&fl->v))
		slot_add(&fb->slots, &fb->nslots, &fb->used, f->kind, fl->name,
			 &fl->v, f->id);
}

static const uint32_t *lookup(const struct fact_base *fb, uint32_t kind,
			      uint32_t field, const struct value *v, size_t *n)
{
	size_t i;

	*n = 0;
	if (!fb->nslots)
		return NULL;
	i = find_slot(fb->slots, fb->nslots, slot_hash(kind, field, v), kind,
		      field, v);
	if (!fb->slots[i].ids)
		return NULL;
	*n = fb->slots[i].n;
	return fb->slots[i].ids;
}

const uint32_t *fact_base_of_kind(const struct fact_base *fb, uint32_t kind,
				  size_t *n)
{
	struct value none = value_none();

	return lookup(fb, kind, 0, &none, n);
}

const uint32_t *fact_base_lookup(const struct fact_base *fb, uint32_t kind,
				 uint32_t field, const struct value *v,
				 size_t *n)
{
	if (!indexable(v)) {
		*n = 0;
		return NULL;
	}
	return lookup(fb, kind, field, v, n);
}

/* ---- building facts ---- */

/* Most facts have a handful of fields, and a base may hold a few hundred
 * thousand facts: field arrays start small. */
#define FIELDS_FIRST 4

void fact_reserve(struct fact *f, size_t n)
{
	if (n <= f->cap)
		return;
	f->fields = xrealloc(f->fields, n * sizeof(*f->fields));
	f->cap = (uint32_t)n;
}

static void add_field(struct fact_base *fb, struct fact *f, uint32_t name,
		      struct value v, struct prov prov)
{
	struct field *fl;

	if (f->nfields == f->cap) {
		f->cap = f->cap ? 2 * f->cap : FIELDS_FIRST;
		f->fields = xrealloc(f->fields, f->cap * sizeof(*f->fields));
	}
	fl = &f->fields[f->nfields++];
	fl->name = name;
	fl->v = v;
	fl->prov = prov;
	if (f->committed)
		index_field(fb, f, fl);
}

int fact_put(struct fact_base *fb, struct fact *f, uint32_t name,
	     struct value v, uint32_t line, const char *text, size_t textlen)
{
	return fact_put_at(fb, f, name, v, f->prov.src, line, text, textlen);
}

int fact_put_at(struct fact_base *fb, struct fact *f, uint32_t name,
		struct value v, uint32_t src, uint32_t line, const char *text,
		size_t textlen)
{
	const struct vocab_kind *k = vocab_kind(f->kind);
	const struct vocab_field *vf = k ? vocab_field(k, name) : NULL;
	struct value typed = v;

	if (fact_field(f, name))
		return 0;
	if (vf && value_coerce(&v, vf->type, vf->vkind, &typed))
		return -EINVAL;
	add_field(fb, f, name, typed, make_prov(fb, src, line, text, textlen));
	return 0;
}

int fact_base_enrich(struct fact_base *fb, uint32_t id, uint32_t name,
		     struct value v, const struct prov *prov)
{
	struct fact *f = id && id <= fb->n ? fb->facts[id - 1] : NULL;
	const struct vocab_kind *k;
	const struct vocab_field *vf;
	struct value typed = v;
	struct prov p = { 0, 0, NULL };

	if (!f)
		return -ENOENT;
	if (fact_field(f, name))
		return -EEXIST;
	k = vocab_kind(f->kind);
	vf = k ? vocab_field(k, name) : NULL;
	if (vf && value_coerce(&v, vf->type, vf->vkind, &typed))
		return -EINVAL;
	if (prov)
		p = make_prov(fb, prov->src, prov->line, prov->text,
			      prov->text ? strlen(prov->text) : 0);
	add_field(fb, f, name, typed, p);
	return 0;
}

/* Moves fact id's entry in the index from its field's old value to
 * fl's new one, keeping each bucket's ids in the order of addition. */
static void reindex_field(struct fact_base *fb, const struct fact *f,
			  const struct field *fl, const struct value *old)
{
	struct slot *s;
	size_t i;

	if (indexable(old) && fb->nslots) {
		i = find_slot(fb->slots, fb->nslots,
			      slot_hash(f->kind, fl->name, old), f->kind,
			      fl->name, old);
		s = &fb->slots[i];
		for (uint32_t j = 0; s->ids && j < s->n; j++)
			if (s->ids[j] == f->id) {
				memmove(s->ids + j, s->ids + j + 1,
					(s->n - j - 1) * sizeof(*s->ids));
				s->n--;
				break;
			}
	}
	if (!indexable(&fl->v))
		return;
	index_field(fb, f, fl);
	i = find_slot(fb->slots, fb->nslots,
		      slot_hash(f->kind, fl->name, &fl->v), f->kind, fl->name,
		      &fl->v);
	s = &fb->slots[i];
	for (uint32_t j = s->n - 1; j > 0 && s->ids[j - 1] > s->ids[j]; j--) {
		uint32_t t = s->ids[j];

		s->ids[j] = s->ids[j - 1];
		s->ids[j - 1] = t;
	}
}

int fact_base_replace(struct fact_base *fb, uint32_t id, uint32_t name,
		      struct value v, const struct prov *prov)
{
	struct fact *f = id && id <= fb->n ? fb->facts[id - 1] : NULL;
	const struct vocab_kind *k;
	const struct vocab_field *vf;
	struct field *fl = NULL;
	struct value typed = v, old;

	if (!f)
		return -ENOENT;
	if (fb->mark && id <= fb->mark->n)
		return -EPERM; /* a rollback restores no value changed in place */
	for (uint32_t i = 0; i < f->nfields && !fl; i++)
		if (f->fields[i].name == name)
			fl = &f->fields[i];
	if (!fl)
		return -ENOENT;
	k = vocab_kind(f->kind);
	vf = k ? vocab_field(k, name) : NULL;
	if (vf && vf->key)
		return -EINVAL;
	if (vf && value_coerce(&v, vf->type, vf->vkind, &typed))
		return -EINVAL;
	old = fl->v;
	fl->v = typed;
	fl->prov = prov ? make_prov(fb, prov->src, prov->line, prov->text,
				    prov->text ? strlen(prov->text) : 0) :
			  (struct prov){ 0, 0, NULL };
	reindex_field(fb, f, fl, &old);
	return 0;
}

/* The fact with the same kind and key fields as f, or NULL. */
static struct fact *find_keyed(struct fact_base *fb, const struct fact *f)
{
	const struct vocab_kind *k = vocab_kind(f->kind);
	const struct vocab_field *first = NULL;
	const uint32_t *ids;
	size_t n;

	if (!k)
		return NULL;
	for (size_t i = 0; i < k->nfields; i++) {
		if (!k->fields[i].key)
			continue;
		if (!fact_field(f, k->fields[i].sym))
			return NULL;
		if (!first)
			first = &k->fields[i];
	}
	if (!first)
		return NULL;
	ids = lookup(fb, f->kind, first->sym, fact_get(f, first->sym), &n);
	for (size_t i = 0; i < n; i++) {
		struct fact *g = fb->facts[ids[i] - 1];
		bool same = true;

		for (size_t j = 0; same && j < k->nfields; j++) {
			const struct value *a, *b;

			if (!k->fields[j].key)
				continue;
			a = fact_get(f, k->fields[j].sym);
			b = fact_get(g, k->fields[j].sym);
			same = b && value_equal(a, b);
		}
		if (same)
			return g;
	}
	return NULL;
}

static uint64_t content_hash(const struct fact *f)
{
	uint64_t h = hash_mix64(f->kind);

	for (uint32_t i = 0; i < f->nfields; i++)
		h += hash_mix64(f->fields[i].name ^
				value_hash(&f->fields[i].v));
	return h;
}

static bool same_content(const struct fact *a, const struct fact *b)
{
	if (a->kind != b->kind || a->nfields != b->nfields)
		return false;
	for (uint32_t i = 0; i < a->nfields; i++) {
		const struct value *v = fact_get(b, a->fields[i].name);

		if (!v || !value_equal(v, &a->fields[i].v))
			return false;
	}
	return true;
}

/* A derived fact identical to f, or NULL. */
static struct fact *find_same(struct fact_base *fb, const struct fact *f,
			      struct value *key)
{
	size_t i;

	*key = value_int((int64_t)content_hash(f));
	if (!fb->ndedup)
		return NULL;
	i = find_slot(fb->dedup, fb->ndedup, slot_hash(0, 0, key), 0, 0, key);
	for (uint32_t j = 0; fb->dedup[i].ids && j < fb->dedup[i].n; j++) {
		struct fact *g = fb->facts[fb->dedup[i].ids[j] - 1];

		if (same_content(f, g))
			return g;
	}
	return NULL;
}

struct fact *fact_base_commit(struct fact_base *fb, struct fact *f, bool *added)
{
	struct fact *g = find_keyed(fb, f);
	struct value key;

	*added = false;
	if (g) {
		for (uint32_t i = 0; i < f->nfields; i++)
			if (!fact_field(g, f->fields[i].name))
				add_field(fb, g, f->fields[i].name,
					  f->fields[i].v, f->fields[i].prov);
		fact_base_abandon(fb, f);
		return g;
	}
	if (f->firing) {
		g = find_same(fb, f, &key);
		if (g) {
			fact_base_abandon(fb, f);
			return g;
		}
		slot_add(&fb->dedup, &fb->ndedup, &fb->useddedup, 0, 0, &key,
			 (uint32_t)fb->n + 1);
	}
	xgrow(&fb->facts, &fb->cap, fb->n + 1, sizeof(*fb->facts));
	fb->facts[fb->n++] = f;
	f->id = (uint32_t)fb->n;
	f->committed = true;
	{
		struct value none = value_none();

		slot_add(&fb->slots, &fb->nslots, &fb->used, f->kind, 0, &none,
			 f->id);
	}
	for (uint32_t i = 0; i < f->nfields; i++)
		index_field(fb, f, &f->fields[i]);
	*added = true;
	return f;
}

size_t fact_base_count(const struct fact_base *fb)
{
	return fb->n;
}

const struct fact *fact_base_get(const struct fact_base *fb, uint32_t id)
{
	return id && id <= fb->n ? fb->facts[id - 1] : NULL;
}
