/* Required literals of a pattern, by a recursive descent over its text.
 *
 * Each part gets a set of strings one of which its every match holds, or
 * none ("top").  A run of literal characters is such a set of one; a
 * sequence takes the best set of any of its parts (its match holds the
 * match of each part); an alternation the union of its branches' sets,
 * and none if one branch has none; a repeat of at least one its atom's
 * set; an optional part none.  Classes, '.', escapes of a class,
 * back-references and assertions end a run and give none, except a
 * positive lookahead: the subject holds its match, so it gives its set.
 * Inside "(?i:...)" runs are kept in lower case and marked folded (they
 * hold in any case); 's' and 'k' end such a run, since in UTF mode
 * PCRE2 matches them caselessly to U+017F and U+212A too. */
#include "engine/factors.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

struct set {
	bool top; /* no set known */
	char **s;
	bool *fold; /* s[i] holds in any case */
	size_t n;
};

struct reader {
	const char *p;
	bool fail; /* a construct it does not read */
	bool fold; /* inside (?i:...) */
	int depth;
};

static void set_free(struct set *st)
{
	for (size_t i = 0; i < st->n; i++)
		free(st->s[i]);
	free(st->s);
	free(st->fold);
	st->s = NULL;
	st->fold = NULL;
	st->n = 0;
}

static struct set top(void)
{
	return (struct set){ true, NULL, NULL, 0 };
}

static size_t shortest(const struct set *st)
{
	size_t m = (size_t)-1;

	for (size_t i = 0; i < st->n; i++)
		if (strlen(st->s[i]) < m)
			m = strlen(st->s[i]);
	return m;
}

/* Whether a is the better set to test: longer shortest string, then
 * fewer strings. */
static bool better(const struct set *a, const struct set *b)
{
	size_t la, lb;

	if (a->top || !a->n)
		return false;
	if (b->top || !b->n)
		return true;
	la = shortest(a);
	lb = shortest(b);
	return la > lb || (la == lb && a->n < b->n);
}

/* Keeps the better of *best and cand, freeing the other. */
static void keep_better(struct set *best, struct set cand)
{
	if (better(&cand, best)) {
		set_free(best);
		*best = cand;
	} else {
		set_free(&cand);
	}
}

/* A run of literal bytes as a set of one, cut to FACTOR_LEN_MAX; folded
 * to lower case when it holds in any case. */
static struct set run_set(const char *run, size_t len, bool fold)
{
	struct set st = { false, xmalloc(sizeof(char *)), xmalloc(sizeof(bool)),
			  1 };

	st.s[0] = xstrndup(run, len < FACTOR_LEN_MAX ? len : FACTOR_LEN_MAX);
	st.fold[0] = fold;
	for (char *c = st.s[0]; fold && *c; c++)
		*c = (char)tolower((unsigned char)*c);
	return st;
}

/* Appends b's strings to a (an alternation's union); top when either is,
 * or when the union grows past FACTORS_MAX. */
static void set_union(struct set *a, struct set *b)
{
	if (a->top || b->top || a->n + b->n > FACTORS_MAX) {
		set_free(a);
		set_free(b);
		*a = top();
		return;
	}
	a->s = xrealloc(a->s, (a->n + b->n + 1) * sizeof(char *));
	a->fold = xrealloc(a->fold, (a->n + b->n + 1) * sizeof(bool));
	memcpy(a->s + a->n, b->s, b->n * sizeof(char *));
	memcpy(a->fold + a->n, b->fold, b->n * sizeof(bool));
	a->n += b->n;
	free(b->s);
	free(b->fold);
	b->s = NULL;
	b->fold = NULL;
	b->n = 0;
}

static struct set alternation(struct reader *r);

/* The least count of the quantifier at r->p, which it passes over (with
 * a lazy or possessive suffix), and in *rep whether there was one; 1 when
 * there is none.  A '{' that is no quantifier PCRE2 takes literally; this
 * reader gives up on it. */
static long quantifier(struct reader *r, bool *rep)
{
	long min = 1;
	char *end;

	*rep = true;
	switch (*r->p) {
	case '?':
	case '*':
		min = 0;
		r->p++;
		break;
	case '+':
		r->p++;
		break;
	case '{':
		if (!isdigit((unsigned char)r->p[1])) {
			r->fail = true;
			return 1;
		}
		min = strtol(r->p + 1, &end, 10);
		if (*end == ',') {
			end++;
			while (isdigit((unsigned char)*end))
				end++;
		}
		if (*end != '}') {
			r->fail = true;
			return 1;
		}
		r->p = end + 1;
		break;
	default:
		*rep = false;
		return 1;
	}
	if (*r->p == '?' || *r->p == '+')
		r->p++;
	return min;
}

/* Passes over a character class "[...]" at r->p. */
static void skip_class(struct reader *r)
{
	const char *p = r->p + 1;

	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	while (*p && *p != ']') {
		if (*p == '\\' && p[1]) {
			p += 2;
		} else if (*p == '[' && (p[1] == ':' || p[1] == '.' ||
					 p[1] == '=')) {
			/* PCRE2 reads "[:name:]" as a POSIX class only when
			 * no ']' comes first ("[[:]x]" is '[' and ':'): not
			 * worth following, so the pattern is not factored */
			r->fail = true;
			return;
		} else {
			p++;
		}
	}
	if (!*p) {
		r->fail = true;
		return;
	}
	r->p = p + 1;
}

/* What one atom is. */
enum atom_kind {
	ATOM_LITERAL, /* bytes lit[0..nlit) */
	ATOM_SET, /* a group, with its set */
	ATOM_OTHER, /* a class, '.', a back-reference: no literal */
	ATOM_ZERO, /* an assertion: matches no character */
};

struct atom {
	enum atom_kind kind;
	char lit[4];
	size_t nlit;
	struct set set;
};

/* An escape at r->p ('\\'): a literal punctuation character, a class, an
 * assertion, or a construct this reader gives up on. */
static void escape(struct reader *r, struct atom *a)
{
	char c = r->p[1];

	r->p += 2;
	if (!c) {
		r->fail = true;
	} else if (strchr("bBAzZG", c)) {
		a->kind = ATOM_ZERO;
	} else if (strchr("dDwWsShHvVRNX", c)) {
		a->kind = ATOM_OTHER;
	} else if (c >= '1' && c <= '9') {
		while (isdigit((unsigned char)*r->p))
			r->p++;
		a->kind = ATOM_OTHER;
	} else if (!isalnum((unsigned char)c) && !((unsigned char)c & 0x80)) {
		a->kind = ATOM_LITERAL;
		a->lit[0] = c;
		a->nlit = 1;
	} else {
		/* \x.. \p{..} \Q \K \g \k \c \e \n \0 \o{..}: not read */
		r->fail = true;
	}
}

/* A group at r->p ('('): its kind from what follows the parenthesis. */
static void group(struct reader *r, struct atom *a)
{
	const char *p = r->p + 1;
	bool look = false, fold = r->fold;

	if (p[0] == '?' && p[1] == 'J' && p[2] == ')') {
		/* duplicate group names allowed: nothing about matching */
		r->p = p + 3;
		a->kind = ATOM_ZERO;
		return;
	}
	if (*p == '?') {
		if (p[1] == ':' || p[1] == '>' || p[1] == '|') {
			p += 2;
		} else if (p[1] == 'i' && p[2] == ':') {
			r->fold = true;
			p += 3;
		} else if (p[1] == '=') {
			/* the subject holds the lookahead's match */
			p += 2;
		} else if (p[1] == '!') {
			look = true;
			p += 2;
		} else if (p[1] == '<' && (p[2] == '=' || p[2] == '!')) {
			look = true;
			p += 3;
		} else if ((p[1] == '<' || p[1] == '\'' ||
			    (p[1] == 'P' && p[2] == '<')) &&
			   (isalpha((unsigned char)p[p[1] == 'P' ? 3 : 2]) ||
			    p[p[1] == 'P' ? 3 : 2] == '_')) {
			char close = p[1] == '\'' ? '\'' : '>';

			p += p[1] == 'P' ? 3 : 2;
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			if (*p != close) {
				r->fail = true;
				return;
			}
			p++;
		} else {
			/* inline options, recursion, conditions, comments */
			r->fail = true;
			return;
		}
	} else if (*p == '*') {
		r->fail = true; /* (*VERB) */
		return;
	}
	if (++r->depth > FACTORS_DEPTH_MAX) {
		r->fail = true;
		return;
	}
	r->p = p;
	a->set = alternation(r);
	r->fold = fold;
	r->depth--;
	if (r->fail || *r->p != ')') {
		set_free(&a->set);
		r->fail = true;
		return;
	}
	r->p++;
	if (look) {
		set_free(&a->set);
		a->kind = ATOM_ZERO;
	} else {
		a->kind = ATOM_SET;
	}
}

/* The atom at r->p, which it passes over. */
static void atom(struct reader *r, struct atom *a)
{
	unsigned char c = (unsigned char)*r->p;

	*a = (struct atom){ ATOM_OTHER, { 0 }, 0, { true, NULL, NULL, 0 } };
	switch (c) {
	case '\\':
		escape(r, a);
		return;
	case '(':
		group(r, a);
		return;
	case '[':
		skip_class(r);
		return;
	case '.':
		r->p++;
		return;
	case '^':
	case '$':
		a->kind = ATOM_ZERO;
		r->p++;
		return;
	case '*':
	case '+':
	case '?':
	case '{':
		r->fail = true;
		return;
	default:
		break;
	}
	/* caseless, 's' and 'k' match U+017F and U+212A too, and a
	 * multibyte character its other case, which the folded literal set
	 * (ASCII only) does not: neither is a factor */
	if (r->fold && (c >= 0x80 || strchr("sSkK", c))) {
		r->p++;
		while (c >= 0xc0 && ((unsigned char)*r->p & 0xc0) == 0x80)
			r->p++;
		return;
	}
	/* one character: in UTF mode a multibyte one is one atom */
	a->kind = ATOM_LITERAL;
	a->lit[a->nlit++] = (char)c;
	r->p++;
	while (c >= 0xc0 && a->nlit < sizeof(a->lit) &&
	       ((unsigned char)*r->p & 0xc0) == 0x80)
		a->lit[a->nlit++] = *r->p++;
}

/* Ends the run of literal bytes: a candidate set of one. */
static void flush(struct set *best, const char *run, size_t *nrun, bool fold)
{
	if (*nrun)
		keep_better(best, run_set(run, *nrun, fold));
	*nrun = 0;
}

/* The set of a sequence, up to '|', ')' or the end. */
static struct set sequence(struct reader *r)
{
	struct set best = top();
	char run[FACTOR_LEN_MAX];
	size_t nrun = 0;

	while (*r->p && *r->p != '|' && *r->p != ')' && !r->fail) {
		struct atom a;
		bool rep;
		long min;

		atom(r, &a);
		if (r->fail) {
			set_free(&a.set);
			break;
		}
		min = quantifier(r, &rep);
		/* a literal character goes on the run; a repeated one ends
		 * it, an optional one ends it before, anything else too */
		if (a.kind == ATOM_LITERAL && min > 0) {
			if (nrun + a.nlit > sizeof(run))
				flush(&best, run, &nrun, r->fold);
			memcpy(run + nrun, a.lit, a.nlit);
			nrun += a.nlit;
		}
		if (a.kind != ATOM_LITERAL || rep)
			flush(&best, run, &nrun, r->fold);
		if (a.kind == ATOM_SET && min > 0)
			keep_better(&best, a.set);
		else
			set_free(&a.set);
	}
	flush(&best, run, &nrun, r->fold);
	return best;
}

/* The set of branches separated by '|', up to ')' or the end. */
static struct set alternation(struct reader *r)
{
	struct set all = sequence(r);

	while (*r->p == '|' && !r->fail) {
		struct set b;

		r->p++;
		b = sequence(r);
		set_union(&all, &b);
	}
	return all;
}

bool factors_of(const char *pattern, struct factors *out)
{
	struct reader r = { pattern, false, false, 0 };
	struct set st = alternation(&r);

	out->s = NULL;
	out->fold = NULL;
	out->n = 0;
	if (r.fail || *r.p || st.top || !st.n ||
	    shortest(&st) < FACTOR_LEN_MIN) {
		set_free(&st);
		return false;
	}
	out->s = st.s;
	out->fold = st.fold;
	out->n = st.n;
	return true;
}

void factors_release(struct factors *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->s[i]);
	free(f->s);
	free(f->fold);
	f->s = NULL;
	f->fold = NULL;
	f->n = 0;
}
