/* Version strings compared by kind: firmware dotted numbers, OFED
 * version-release, kernel releases, with rpm's segment algorithm. */
#ifndef RD_VERSION_H
#define RD_VERSION_H

#define VERSION_KINDS(X)                                                      \
	X(GENERIC, "generic", "[epoch:]version[-release], rpm rules")         \
	X(FW, "fw", "firmware, dotted numbers such as 16.27.2000")            \
	X(OFED, "ofed", "MLNX_OFED/DOCA version-release such as 5.7-1.0.2.0") \
	X(KERNEL, "kernel", "kernel release such as 4.18.0-372.9.1.el8.x86_64")

enum version_kind {
#define X(id, name, doc) VERSION_##id,
	VERSION_KINDS(X)
#undef X
		VERSION_KIND_COUNT
};

const char *version_kind_to_str(enum version_kind kind);
/* Returns the kind named name, or -1. */
int version_kind_from_str(const char *name);

/* rpm's rpmvercmp on two bare version strings: -1, 0 or 1. */
int version_segcmp(const char *a, const char *b);

/* Compares a and b as versions of the given kind: -1, 0 or 1.
 * OFED and GENERIC split "[epoch:]version[-release]" at the last '-';
 * KERNEL first drops the architecture and flavour suffixes. */
int version_compare(const char *a, const char *b, enum version_kind kind);

/* Returns 1 when s looks like a version (starts with a digit after an
 * optional epoch), else 0. */
int version_plausible(const char *s);

#endif
