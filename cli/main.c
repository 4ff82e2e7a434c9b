/* rdmadoctor: the command table and the top-level help. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "cli/commands.h"
#include "cli/deadline.h"
#include "cli/options.h"
#include "cli/term.h"
#include "collectors/parsers/formats.h"
#include "engine/xalloc.h"

/* A command: its name, what runs it (NULL when it has subcommands), its
 * usage and help, the options it accepts beyond OPTS_GLOBAL, and its
 * subcommands. */
struct command_entry {
	const char *name;
	int (*run)(struct options *o);
	const char *usage;
	const char *help;
	option_set accepts;
	const struct command_entry *sub;
	size_t nsub;
};

/* --redact and where its mapping goes. */
#define OPTS_REDACT (OPT(REDACT) | OPT(REDACT_MAP))
/* Options of every command that runs an analysis. */
#define OPTS_ANALYSIS                                                   \
	(OPT(RULES) | OPT(ANSWER) | OPT(ANSWERS) | OPT(TIMEOUT) | OPT(JSON) | \
	 OPT(DEADLINE))
#define OPTS_GUIDE                                                            \
	(OPTS_ANALYSIS | OPT(PRETTY) | OPT(EXPLAIN) | OPT(ROOT) | OPT(SAVE) | \
	 OPT(PERFTEST) | OPT(SAMPLE_INTERVAL))
#define OPTS_CHECK                                                 \
	(OPTS_GUIDE | OPT(NHC) | OPT(HTML) | OPT(MARKDOWN) | OPTS_REDACT | \
	 OPT(WHY_NOT))
#define OPTS_ANALYZE \
	(OPTS_ANALYSIS | OPT(PRETTY) | OPT(EXPLAIN) | OPT(SAVE) | OPT(HTML) | \
	 OPT(MARKDOWN) | OPTS_REDACT | OPT(WHY_NOT))

static const struct command_entry rules_commands[] = {
	{ "list", cmd_rules_list, "rules list [--origin]",
	  "Show the effective rule set: id, layer, severity and title of each\n"
	  "  rule; --origin adds the file each rule comes from, and the overlays\n"
	  "  that disabled rules.\n"
	  "  Example: rdmadoctor rules list --origin",
	  OPT(JSON) | OPT(PRETTY) | OPT(ORIGIN) | OPT(RULES), NULL, 0 },
	{ "lint", cmd_rules_lint, "rules lint [PATH...]",
	  "Check the shipped rules and knowledge base plus the given rule files\n"
	  "  or directories, and report each problem as file:line:col with the\n"
	  "  offending line (exit 3 on an error).\n"
	  "  Example: rdmadoctor rules lint /etc/rdmadoctor/rules.d",
	  OPT(JSON) | OPT(PRETTY) | OPT(RULES), NULL, 0 },
	{ "test", cmd_rules_test, "rules test [PATH...]",
	  "Run the rule tests (NAME.test.yaml beside the rules; none given: the\n"
	  "  shipped ones), one line per case, then 'N passed, N failed' (exit 1\n"
	  "  on a failure); a directory's tests must also see each of its rules\n"
	  "  fire.  rules/README.md is the guide, with a tutorial.\n"
	  "  Example: rdmadoctor rules test /etc/rdmadoctor/rules.d",
	  OPT(RULES) | OPT(TIMEOUT), NULL, 0 },
	{ "reference", cmd_rules_reference, "rules reference",
	  "Print the operators, layers, severities and fact vocabulary rules can\n"
	  "  use, as the Markdown of rules/README.md's reference part.",
	  0, NULL, 0 },
};

static const struct command_entry commands[] = {
	{ "guide", cmd_guide,
	  "guide [--root DIR] [PATH...] [--answers FILE] [--save FILE]",
	  "A guided session on a terminal: gathers the evidence, walks the five\n"
	  "  layers bottom-up (what was found, each check, the layer's verdict), asks\n"
	  "  only what the machine cannot tell (the symptom, the expected link rate, a\n"
	  "  recent change, containers), then ranks the causes with what to do.  Pick\n"
	  "  a cause to see its evidence and reasoning; 'r' re-checks after a fix and\n"
	  "  shows what changed.  --answers FILE (YAML or JSON, 'question: answer')\n"
	  "  and --answer Q=V answer questions beforehand; --save FILE writes the\n"
	  "  evidence and the answers for a ticket ('analyze FILE' reproduces the\n"
	  "  diagnosis).  Without a terminal (or with --json) it runs as 'check', or\n"
	  "  as 'analyze' when paths are given.  'rdmadoctor' alone on a terminal\n"
	  "  starts it.\n"
	  "  Example: rdmadoctor guide\n"
	  "           rdmadoctor guide --root tests/fixtures/cx5-fw-mismatch/root",
	  OPTS_GUIDE | OPTS_REDACT, NULL, 0 },
	{ "check", cmd_check,
	  "check [--root DIR] [--timeout SEC] [--sample-interval SEC] [--perftest]\n"
	  "  [--nhc] [--html FILE]",
	  "Diagnose this host, or the directory snapshot given with --root.\n"
	  "  Reads /sys, /proc and the kernel config, asks libibverbs for devices and\n"
	  "  runs read-only tools (ibstat, ethtool -i, ...) with a timeout (default\n"
	  "  10 s); a tool that hangs is killed and reported as such.  It only reads,\n"
	  "  except that --perftest also runs a 2-second loopback ib_write_bw on the\n"
	  "  first active port (server and client on this host).\n"
	  "  The RDMA counters (/sys/class/infiniband/*/ports/*/counters and\n"
	  "  hw_counters) are read twice, --sample-interval seconds apart (default 3;\n"
	  "  0 reads them once), so that counters that grow now (retransmissions,\n"
	  "  congestion notifications) tell from counts left over since boot.  With\n"
	  "  --root or --nhc they are read once unless --sample-interval is given.\n"
	  "  Both readings come before --perftest's test, whose own traffic would\n"
	  "  count as the host's.\n"
	  "  --html FILE also writes the report as a page: the five-layer stack\n"
	  "  coloured by status, and the ranked diagnoses.  --nhc prints nothing on a\n"
	  "  healthy host and, on a fault (a diagnosis of severity error or worse),\n"
	  "  NHC's one-line failure 'ERROR:  nhc:  Health check failed:  ...' with exit\n"
	  "  code 1, for use as an NHC check or a Slurm HealthCheckProgram (see\n"
	  "  contrib/nhc/).\n"
	  "  Example: rdmadoctor check\n"
	  "           rdmadoctor check --root tests/fixtures/healthy-cx5/root --json\n"
	  "           rdmadoctor check --nhc --timeout 5",
	  OPTS_CHECK, NULL, 0 },
	{ "analyze", cmd_analyze,
	  "analyze PATH... [--html FILE] (a path may be KIND=FILE)",
	  "Diagnose one host from its evidence, offline: a sosreport (a directory, or\n"
	  "  a .tar.xz, .tar.gz or .tar.bz2 read in place), a sysinfo-snapshot, a\n"
	  "  snapshot from 'collect', a directory snapshot, and loose command outputs\n"
	  "  pasted into a ticket.  The kind of a loose file is detected from its\n"
	  "  content; KIND=FILE names it (the kinds are listed below).\n"
	  "  --html FILE also writes the report as a self-contained page.\n"
	  "  --why-not lists the rules at warning or above that came nearest to\n"
	  "  firing without firing: the conditions that held, the first one no\n"
	  "  fact met, and the facts nearest it with the tests each fails;\n"
	  "  --why-not=ID[,ID...] does so for the rules (or diagnoses) named.\n"
	  "  Example: rdmadoctor analyze sosreport-node07.tar.xz ib_write_bw.txt\n"
	  "           rdmadoctor analyze ibstat=paste.txt\n"
	  "           rdmadoctor analyze --html node07.html sosreport-node07.tar.xz",
	  OPTS_ANALYZE, NULL, 0 },
	{ "batch", cmd_batch,
	  "batch PATH... [--jobs N] [--json] [--html FILE] [--timeout SEC]\n"
	  "  batch --merge FILE...",
	  "Diagnose many hosts, one bundle each: sosreports (directories or\n"
	  "  tarballs), snapshots from 'collect', sysinfo-snapshots, directory\n"
	  "  snapshots.  A PATH is a bundle, a directory of bundles, or a file listing\n"
	  "  bundle paths one per line ('-': standard input).  Bundles are analysed in\n"
	  "  parallel worker processes (--jobs, default one per processor), each\n"
	  "  stopped after --timeout seconds (default 300).  Prints a line per host in\n"
	  "  input order (--json: the 'analyze --json' object of each host, one per\n"
	  "  line), then the fleet summary: each diagnosis with its host count and\n"
	  "  hosts, the firmware versions of each adapter family across the fleet, and\n"
	  "  the bundles that could not be read, with the reason.  On a terminal a\n"
	  "  progress bar shows done/total, rate and ETA.  --html FILE also writes\n"
	  "  the summary as a page with charts.  Exit code: 3 a host's rules failed\n"
	  "  at run time, 2 a bundle could not be read, 1 a host has a diagnosis at\n"
	  "  warning or above, 0 none.  --merge FILE... joins the fleet summaries\n"
	  "  of earlier 'batch --json' runs, such as the shards of a job array\n"
	  "  (contrib/slurm/batch-array.sbatch).  --redact masks every host's line\n"
	  "  and the summary with one token per value across the fleet.\n"
	  "  Example: rdmadoctor batch /cases/4711/sosreports/\n"
	  "           find /cases -name 'sosreport-*.tar.xz' | rdmadoctor batch --json - > fleet.jsonl\n"
	  "           rdmadoctor batch --jobs 8 --html fleet.html bundles.list\n"
	  "           rdmadoctor batch --merge --html fleet.html fleet-shard-*.jsonl",
	  OPTS_ANALYSIS | OPT(EXPLAIN) | OPT(HTML) | OPT(MARKDOWN) | OPT(JOBS) |
		  OPT(MERGE) | OPTS_REDACT,
	  NULL, 0 },
	{ "collect", cmd_collect,
	  "collect [-o FILE] [--root DIR] [--timeout SEC] [--perftest] [--redact]",
	  "Record what 'check' reads on this host -- the sysfs RDMA tree, /proc,\n"
	  "  module versions, kernel config and log, the output of each tool it runs,\n"
	  "  and the libibverbs results -- into a .tar.gz in sosreport layout, for a\n"
	  "  support engineer to diagnose offline.  It only reads the system; every\n"
	  "  command runs with the timeout.  FILE defaults to\n"
	  "  rdmadoctor-<host>-<UTC time>.tar.gz in the current directory.  With\n"
	  "  --redact every file in it is masked as reports are (the host name,\n"
	  "  addresses, GUIDs, serial numbers, user names), and so is its name.\n"
	  "  Example: rdmadoctor collect -o /tmp/node07.tar.gz\n"
	  "           rdmadoctor collect --redact --redact-map map.tsv\n"
	  "           rdmadoctor analyze /tmp/node07.tar.gz",
	  OPT(JSON) | OPT(PRETTY) | OPT(OUTPUT) | OPT(ROOT) | OPT(TIMEOUT) |
		  OPT(PERFTEST) | OPT(RULES) | OPT(DEADLINE) | OPTS_REDACT,
	  NULL, 0 },
	{ "facts", cmd_facts, "facts [--root DIR] [PATH...]",
	  "Print the fact base the rules would see: collected facts with the file and\n"
	  "  line they came from, and the knowledge base.  No path means this host.\n"
	  "  Example: rdmadoctor facts --json sosreport-node07/",
	  OPTS_ANALYSIS | OPT(PRETTY) | OPT(ROOT) | OPT(PERFTEST), NULL, 0 },
	{ "rules", NULL, "rules list|lint|test|reference ...",
	  "For rule authors: 'rules list', 'rules lint', 'rules test' and 'rules\n"
	  "  reference' (rdmadoctor rules COMMAND --help says more of each).\n"
	  "  rules/README.md is the guide, with a tutorial.",
	  0, rules_commands, ARRAY_SIZE(rules_commands) },
	{ "explain", cmd_explain, "explain RULE-ID",
	  "Say what a rule looks at, why it matters, its remediation and its sources.\n"
	  "  Example: rdmadoctor explain fw-below-driver-minimum",
	  OPT(JSON) | OPT(PRETTY) | OPT(RULES), NULL, 0 },
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: rdmadoctor COMMAND [OPTIONS] [ARGS]\n"
		"\n"
		"rdmadoctor diagnoses the RDMA stack of a Linux host (InfiniBand, RoCE) layer\n"
		"by layer -- hardware, firmware, driver, kernel modules, verbs -- and ranks\n"
		"the likely root causes with their evidence and remediation.\n"
		"\n"
		"Commands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(out, "  %s\n", commands[i].usage);
	fprintf(out,
		"\n"
		"Options (before or after the command; a command refuses the ones\n"
		"it does not take, and 'rdmadoctor COMMAND --help' lists its own):\n"
		"  -j, --json        print JSON instead of text (every command but\n"
		"                    rules test and rules reference)\n"
		"  -p, --pretty      indented JSON (implies --json; not batch, whose\n"
		"                    JSON is one object per line)\n"
		"  -e, --explain     show the chain of reasoning under each diagnosis,\n"
		"                    and the rules that lacked evidence\n"
		"      --why-not[=ID,...]  check, analyze: the rules that came nearest\n"
		"                    to firing, and what each lacked\n"
		"      --rules DIR   add a rule overlay (repeatable; a file works too)\n"
		"      --answer Q=V  answer a question a rule asks (repeatable)\n"
		"      --answers FILE  answers from a YAML or JSON file\n"
		"      --save FILE   also write the evidence and answers as a fact file\n"
		"      --color=WHEN  colour: auto (the default: on a terminal unless\n"
		"                    NO_COLOR is set), always or never\n"
		"      --no-color    the same as --color=never\n"
		"  -q, --quiet       no progress lines on stderr\n"
		"  -o, --output FILE where collect writes its snapshot\n"
		"      --html FILE   also write the report as one HTML page (check,\n"
		"                    analyze, batch)\n"
		"      --markdown FILE  also write the report as Markdown for a GitHub\n"
		"                    or Jira ticket (check, analyze, batch)\n"
		"      --redact      mask host names, IP addresses, MACs, GUIDs, GIDs,\n"
		"                    serial numbers and user names in every output of\n"
		"                    check and analyze (the same value, the same token)\n"
		"      --redact-map FILE  also write the token-to-value mapping (implies\n"
		"                    --redact); it is written nowhere else\n"
		"      --jobs N      batch: bundles analysed at once (default: processors)\n"
		"      --merge       batch: join the fleet summaries of earlier runs\n"
		"      --timeout SEC a tool's time limit (check, collect); a bundle's\n"
		"                    (batch)\n"
		"      --root DIR    check, collect, facts: a directory snapshot\n"
		"      --origin      rules list: the file each rule comes from\n"
		"      --nhc         check: NHC's one-line failure format, for health checks\n"
		"      --perftest    check, collect: also run a loopback ib_write_bw\n"
		"      --sample-interval SEC  check, guide: read the RDMA counters a second time\n"
		"                    SEC seconds after the first (default 3 on a live\n"
		"                    host; 0: once)\n"
		"      --deadline S  check, analyze, batch, collect: stop the whole run\n"
		"                    after S seconds, its tools and workers too (exit 2)\n"
		"  -h, --help        help; 'rdmadoctor COMMAND --help' for a command\n"
		"  -V, --version     print the version\n"
		"\n"
		"Exit codes:\n"
		"  0  no diagnosis at warning or above\n"
		"  1  at least one diagnosis at warning or above\n"
		"  2  usage, input or system error\n"
		"  3  rules or knowledge base failed to load or to run\n"
		"  4  insufficient evidence: no layer could be judged (never a green 0)\n"
		"\n"
		"Rules and kb come from %s (RDMADOCTOR_DATADIR overrides);\n"
		"site overlays from /etc/rdmadoctor/rules.d and ~/.config/rdmadoctor/rules.d.\n"
		"With no command, rdmadoctor runs 'guide' on a terminal and 'check'\n"
		"otherwise.\n",
		analysis_datadir());
}

/* The kinds of loose files, for analyze --help. */
static void print_kinds(FILE *out)
{
	fputs("\nKinds of loose files:\n", out);
	for (size_t i = 0; i < format_count(); i++)
		fprintf(out, "  %-14s %s\n", format_at(i)->name,
			format_at(i)->what);
}

static const struct command_entry *find(const struct command_entry *t, size_t n,
					const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i].name, name))
			return &t[i];
	return NULL;
}

/* "list, lint, test or reference" */
static void list_names(FILE *out, const struct command_entry *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? (i + 1 == n ? " or " : ", ") : "",
			t[i].name);
}

/* "  Options: --json --rules ..." from what the command accepts. */
static void accepted(FILE *out, option_set accepts)
{
	if (!accepts)
		return;
	fputs("  Options:", out);
	for (int i = 0; i < OPTION_COUNT; i++)
		if (accepts & (1ul << i))
			fprintf(out, " %s", options_name((enum option_id)i));
	fputs(" (and those of every command: see rdmadoctor --help)\n", out);
}

static void command_help(const struct command_entry *cmd)
{
	printf("usage: rdmadoctor %s\n\n%s\n", cmd->usage, cmd->help);
	accepted(stdout, cmd->accepts);
	for (size_t i = 0; i < cmd->nsub; i++) {
		printf("\n  %s\n  %s\n", cmd->sub[i].usage, cmd->sub[i].help);
		accepted(stdout, cmd->sub[i].accepts);
	}
	if (cmd->run == cmd_analyze)
		print_kinds(stdout);
}

/* The default (no command): the guide on a terminal, else check. */
static const struct command_entry no_command = {
	"rdmadoctor", cmd_default, "", "", OPTS_CHECK, NULL, 0
};

/* Walks o->args down the command tables; *path gets the words that
 * named the command ("rules lint").  Returns the command, or NULL after
 * a usage error. */
static const struct command_entry *resolve(struct options *o, char *path,
					   size_t size)
{
	const struct command_entry *cmd = &no_command, *t = commands;
	size_t n = ARRAY_SIZE(commands);

	path[0] = '\0';
	while (t) {
		const struct command_entry *next;

		if (!o->nargs) {
			if (cmd == &no_command)
				return cmd;
			if (o->help)
				return cmd;
			fprintf(stderr, "rdmadoctor: error: %s needs ", path);
			list_names(stderr, t, n);
			fputc('\n', stderr);
			return NULL;
		}
		next = find(t, n, o->args[0]);
		if (!next) {
			if (cmd == &no_command) {
				fprintf(stderr,
					"rdmadoctor: error: unknown command '%s'\n\n",
					o->args[0]);
				usage(stderr);
			} else {
				fprintf(stderr,
					"rdmadoctor: error: unknown %s command '%s'; use ",
					path, o->args[0]);
				list_names(stderr, t, n);
				fputc('\n', stderr);
			}
			return NULL;
		}
		snprintf(path + strlen(path), size - strlen(path), "%s%s",
			 path[0] ? " " : "", next->name);
		cmd = next;
		o->args++;
		o->nargs--;
		t = cmd->sub;
		n = cmd->nsub;
	}
	return cmd;
}

int main(int argc, char **argv)
{
	const struct command_entry *cmd;
	struct options o;
	char path[64];
	int bad, rc = EXIT_USAGE;

	if (options_parse(argc, argv, &o)) {
		options_release(&o);
		return EXIT_USAGE;
	}
	if (o.nargs && !strcmp(o.args[0], "help")) {
		o.args++;
		o.nargs--;
		o.help = true;
		if (!o.nargs) {
			usage(stdout);
			options_release(&o);
			return EXIT_HEALTHY;
		}
	}
	cmd = resolve(&o, path, sizeof(path));
	if (!cmd)
		goto out;
	if (o.version) {
		printf("rdmadoctor %s\n", RD_VERSION);
		rc = EXIT_HEALTHY;
		goto out;
	}
	if (o.help) {
		if (cmd == &no_command)
			usage(stdout);
		else
			command_help(cmd);
		rc = EXIT_HEALTHY;
		goto out;
	}
	bad = options_unaccepted(&o, cmd->accepts | OPTS_GLOBAL);
	if (bad >= 0) {
		const char *name = options_name((enum option_id)bad);

		if (cmd == &no_command)
			fprintf(stderr,
				"rdmadoctor: error: %s needs a command (see rdmadoctor --help)\n",
				name);
		else
			fprintf(stderr,
				"rdmadoctor: error: %s does not take %s (see rdmadoctor %s --help)\n",
				path, name, path);
		goto out;
	}
	/* Colour for standard output, from --color: the commands pass it to
	 * what they render. */
	o.colored = term_wants_color(stdout, o.color);
	deadline_arm(o.deadline_s);
	rc = cmd->run(&o);
out:
	options_release(&o);
	return rc;
}
