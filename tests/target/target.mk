# Target test images: every tests/target/test_*.c is one image, linked with
# the ktest harness. tests/target/tests.list says what each must print and
# with which status it must exit; tests/target/run.sh runs them under QEMU.
TARGET_TESTS := $(basename $(notdir $(wildcard tests/target/test_*.c)))

$(foreach t,$(TARGET_TESTS),$(eval $(call image,tests/$(t),tests/target/$(t).c tests/target/ktest.c)))

.PHONY: target-images check-target
target-images: $(TARGET_TESTS:%=$(O)/tests/%.elf)

# Every part runs; the phase fails at the end if any case failed or did not build.
# Its images live in the folder run.sh builds the default configuration in
# (tests/lib/images.sh's build_dir), so no second build of it is made.
TARGET_O = build/$(BOARD)-default
check-target: bootstrap
	@$(MAKE) --no-print-directory O=$(TARGET_O) $(TARGET_O)/lokal.elf $(TARGET_O)/tests/test_tick.elf \
		$(TARGET_O)/cyclic.elf
	@rm -f $(TARGET_O)/check-target.failed
	@tests/target/run.sh tests/target/tests.list $(if $(TAP),$(TAP),/dev/stdout) \
		|| touch $(TARGET_O)/check-target.failed
	@# A board without a debugger: no semihosting, so a quiet halt (the images built above).
	@tests/target/check-quiet-halt.sh $(if $(TAP),$(TAP),/dev/null) \
		test_sched:0 test_kmap_unmap_order:3 test_fault_null:4 \
		|| touch $(TARGET_O)/check-target.failed
	@# The idle loop's wait for interrupt, as compiled: the ARM926 sequence.
	@tests/target/check-idle-sequence.sh $(if $(TAP),$(TAP),/dev/null) $(TARGET_O)/lokal.elf \
		|| touch $(TARGET_O)/check-target.failed
	@# kmap_local: the index push before the slot's PTE, as compiled.
	@tests/target/check-kmap-order.sh $(if $(TAP),$(TAP),/dev/null) $(TARGET_O)/lokal.elf \
		|| touch $(TARGET_O)/check-target.failed
	@# README's transcript of make run is the demo's output.
	@tests/target/check-demo-transcript.sh $(if $(TAP),$(TAP),/dev/null) $(TARGET_O)/lokal.elf \
		|| touch $(TARGET_O)/check-target.failed
	@# make debug's path to start_kernel, and with its gdb port taken: a clear refusal.
	@tests/target/check-debug-port.sh $(if $(TAP),$(TAP),/dev/null) $(TARGET_O)/lokal.elf \
		|| touch $(TARGET_O)/check-target.failed
	@# make cyclic: its report, its load and its plot.
	@tests/target/check-cyclic.sh $(if $(TAP),$(TAP),/dev/null) $(TARGET_O)/cyclic.elf \
		|| touch $(TARGET_O)/check-target.failed
	@# The same verdict under -icount alone and with every core busy: the tick
	@# test, whose cases time its sleeps against the free-running counter.
	@tests/target/check-load-icount.sh $(if $(TAP),$(TAP),/dev/null) $(TARGET_O)/tests/test_tick.elf \
		|| touch $(TARGET_O)/check-target.failed
	@! rm $(TARGET_O)/check-target.failed 2>/dev/null
