/* The rule model: what a loaded rule file becomes, and the rule set that
 * holds every rule, question and overlay. */
#ifndef RD_RULE_H
#define RD_RULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "engine/diag.h"
#include "engine/template.h"
#include "engine/value.h"

/* The rule language version this build understands. */
#define RULE_LANGUAGE_VERSION 1

#define RULE_LAYERS(X)                                                         \
	X(HARDWARE, "hardware", "HCA/RNIC, port, cable or module, PCIe link")  \
	X(FIRMWARE, "firmware", "microcode on the adapter")                    \
	X(DRIVER, "driver", "vendor driver: mlx5_core, mlx4_core, irdma, ...") \
	X(KERNEL_MODULE, "kernel_module",                                      \
	  "ib_core, ib_uverbs, rdma_cm, ib_umad; kernel config")               \
	X(VERBS, "verbs",                                                      \
	  "libibverbs and providers, rdma_cm, device files, limits, containers")

enum layer {
#define X(id, name, doc) LAYER_##id,
	RULE_LAYERS(X)
#undef X
		LAYER_COUNT
};

/* X(ID, name, weight, tone): tone is how a report shows the severity
 * (NONE, YELLOW or RED: cli/term.h's colours by name). */
#define RULE_SEVERITIES(X)                 \
	X(INFO, "info", 0.2, NONE)         \
	X(WARNING, "warning", 0.5, YELLOW) \
	X(ERROR, "error", 0.8, RED)        \
	X(CRITICAL, "critical", 1.0, RED)

enum severity {
#define X(id, name, weight, tone) SEVERITY_##id,
	RULE_SEVERITIES(X)
#undef X
		SEVERITY_COUNT
};

/* Condition operators: the YAML keyword, the operand it takes, and what it
 * does.  rules/README.md documents each one (a test checks). */
#define RULE_OPS(X)                                                           \
	X(EQ, "eq", "value or $var",                                          \
	  "field equals the operand; an unbound $var is bound")               \
	X(NE, "ne", "value or $var", "field differs from the operand")        \
	X(LT, "lt", "value, $var or \"$var * k\"",                            \
	  "field is less than the operand (versions compare by kind)")        \
	X(LE, "le", "value, $var or \"$var * k\"",                            \
	  "field is less than or equal to the operand")                       \
	X(GT, "gt", "value, $var or \"$var * k\"",                            \
	  "field is greater than the operand")                                \
	X(GE, "ge", "value, $var or \"$var * k\"",                            \
	  "field is greater than or equal to the operand")                    \
	X(MATCH, "match", "PCRE2 pattern",                                    \
	  "field matches the regex; named groups (?<x>...) bind $x")          \
	X(NOT_MATCH, "not_match", "PCRE2 pattern",                            \
	  "field does not match the regex")                                   \
	X(IN, "in", "list", "field equals one of the listed values")          \
	X(NOT_IN, "not_in", "list", "field equals none of the listed values") \
	X(CONTAINS, "contains", "value or $var",                              \
	  "list field holds the operand")                                     \
	X(ADMITS, "admits", "value or $var",                                  \
	  "field, the filter a listing was taken with (a PCRE2 pattern), "    \
	  "matches the operand: the listing would have shown it")             \
	X(EXISTS, "exists", "true or false",                                  \
	  "the field is present (true) or absent (false)")                    \
	X(BIND, "bind", "$var",                                               \
	  "binds the field's value to $var (or joins when bound)")

enum rule_op {
#define X(id, name, operand, doc) OP_##id,
	RULE_OPS(X)
#undef X
		OP_COUNT
};

const char *layer_to_str(enum layer l);
/* What lives in layer l (RULE_LAYERS' doc), for reports. */
const char *layer_doc(enum layer l);
int layer_from_str(const char *s);
const char *severity_to_str(enum severity s);
int severity_from_str(const char *s);
double severity_weight(enum severity s);
const char *rule_op_to_str(enum rule_op op);
int rule_op_from_str(const char *s);

/* "$var", "$var * 0.9" or a constant. */
enum operand_type {
	OPERAND_NONE,
	OPERAND_CONST,
	OPERAND_VAR,
};

struct operand {
	enum operand_type type;
	struct value v; /* OPERAND_CONST; lists for in/not_in */
	int var; /* OPERAND_VAR: variable slot */
	char arith; /* 0 or one of * / + - */
	double k; /* the constant of arith */
};

struct regex;

struct test {
	enum rule_op op;
	uint32_t field; /* symbol */
	struct operand rhs;
	struct regex *re; /* MATCH, NOT_MATCH */
	char *pattern; /* the regex as written, for explanations */
	int ncaptures; /* named groups that bind variables */
	int *capture_group;
	int *capture_var;
	int line, col;
};

enum pattern_type {
	PATTERN_MATCH, /* a fact must match; binds variables */
	PATTERN_NOT, /* no fact may match */
	PATTERN_EXISTS, /* some fact matches; binds nothing outside */
};

struct pattern {
	enum pattern_type type;
	uint32_t kind; /* symbol */
	struct test *tests;
	size_t ntests;
	int line, col;
};

struct assert_field {
	uint32_t field;
	bool is_template;
	struct operand value; /* when !is_template */
	struct template tmpl; /* when is_template */
};

struct assertion {
	uint32_t kind;
	struct assert_field *fields;
	size_t nfields;
	int line, col;
};

struct rule {
	char *id;
	char *title;
	char *description;
	enum layer layer;
	enum severity severity;
	double confidence; /* -1..1; negative evidence lowers a diagnosis */
	int salience;
	char *file;
	int line, col;
	int origin_level; /* 0 shipped, higher for overlays */
	char *overrides; /* "file:line" of the rule this one replaced, or NULL */
	char **sources;
	size_t nsources;
	char **tags;
	size_t ntags;

	struct pattern *patterns;
	size_t npatterns;
	size_t npositive; /* PATTERN_MATCH count */
	int *plan; /* evaluation order of the PATTERN_MATCH patterns */
	char **vars; /* variable names, by slot */
	size_t nvars;
	bool *var_bound; /* bound by the PATTERN_MATCH conditions */
	size_t nvar_bound; /* variables var_bound knows; later ones are not */
	struct value_list **lists; /* constant lists the tests own */
	size_t nlists;

	bool diagnoses; /* has a diagnose action */
	char *diag_id; /* diagnosis id; the rule id when not given */
	struct template message;
	struct template about; /* merge key; empty = the message */
	struct template *remediation;
	size_t nremediation;
	char **explains;
	size_t nexplains;
	int *explains_at; /* line, col of each explains entry */

	struct assertion *asserts;
	size_t nasserts;
	char **asks; /* question ids */
	size_t nasks;
	int *asks_at; /* line, col of each ask entry */
};

struct choice {
	char *value;
	char *label;
};

struct question {
	char *id;
	char *prompt;
	struct choice *choices;
	size_t nchoices;
	char *def; /* default value */
	char *why; /* what the answer changes */
	bool first; /* asked before anything else (a symptom that steers) */
	char *file;
	int line;
};

struct rule_set;

struct rule_set *rule_set_new(void);
void rule_set_free(struct rule_set *rs);

/* Records that fact files (facts=FILE) supply facts of a kind outside the
 * vocabulary with the given field (a rule file's 'kinds'), so that rules
 * may test them although no rule asserts them. */
void rule_set_declare_kind(struct rule_set *rs, uint32_t kind, uint32_t field);
/* Whether a rule file declared kind and (field not 0) that field. */
bool rule_set_declares(const struct rule_set *rs, uint32_t kind,
		       uint32_t field);
/* Checks what spans files: explains naming unknown diagnoses, asks naming
 * unknown questions, conditions on kinds nothing supplies.  Returns 0 or
 * -EINVAL. */
int rule_set_check(struct rule_set *rs, struct diag *d);

/* What lint asks beyond loading, as warnings: a diagnosis without a
 * remediation, a rule without sources. */
void rule_set_lint(const struct rule_set *rs, struct diag *d);

size_t rule_set_count(const struct rule_set *rs);
const struct rule *rule_set_at(const struct rule_set *rs, size_t i);
const struct rule *rule_set_find(const struct rule_set *rs, const char *id);
/* The index (for rule_set_at) of the rule with this id, or -1; a hash
 * lookup. */
ssize_t rule_set_index(const struct rule_set *rs, const char *id);
/* Rules removed by "disabled: true" overlays, with where that was said. */
size_t rule_set_disabled_count(const struct rule_set *rs);
/* Where the rule id was disabled ("file:line"), or NULL when it was not. */
const char *rule_set_disabled_where(const struct rule_set *rs, const char *id);
const char *rule_set_disabled_at(const struct rule_set *rs, size_t i,
				 const char **where);
size_t rule_set_question_count(const struct rule_set *rs);
const struct question *rule_set_question_at(const struct rule_set *rs,
					    size_t i);
const struct question *rule_set_question(const struct rule_set *rs,
					 const char *id);
/* Whether some rule diagnoses the id. */
bool rule_set_has_diagnosis(const struct rule_set *rs, const char *id);

/* Internal to the loader: adds a parsed rule or question. */
int rule_set_add(struct rule_set *rs, struct rule *r, struct diag *d);
int rule_set_add_question(struct rule_set *rs, struct question *q,
			  struct diag *d);
int rule_set_disable(struct rule_set *rs, const char *id, int origin_level,
		     const char *where);
void rule_free(struct rule *r);
void question_free(struct question *q);

#endif
