/* Interned strings: each distinct string gets a small integer id, so that
 * kinds, field names and string values compare and hash as integers. */
#ifndef RD_SYMBOL_H
#define RD_SYMBOL_H

#include <stddef.h>
#include <stdint.h>

/* Returns the id of the string s[0..len), interning it on first use.
 * Ids start at 1; 0 never names a string.  The table is process-wide and
 * only grows: an id, once given, names its string for the life of the
 * process, so that tables keyed by ids (the vocabulary's index, rules'
 * compiled kinds and fields) stay right for a second analysis in the
 * same process (the guide's re-check, a batch worker).  There is no
 * reset, since one would leave those tables naming other strings. */
uint32_t sym_intern(const char *s, size_t len);
uint32_t sym_intern_cstr(const char *s);
/* Returns the id of s if it was interned, else 0.  Never adds. */
uint32_t sym_find(const char *s, size_t len);
/* The string of an id: NUL-terminated, valid for the life of the process. */
const char *sym_str(uint32_t id);
size_t sym_len(uint32_t id);
uint32_t sym_hash(uint32_t id);

/* FNV-1a, used wherever strings are hashed. */
uint32_t hash_bytes(const void *p, size_t n);
uint64_t hash_mix64(uint64_t x);

#endif
