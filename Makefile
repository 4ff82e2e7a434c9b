# rdmadoctor: one non-recursive Makefile.
#
#   make            build ./rdmadoctor
#   make run        install missing packages, build, analyse the bundled example
#   make test       install missing packages, build, run every test
#   make asan       the whole suite under AddressSanitizer and UBSan
#   make valgrind   the unit tests and most suites under valgrind memcheck
#   make vmtest     soft-RoCE in a QEMU VM of Debian's kernel: real-stack
#                   scenarios (tests/vm/run.sh; installs what it needs)
#   make fuzz       build the libFuzzer targets (clang) and their seeds
#   make fuzz-smoke run each fuzz target for FUZZ_SECONDS (30)
#   make slurmtest  contrib/slurm on a one-node Slurm cluster (tests/slurm.sh)
#   make bench      the benchmarks (bench/README.md)
#   make bench-smoke  their smallest sizes, as a differential test only
#   make install    PREFIX=/usr/local DESTDIR=
#   make format     clang-format the sources

VERSION := 0.1.0
PREFIX ?= /usr/local
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share/rdmadoctor
MANDIR = $(PREFIX)/share/man/man1

CC ?= cc
PKGS := yaml-0.1 libpcre2-8 json-c libarchive liblzma libibverbs
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# libarchive and libibverbs are opened on first use (engine/dynlib.h): only
# their headers are needed to build, and a paste never loads them.
LAZY_PKGS := libarchive libibverbs
PKG_LIBS := $(shell pkg-config --libs $(filter-out $(LAZY_PKGS),$(PKGS)) 2>/dev/null)

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wformat=2 -Wwrite-strings -Wno-format-nonliteral
CFLAGS ?= -O2 -g
ALL_CFLAGS := -std=gnu11 -D_GNU_SOURCE -pthread $(WARN) $(CFLAGS) -I. $(PKG_CFLAGS) \
	-DRD_VERSION='"$(VERSION)"' -DRD_DATADIR='"$(DATADIR)"' -MMD -MP
ifeq ($(WERROR),1)
ALL_CFLAGS += -Werror
endif
# -ldl: dlopen (engine/dynlib.c) is in libdl before glibc 2.34
LDLIBS := $(PKG_LIBS) -ldl -lm

BUILD ?= build
BIN ?= rdmadoctor

ENGINE_SRC := $(wildcard engine/*.c)
COLLECT_SRC := $(wildcard collectors/*.c collectors/sources/*.c collectors/parsers/*.c)
ANALYSIS_SRC := $(wildcard analysis/*.c)
CLI_SRC := $(filter-out cli/main.c,$(wildcard cli/*.c))
LIB_SRC := $(ENGINE_SRC) $(COLLECT_SRC) $(ANALYSIS_SRC) $(CLI_SRC)
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ := $(BUILD)/cli/main.o

UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

FUZZ_SRC := $(wildcard fuzz/fuzz_*.c)
FUZZ_BIN := $(FUZZ_SRC:fuzz/%.c=$(BUILD)/%)

BENCH_TOOLS := $(BUILD)/bench/benchgen $(BUILD)/bench/benchrun \
	$(BUILD)/bench/loggen
BENCHES := $(wildcard bench/b*-*.sh)
BENCH_ENV = RD_BIN=$(BIN) BENCHGEN=$(BUILD)/bench/benchgen \
	BENCHRUN=$(BUILD)/bench/benchrun LOGGEN=$(BUILD)/bench/loggen \
	BENCH_DIR=$(BUILD)/bench/work

.PHONY: all deps run test unit golden asan valgrind fuzz fuzz-bins fuzz-smoke FORCE \
	install format check-format clean bench bench-smoke slurmtest vmtest

all: $(BIN)

$(BIN): $(MAIN_OBJ) $(BUILD)/librd.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/librd.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The data directory is compiled in (analysis_datadir): analysis.o is built
# again whenever PREFIX changes, so 'make install PREFIX=...' after a plain
# 'make' installs a binary that looks under the new prefix.
$(BUILD)/datadir.stamp: FORCE
	@mkdir -p $(dir $@)
	@echo '$(DATADIR)' | cmp -s - $@ 2>/dev/null || echo '$(DATADIR)' > $@
$(BUILD)/analysis/analysis.o: $(BUILD)/datadir.stamp
FORCE:

$(BUILD)/bench/%: bench/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<

# The log generator reads kb/ and the sample logs with rdmadoctor's code.
$(BUILD)/bench/loggen: bench/loggen.c $(BUILD)/librd.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/librd.a $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/librd.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) $(shell pkg-config --cflags cmocka) -o $@ $< $(BUILD)/librd.a \
		$(LDLIBS) $(shell pkg-config --libs cmocka)

$(BUILD)/fuzz_%: fuzz/fuzz_%.c $(BUILD)/librd.a
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer $(LDFLAGS) -o $@ $< $(BUILD)/librd.a \
		$(LDLIBS)

deps:
	@tools/deps.sh

run: deps
	@$(MAKE) --no-print-directory all
	./rdmadoctor analyze examples/cx5-fw-mismatch/sosreport-cx5-node07-2024-03-18-kqzwpvb examples/cx5-fw-mismatch/ib_write_bw.txt; \
		rc=$$?; echo "(exit code $$rc: 1 means a diagnosis at warning or above)"

unit: $(UNIT_BIN)
	@for t in $(UNIT_BIN); do $$t || exit 1; done

golden: $(BIN)
	@tests/run-golden.sh

test: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory unit
	@RD_BIN=./$(BIN) tests/run-all.sh
	@$(MAKE) --no-print-directory bench-smoke

# contrib/slurm on a one-node Slurm cluster of its own (tests/slurm.sh);
# installs slurm-wlm and munge when missing.
slurmtest: $(BIN)
	@RD_BIN=./$(BIN) tests/slurm.sh

# The VM test installs its own packages (QEMU, perftest, sos) and caches
# the kernel under build/vm (VM_CACHE).
vmtest: $(BIN)
	@tests/vm/run.sh

bench: $(BIN) $(BENCH_TOOLS)
	@for b in $(BENCHES); do $(BENCH_ENV) $$b || exit 1; done

bench-smoke: $(BIN) $(BENCH_TOOLS)
	@for b in $(BENCHES); do $(BENCH_ENV) $$b --smoke || exit 1; done

ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
asan: deps
	@$(MAKE) --no-print-directory BUILD=build-asan BIN=build-asan/rdmadoctor \
		CFLAGS="$(ASAN_FLAGS)" LDFLAGS="-fsanitize=address,undefined" \
		build-asan/rdmadoctor unit
	@RD_BIN=build-asan/rdmadoctor tests/run-all.sh
	@$(MAKE) --no-print-directory BUILD=build-asan BIN=build-asan/rdmadoctor \
		CFLAGS="$(ASAN_FLAGS)" LDFLAGS="-fsanitize=address,undefined" \
		bench-smoke

# Memcheck over the unit tests and the suites that run the binary
# (tests/valgrind-rd wraps it; tests/run-all.sh says which it leaves out);
# a memory error or a leak fails the run.
valgrind: deps
	@$(MAKE) --no-print-directory all $(UNIT_BIN)
	@for t in $(filter-out %/test_kmsg_coverage,$(UNIT_BIN)); do \
		RDMADOCTOR_NO_JIT=1 valgrind -q --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite,indirect $$t > /dev/null || exit 1; \
	done; echo "valgrind: unit tests clean (test_kmsg_coverage left out: 20,000 kernel strings through the scanner, which test_parsers_log checks)"
	@RD_BIN=tests/valgrind-rd RD_REAL_BIN=$(CURDIR)/$(BIN) RD_VALGRIND=1 \
		RD_VALGRIND_BIN="$$(command -v valgrind)" tests/run-all.sh

# libFuzzer targets, built by clang in build-fuzz/ with ASan and UBSan.
FUZZ_DIR := build-fuzz
FUZZ_FLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined \
	-fno-omit-frame-pointer -fno-sanitize-recover=all
FUZZ_SECONDS ?= 30
FUZZ_TARGETS := $(FUZZ_SRC:fuzz/fuzz_%.c=%)
fuzz: deps
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_DIR) CC=clang \
		CFLAGS="$(FUZZ_FLAGS)" LDFLAGS="-fsanitize=address,undefined" \
		fuzz-bins
	@fuzz/seeds.sh $(FUZZ_DIR)/seeds

fuzz-bins: $(FUZZ_BIN)

fuzz-smoke: fuzz
	@for t in $(FUZZ_TARGETS); do \
		fuzz/run.sh $(FUZZ_DIR) $$t $(FUZZ_SECONDS) || exit 1; \
	done

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/rules \
		$(DESTDIR)$(DATADIR)/kb $(DESTDIR)$(DATADIR)/schema $(DESTDIR)$(MANDIR)
	install -m 755 rdmadoctor $(DESTDIR)$(BINDIR)/rdmadoctor
	install -m 644 $(filter-out %.test.yaml,$(wildcard rules/*.yaml)) \
		$(DESTDIR)$(DATADIR)/rules/
	install -m 644 kb/*.yaml $(DESTDIR)$(DATADIR)/kb/
	install -m 644 schema/*.schema.json $(DESTDIR)$(DATADIR)/schema/
	install -m 644 man/rdmadoctor.1 $(DESTDIR)$(MANDIR)/rdmadoctor.1
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 contrib/bash-completion/rdmadoctor \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/rdmadoctor

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

check-format:
	clang-format --dry-run -Werror $$(git ls-files '*.c' '*.h')

clean:
	rm -rf build build-asan $(FUZZ_DIR) rdmadoctor

-include $(LIB_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(UNIT_BIN:=.d) $(BENCH_TOOLS:=.d)
