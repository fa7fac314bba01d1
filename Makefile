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
# seconds before a guest counts as hung (default 600; make test 1200)
export TIMEOUT
# the guest's architecture: x86_64 (default) or arm64 (cross-built, booted on
# qemu-system-aarch64 -M virt under TCG; make deps ARCH=arm64 installs what
# it needs); make cow-counters is x86_64 only.
# Exported only when set: an empty ARCH would reach the kernel's make.
ifneq ($(ARCH),)
export ARCH
endif
# the guest's swap device: zram (default), ssd, hdd or file (a virtio disk
# of DISK_SIZE; see docs/devices.md); make test runs each list of tests/ on its own
export SWAP
export DISK_SIZE ?= 1G
# the swap disk's write rate, bytes a second (empty: not limited)
export DISK_WRITE_BPS
# hugetlb pages reserved in the guest (make test: 16 unless given)
export HUGEPAGES
export ZRAM_SIZE ?= 1G
export ZRAM_COMP ?= lz4
export MTHP ?= 64K
export MTHP_MODE ?= always
export LRU_GEN ?= 1
# the slow-discard device /dev/sdisc0 in the guest (guest/init): 0 for none
export SDISC_SIZE ?= 0
export SDISC_OPTS ?=
export BASE_TREE ?=
export BASE_REF ?=
export BASE_STRICT ?=
export KCONFIG_EXTRA ?=
# make send: V (version), RFC=1, RESEND=1, SEND=1 (really send), SEND_OPTS
export V RFC RESEND SEND SEND_OPTS
# upstream mm selftests built for the guest (docs/tests.md says why these)
export SELFTESTS ?= cow mkdirty swap_batch

# CMD is passed verbatim ($$ needs no doubling): single-quoted for the shell
shq = $(subst ','\'',$(1))

.PHONY: all deps base apply export check-export prefix-check bisect-check mutants kernel \
	selftests vm-run config-show test test-full stress publish-stress run costs profile cow-counters publish readme-results cover send \
	clean distclean help

all: help
help:
	@sed -n 's/^## //p' README.md 2>/dev/null || true
	@echo "targets: run costs profile test test-full mutants stress publish-stress cow-counters vm-run deps base apply export check-export prefix-check bisect-check kernel selftests config-show publish readme-results cover send clean distclean help"

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

# every prefix builds (perf kernel) and the mm/ ones boot and pass swap_batch -t
prefix-check: deps
	@scripts/prefix-check.sh $(or $(PREFIX_VARIANT),perf)

# builds only, VARIANT's kernel (what the debug fragments add included)
bisect-check: deps
	@PREFIX_BOOT=0 scripts/prefix-check.sh $(VARIANT)

# mutation testing: each tests/mutants/*.diff applied in turn and make test
# run on its Tests: device, caught or survived (measured/mutants/README.md);
# MUTANTS (only these), MUTANT_FULL=1 (every device). Hours; not in CI
mutants: deps
	@scripts/mutants.sh

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

# make test and the lines of tests/ marked "full:" (longer than CI allows)
test-full: deps
	@TEST_FULL=1 scripts/test.sh

# long stress run on the debug kernel: KERNEL, DURATION (s), SEED, WORKERS
stress: deps
	@scripts/stress.sh

publish-stress:
	@scripts/publish-stress.sh

run: deps
	@scripts/run.sh

# the work behind the benchmarks, counted on count kernels (scripts/costs.sh)
costs: deps
	@scripts/costs.sh

# where the time goes, on prof kernels (function graph profiler)
profile: deps
	@scripts/costs.sh prof

# the COW counters on the base + the counter patch only (measured/cowws/README.md)
cow-counters: deps
	@scripts/cow-counters.sh

# copy a run (RESULTS=results/STAMP, default the latest) into measured/,
# then write README's table and the cover letter from it
publish:
	@scripts/publish-results.sh $(RESULTS)

readme-results:
	@scripts/readme-results.sh $(RESULTS)

cover:
	@scripts/series.sh cover

send: deps
	@scripts/send.sh

clean:
	rm -rf build

distclean: clean
	rm -rf cache results
