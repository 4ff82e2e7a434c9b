/* Port state spellings of ibstat, ibstatus, sysfs, ibv_devinfo and rdma. */
#include "collectors/parsers/port_state.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "engine/xalloc.h"

struct spelling {
	const char *word; /* lowercase, without spaces, '_' or '-' */
	const char *name;
};

/* The numbers are the IBTA encodings sysfs and ibstatus print first. */
static const struct spelling states[] = {
	{ "1", "DOWN" },
	{ "down", "DOWN" },
	{ "2", "INIT" },
	{ "init", "INIT" },
	{ "initializing", "INIT" },
	{ "initialize", "INIT" },
	{ "3", "ARMED" },
	{ "armed", "ARMED" },
	{ "4", "ACTIVE" },
	{ "active", "ACTIVE" },
	{ "5", "ACTIVE" },
	{ "activedefer", "ACTIVE" },
};

static const struct spelling phys_states[] = {
	{ "1", "SLEEP" },
	{ "sleep", "SLEEP" },
	{ "2", "POLLING" },
	{ "polling", "POLLING" },
	{ "3", "DISABLED" },
	{ "disabled", "DISABLED" },
	{ "4", "TRAINING" },
	{ "portconfigurationtraining", "TRAINING" },
	{ "training", "TRAINING" },
	{ "5", "LINKUP" },
	{ "linkup", "LINKUP" },
	{ "6", "ERROR_RECOVERY" },
	{ "linkerrorrecovery", "ERROR_RECOVERY" },
	{ "errorrecovery", "ERROR_RECOVERY" },
	{ "7", "PHY_TEST" },
	{ "phytest", "PHY_TEST" },
};

/* Folds "4: ACTIVE", "PORT_ACTIVE (4)" and "Link Up" to "active"/"linkup":
 * takes the name after a "N:" prefix, drops a "PORT_" prefix and a "(N)"
 * suffix, lowercases, and removes spaces, '_' and '-'. */
static void fold(const char *s, size_t n, char *out, size_t size)
{
	const char *colon = memchr(s, ':', n), *paren;
	size_t o = 0;

	if (colon) {
		n -= (size_t)(colon + 1 - s);
		s = colon + 1;
	}
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	if (n > 5 && !strncasecmp(s, "PORT_", 5)) {
		s += 5;
		n -= 5;
	}
	paren = memchr(s, '(', n);
	if (paren && paren > s)
		n = (size_t)(paren - s);
	for (size_t i = 0; i < n && o + 1 < size; i++) {
		unsigned char c = (unsigned char)s[i];

		if (isspace(c) || c == '_' || c == '-')
			continue;
		out[o++] = (char)tolower(c);
	}
	out[o] = '\0';
}

static const char *lookup(const struct spelling *t, size_t n, const char *s,
			  size_t len)
{
	char word[48];

	fold(s, len, word, sizeof(word));
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i].word, word))
			return t[i].name;
	return NULL;
}

const char *port_state_norm(const char *s, size_t n)
{
	return lookup(states, ARRAY_SIZE(states), s, n);
}

const char *phys_state_norm(const char *s, size_t n)
{
	return lookup(phys_states, ARRAY_SIZE(phys_states), s, n);
}
