/* rdmadoctor: the command table and the top-level help. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "collectors/parsers/formats.h"

struct command_entry {
	const char *name;
	int (*run)(struct options *o);
	const char *usage;
	const char *help;
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
	  "           rdmadoctor guide --root tests/fixtures/cx5-fw-mismatch/root" },
	{ "check", cmd_check,
	  "check [--root DIR] [--timeout SEC] [--perftest] [--nhc] [--html FILE]",
	  "Diagnose this host, or the directory snapshot given with --root.\n"
	  "  Reads /sys, /proc and the kernel config, asks libibverbs for devices and\n"
	  "  runs read-only tools (ibstat, ethtool -i, ...) with a timeout (default\n"
	  "  10 s); a tool that hangs is killed and reported as such.  It only reads,\n"
	  "  except that --perftest also runs a 2-second loopback ib_write_bw on the\n"
	  "  first active port (server and client on this host).\n"
	  "  --html FILE also writes the report as a page: the five-layer stack\n"
	  "  coloured by status, and the ranked diagnoses.  --nhc prints nothing on a\n"
	  "  healthy host and, on a fault (a diagnosis of severity error or worse),\n"
	  "  NHC's one-line failure 'ERROR:  nhc:  Health check failed:  ...' with exit\n"
	  "  code 1, for use as an NHC check or a Slurm HealthCheckProgram (see\n"
	  "  contrib/nhc/).\n"
	  "  Example: rdmadoctor check\n"
	  "           rdmadoctor check --root tests/fixtures/healthy-cx5/root --json\n"
	  "           rdmadoctor check --nhc --timeout 5" },
	{ "analyze", cmd_analyze,
	  "analyze PATH... [--html FILE] (a path may be KIND=FILE)",
	  "Diagnose one host from its evidence, offline: a sosreport (a directory, or\n"
	  "  a .tar.xz, .tar.gz or .tar.bz2 read in place), a sysinfo-snapshot, a\n"
	  "  snapshot from 'collect', a directory snapshot, and loose command outputs\n"
	  "  pasted into a ticket.  The kind of a loose file is detected from its\n"
	  "  content; KIND=FILE names it (the kinds are listed below).\n"
	  "  --html FILE also writes the report as a self-contained page.\n"
	  "  Example: rdmadoctor analyze sosreport-node07.tar.xz ib_write_bw.txt\n"
	  "           rdmadoctor analyze ibstat=paste.txt\n"
	  "           rdmadoctor analyze --html node07.html sosreport-node07.tar.xz" },
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
	  "  (contrib/slurm/batch-array.sbatch).\n"
	  "  Example: rdmadoctor batch /cases/4711/sosreports/\n"
	  "           find /cases -name 'sosreport-*.tar.xz' | rdmadoctor batch --json - > fleet.jsonl\n"
	  "           rdmadoctor batch --jobs 8 --html fleet.html bundles.list\n"
	  "           rdmadoctor batch --merge --html fleet.html fleet-shard-*.jsonl" },
	{ "collect", cmd_collect,
	  "collect [-o FILE] [--root DIR] [--timeout SEC] [--perftest]",
	  "Record what 'check' reads on this host -- the sysfs RDMA tree, /proc,\n"
	  "  module versions, kernel config and log, the output of each tool it runs,\n"
	  "  and the libibverbs results -- into a .tar.gz in sosreport layout, for a\n"
	  "  support engineer to diagnose offline.  It only reads the system; every\n"
	  "  command runs with the timeout.  FILE defaults to\n"
	  "  rdmadoctor-<host>-<UTC time>.tar.gz in the current directory.\n"
	  "  Example: rdmadoctor collect -o /tmp/node07.tar.gz\n"
	  "           rdmadoctor analyze /tmp/node07.tar.gz" },
	{ "facts", cmd_facts, "facts [--root DIR] [PATH...]",
	  "Print the fact base the rules would see: collected facts with the file and\n"
	  "  line they came from, and the knowledge base.  No path means this host.\n"
	  "  Example: rdmadoctor facts --json sosreport-node07/" },
	{ "rules", cmd_rules,
	  "rules list [--origin] | lint [PATH...] | test [PATH...] | reference",
	  "For rule authors.  'list' shows the effective rule set (--origin: the file\n"
	  "  each rule comes from, and overlays that disabled rules); 'lint' checks the\n"
	  "  shipped rules plus the given files or directories and reports each problem\n"
	  "  as file:line:col with the offending line; 'test' runs the rule tests\n"
	  "  (NAME.test.yaml beside the rules; none given: the shipped ones), one line\n"
	  "  per case, then 'N passed, N failed' (exit 1 on a failure); a directory's\n"
	  "  tests must also see each of its rules fire; 'reference' prints the\n"
	  "  operators and the fact vocabulary rules can use.  rules/README.md is the\n"
	  "  guide, with a tutorial.\n"
	  "  Example: rdmadoctor rules lint /etc/rdmadoctor/rules.d\n"
	  "           rdmadoctor rules test /etc/rdmadoctor/rules.d" },
	{ "explain", cmd_explain, "explain RULE-ID",
	  "Say what a rule looks at, why it matters, its remediation and its sources.\n"
	  "  Example: rdmadoctor explain fw-below-driver-minimum" },
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
	for (size_t i = 0; i < sizeof(commands) / sizeof(*commands); i++)
		fprintf(out, "  %s\n", commands[i].usage);
	fprintf(out,
		"\n"
		"Options (all commands):\n"
		"  -j, --json        print JSON instead of text\n"
		"  -e, --explain     show the chain of reasoning under each diagnosis,\n"
		"                    and the rules that lacked evidence\n"
		"      --rules DIR   add a rule overlay (repeatable; a file works too)\n"
		"      --answer Q=V  answer a question a rule asks (repeatable)\n"
		"      --answers FILE  answers from a YAML or JSON file\n"
		"      --save FILE   also write the evidence and answers as a fact file\n"
		"      --no-color    no colour (also when NO_COLOR is set or not a TTY)\n"
		"  -q, --quiet       no progress lines on stderr\n"
		"  -o, --output FILE where collect writes its snapshot\n"
		"      --html FILE   also write the report as one HTML page (check,\n"
		"                    analyze, batch)\n"
		"      --jobs N      batch: bundles analysed at once (default: processors)\n"
		"      --nhc         check: NHC's one-line failure format, for health checks\n"
		"      --perftest    check, collect: also run a loopback ib_write_bw\n"
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

static const struct command_entry *find(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(*commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const struct command_entry *cmd = NULL;
	struct options o;
	static char default_word[] = "rdmadoctor";
	char *default_argv[] = { default_word, NULL };
	int rc;

	if (argc > 1 && argv[1][0] != '-') {
		cmd = find(argv[1]);
		if (!cmd && strcmp(argv[1], "help")) {
			fprintf(stderr,
				"rdmadoctor: error: unknown command '%s'\n\n",
				argv[1]);
			usage(stderr);
			return EXIT_USAGE;
		}
		if (!cmd) {
			usage(stdout);
			return EXIT_HEALTHY;
		}
		argc--;
		argv++;
	} else if (argc == 1) {
		argc = 1;
		argv = default_argv;
	}
	if (options_parse(argc, argv, &o))
		return EXIT_USAGE;
	if (o.version) {
		printf("rdmadoctor %s\n", RD_VERSION);
		rc = EXIT_HEALTHY;
	} else if (o.help) {
		if (cmd)
			printf("usage: rdmadoctor %s\n\n%s\n", cmd->usage,
			       cmd->help);
		if (cmd && cmd->run == cmd_analyze)
			print_kinds(stdout);
		else if (!cmd)
			usage(stdout);
		rc = EXIT_HEALTHY;
	} else {
		rc = cmd ? cmd->run(&o) : cmd_default(&o);
	}
	options_release(&o);
	return rc;
}
