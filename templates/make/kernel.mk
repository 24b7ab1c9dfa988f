# rkbuild: run the kernel's own make with rkbuild's rustc wrapper, so every Rust compilation
# is recorded (and optionally linted with clippy) without changing what make builds.
#
# From a shell (targets and any other make variables pass through to the kernel's make):
#   make -f kernel.mk KDIR=~/src/linux O=~/build/x86 LLVM=-14 prepare samples/rust/
# From your own Makefile:
#   include /path/to/kernel.mk
#   all: ; $(RKBUILD_KMAKE) prepare samples/rust/
#
# Variables (all optional):
#   KDIR               kernel source tree       (default: /lib/modules/$(uname -r)/build)
#   O                  object tree, Kbuild's O= (default: none, build in KDIR)
#   REAL_RUSTC         the compiler the wrapper runs, exported as RKBUILD_RUSTC
#                      (default: the first `rustc` on PATH that is not rkbuild)
#   RKBUILD_LOG        the call log, one JSON line per rustc call
#                      (default: <O or KDIR>/rustc-calls.jsonl; set it empty for no log)
#   RKBUILD_CLIPPY=1   lint through clippy-driver (core and alloc are never linted)
#   RKBUILD_RUSTC_LINK path of the `rkbuild-rustc` link (default: found on PATH)
#
# Afterwards: `rkbuild log summary $(RKBUILD_LOG)` and
#             `rkbuild log project $(RKBUILD_LOG) -o rust-project.json`.

KDIR ?= /lib/modules/$(shell uname -r)/build
RKBUILD_RUSTC_LINK ?= $(shell command -v rkbuild-rustc)
ifeq ($(RKBUILD_RUSTC_LINK),)
$(error rkbuild-rustc not found on PATH: `ln -s $$(command -v rkbuild) ~/.local/bin/rkbuild-rustc` or set RKBUILD_RUSTC_LINK)
endif

RKBUILD_LOG ?= $(abspath $(or $(O),$(KDIR)))/rustc-calls.jsonl
export RKBUILD_LOG
ifneq ($(REAL_RUSTC),)
export RKBUILD_RUSTC := $(REAL_RUSTC)
endif
ifneq ($(RKBUILD_CLIPPY),)
export RKBUILD_CLIPPY
endif

# RUSTC must be given on the command line: the kernel's Makefile assigns it otherwise.
RKBUILD_KMAKE = $(MAKE) -C $(KDIR) $(if $(O),O=$(O)) RUSTC=$(RKBUILD_RUSTC_LINK)

# Used with `make -f kernel.mk`: every goal goes to the kernel's make, all in one call so
# that `-j` and the order of goals (prepare before samples/rust/) work as usual.
ifeq ($(firstword $(MAKEFILE_LIST)),$(lastword $(MAKEFILE_LIST)))
.DEFAULT_GOAL := rkbuild-kmake
MAKECMDGOALS ?=
rkbuild-kmake:
	$(RKBUILD_KMAKE) $(MAKECMDGOALS)
$(filter-out rkbuild-kmake,$(MAKECMDGOALS)): rkbuild-kmake
	@:
$(MAKEFILE_LIST): ;
.PHONY: rkbuild-kmake $(MAKECMDGOALS)
endif
