/* Fact files: the JSON form of a fact base ('rdmadoctor facts --json',
 * the facts a snapshot records), read back by the "facts" format. */
#ifndef RD_FACTFILE_H
#define RD_FACTFILE_H

#include <stdbool.h>

#include "engine/fact.h"
#include "engine/json.h"

/* {"facts": [{kind, fields, source, line, text, prov}]} for the facts that
 * keep accepts (all when keep is NULL).  Owned; json_free(). */
struct json *factfile_json(const struct fact_base *fb,
			   bool (*keep)(const struct fact *f));

#endif
