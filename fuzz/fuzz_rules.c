/* libFuzzer target: the rule loader (YAML, conditions, templates,
 * regexes, variable analysis) and, for what loads, the engine run over a
 * small host: matching, chaining, the firing cap, regex match limits. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "engine/diag.h"
#include "engine/engine.h"
#include "engine/fact.h"
#include "engine/rule.h"
#include "engine/rule_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A host for the rules to match: one adapter, one port, two modules, a
 * kernel-log line. */
static const char ibstat[] = "CA 'mlx5_0'\n"
			     "\tCA type: MT4119\n"
			     "\tFirmware version: 16.26.1040\n"
			     "\tPort 1:\n"
			     "\t\tState: Active\n"
			     "\t\tPhysical state: LinkUp\n"
			     "\t\tRate: 40\n"
			     "\t\tLink layer: InfiniBand\n";
static const char lsmod[] = "Module                  Size  Used by\n"
			    "mlx5_ib               405504  0\n"
			    "ib_core               417792  1 mlx5_ib\n";
static const char dmesg[] =
	"[   12.345678] mlx5_core 0000:19:00.0: cmd_work_handler:877:(pid 1): "
	"timeout. Will cause a leak of a command resource\n";

static void parse(struct fact_base *fb, const char *format, const char *text)
{
	struct emit e;

	emit_init(&e, fb, format);
	format_find(format)->parse(&e, text, strlen(text), NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rule_set *rs = rule_set_new();
	struct diag *d = diag_new();
	struct fact_base *fb;
	struct engine *e;

	if (rule_set_load_string(rs, "fuzz.yaml", (const char *)data, size, 0,
				 d) ||
	    rule_set_check(rs, d))
		goto out;
	fb = fact_base_new();
	parse(fb, "ibstat", ibstat);
	parse(fb, "lsmod", lsmod);
	parse(fb, "dmesg", dmesg);
	e = engine_new(rs, fb, d);
	engine_set_max_firings(e, 1000);
	engine_run(e);
	engine_free(e);
	fact_base_free(fb);
out:
	diag_free(d);
	rule_set_free(rs);
	return 0;
}
