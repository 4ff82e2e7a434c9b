/* A shared library opened on its first use (see dynlib.h). */
#include "engine/dynlib.h"

#include <dlfcn.h>
#include <stdio.h>

/* pthread_once takes no argument: the library being opened is passed
 * through this, under the once's own lock. */
static __thread struct dynlib *opening;

static void open_once(void)
{
	struct dynlib *d = opening;
	void *h = dlopen(d->soname, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		snprintf(d->error, sizeof(d->error),
			 "%s cannot be loaded (%s): install %s", d->soname,
			 dlerror(), d->package);
		return;
	}
	for (size_t i = 0; i < d->nsyms; i++) {
		void *p = d->version ? dlvsym(h, d->syms[i].name, d->version) :
				       dlsym(h, d->syms[i].name);

		if (!p) {
			snprintf(d->error, sizeof(d->error),
				 "%s lacks %s%s%s: install %s", d->soname,
				 d->syms[i].name, d->version ? "@" : "",
				 d->version ? d->version : "", d->package);
			for (size_t j = 0; j < i; j++)
				*d->syms[j].slot = NULL;
			dlclose(h);
			return;
		}
		*d->syms[i].slot = p;
	}
}

const char *dynlib_open(struct dynlib *d)
{
	opening = d;
	pthread_once(&d->once, open_once);
	return d->error[0] ? d->error : NULL;
}
