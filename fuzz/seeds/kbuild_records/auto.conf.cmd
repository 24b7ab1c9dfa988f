autoconfig := include/config/auto.conf

deps_config := \
	Kconfig \
	scripts/Kconfig.include \
	init/Kconfig \
	kernel/irq/Kconfig \
	kernel/time/Kconfig \
	kernel/bpf/Kconfig \
	kernel/bpf/preload/Kconfig \
	kernel/Kconfig.preempt \
	kernel/rcu/Kconfig \
	usr/Kconfig \
	rust/kernel/Kconfig.test \
	kernel/Kconfig.kexec \
	kernel/liveupdate/Kconfig \
	arch/Kconfig \
	arch/x86/Kconfig \
	arch/x86/xen/Kconfig \
	arch/x86/Kconfig.cpu \
	arch/x86/events/Kconfig \
	kernel/Kconfig.hz \
	kernel/livepatch/Kconfig \
	kernel/power/Kconfig \
	drivers/acpi/Kconfig \
	drivers/acpi/nfit/Kconfig \
	drivers/ac
ifneq "$(srctree)" "/var/cache/rkbuild-ci/linux-7.3"
$(autoconfig): FORCE
endif

ifneq "$(CLANG_FLAGS)" "--target=x86_64-linux-gnu -fintegrated-as -Werror=unknown-warning-option -Werror=ignored-optimization-argument -Werror=option-ignored -Werror=unused-command-line-argument"
$(autoconfig): FORCE
endif

ifneq "$(RUSTC)" "/var/cache/rkbuild-ci/boot-7.3-x86_64.bin/rkbuild-rustc"
$(autoconfig): FORCE
endif

ifneq "$(CC_VERSION_TEXT)" "Debian clang version 22.1.8 (1~deb12u1)"
$(autoconfig): FORCE
endif

ifneq "$(NM)" "llvm-nm-22"
$(autoconfig): FORCE
endif

ifneq "$(OBJCOPY)" "llvm-objcopy-22"
$(autoconfig): FORCE
endif

ifneq "$(PAHOLE_VERSION)" "0"
$(autoconfig): FORCE
endif

ifneq "$(RUSTC_VERSION_TEXT)" "rustc 1.95.0 (59807616e 2026-04-14)"
$(autoconfig): FORCE
endif

ifneq "$(BINDGEN)" "/var/cache/rkbuild-ci/bindgen-22/bin/bindgen"
$(autoconfig): FORCE
endif

ifneq "$(SRCARCH)" "x86"
$(autoconfig): FORCE
endif

ifneq "$(AR)" "llvm-ar-22"
$(autoconfig): FORCE
endif

ifneq "$(PYTHON3)" "python3"
$(autoconfig): FORCE
endif
