/* A shared library opened on its first use rather than at start.
 *
 * rdmadoctor needs libarchive only to read a bundle and libibverbs only on a
 * live host; linked at start, they and the 15 libraries they pull in
 * (libxml2, ICU, libstdc++, libnl, ...) cost every run 4 ms of CPU before
 * main() and 3.6 MiB of memory (`rdmadoctor --version`: 5.1 ms and 6.0 MiB
 * linked, 1.3 ms and 2.4 MiB opened on use).  Each user declares a table of its functions and calls
 * dynlib_open() before the first call: the library is opened once, every
 * function looked up, and a library that is missing or lacks a function is
 * an error message rather than a process that cannot start. */
#ifndef RD_DYNLIB_H
#define RD_DYNLIB_H

#include <pthread.h>
#include <stddef.h>

struct dynlib_sym {
	const char *name;
	void **slot; /* where the function's address goes */
};

struct dynlib {
	const char *soname; /* e.g. libarchive.so.13 */
	const char *version; /* the symbol version to bind, or NULL */
	const char *package; /* what to install when it is missing */
	const struct dynlib_sym *syms;
	size_t nsyms;
	pthread_once_t once;
	char error[320]; /* empty once opened */
};

#define DYNLIB_INIT(so, ver, pkg, table)                                       \
	{                                                                      \
		(so), (ver), (pkg), (table),                                   \
			sizeof(table) / sizeof((table)[0]), PTHREAD_ONCE_INIT, \
			""                                                     \
	}

/* NULL when the library is open and every function of its table found;
 * otherwise why not, naming the library and the package to install. */
const char *dynlib_open(struct dynlib *d);

#endif
