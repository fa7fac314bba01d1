# Swap batching series for Linux 6.12: build, boot and measure.
# See README.md. Main targets: run, test, vm-run.
SHELL := /bin/sh
export TOP := $(CURDIR)

# Options (environment or command line)
KERNEL ?= patched
VARIANT ?= debug
FILES ?=
export MEM ?= 2G
export SMP ?= 2
export TIMEOUT ?= 600
export ZRAM_SIZE ?= 1G
export ZRAM_COMP ?= lz4
export MTHP ?= 64K
export MTHP_MODE ?= always
export LRU_GEN ?= 1
export BASE_TREE ?=
export BASE_REF ?=
export BASE_STRICT ?=
export KCONFIG_EXTRA ?=
# upstream mm selftests built for the guest (see README: why these)
export SELFTESTS ?= cow mkdirty swap_batch

# CMD is passed verbatim ($$ needs no doubling): single-quoted for the shell
shq = $(subst ','\'',$(1))

.PHONY: all deps base apply export check-export bisect-check kernel selftests \
	vm-run config-show test run readme-results clean distclean help

all: help
help:
	@sed -n 's/^## //p' README.md 2>/dev/null || true
	@echo "targets: run test vm-run deps base apply export check-export bisect-check kernel selftests config-show readme-results clean distclean help"

deps:
	@scripts/deps.sh

base: deps
	@scripts/base-tree.sh

apply: deps
	@scripts/series.sh apply

export:
	@scripts/series.sh export

check-export:
	@scripts/series.sh check

bisect-check: deps
	@scripts/bisect-check.sh $(VARIANT)

kernel: deps
	@scripts/build-kernel.sh $(KERNEL) $(VARIANT)

config-show: base
	@scripts/kconfig.sh $(TOP)/cache/linux /dev/null $(VARIANT) --dry-run

selftests: deps
	@scripts/build-selftests.sh

vm-run: deps
	@scripts/vm-run.sh $(KERNEL) $(VARIANT) '$(call shq,$(value CMD))' $(FILES)

test: deps
	@scripts/test.sh

run: deps
	@scripts/run.sh

readme-results:
	@scripts/readme-results.sh $(RESULTS)

clean:
	rm -rf build

distclean: clean
	rm -rf cache results
