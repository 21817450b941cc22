# Target test images: every tests/target/test_*.c is one image, linked with
# the ktest harness. tests/target/tests.list says what each must print and
# with which status it must exit; tools/run-target-tests.sh runs them.
TARGET_TESTS := $(basename $(notdir $(wildcard tests/target/test_*.c)))

$(foreach t,$(TARGET_TESTS),$(eval $(call image,tests/$(t),tests/target/$(t).c tests/target/ktest.c)))

.PHONY: target-images check-target
target-images: $(TARGET_TESTS:%=$(O)/tests/%.elf)

# Every part runs; the phase fails at the end if any case failed or did not build.
check-target: bootstrap $(O)/lokal.elf
	@rm -f $(O)/check-target.failed
	@tools/run-target-tests.sh tests/target/tests.list $(if $(TAP),$(TAP),/dev/stdout) \
		|| touch $(O)/check-target.failed
	@# A board without a debugger: no semihosting, so a quiet halt (the images built above).
	@tests/target/check-quiet-halt.sh $(if $(TAP),$(TAP),/dev/null) \
		$(foreach t,test_sched:0 test_kmap_unmap_order:3 test_fault_null:4,build/versatilepb-default/tests/$(subst :,.elf:,$(t))) \
		|| touch $(O)/check-target.failed
	@# The idle loop's wait for interrupt, as compiled: the ARM926 sequence.
	@tests/target/check-idle-sequence.sh $(if $(TAP),$(TAP),/dev/null) $(O)/lokal.elf \
		|| touch $(O)/check-target.failed
	@# kmap_local: the index push before the slot's PTE, as compiled.
	@tests/target/check-kmap-order.sh $(if $(TAP),$(TAP),/dev/null) $(O)/lokal.elf \
		|| touch $(O)/check-target.failed
	@# make debug with its gdb port taken: a clear refusal, no gdb time-out.
	@tests/target/check-debug-port.sh $(if $(TAP),$(TAP),/dev/null) $(O)/lokal.elf \
		|| touch $(O)/check-target.failed
	@# make debug's path: QEMU's gdb stub plus gdb-multiarch reach start_kernel.
	@if GDB_BATCH=1 GDB_PORT=12345 timeout 60 tools/qemu-debug.sh $(O)/lokal.elf 2>&1 \
		| grep -q 'Breakpoint 1, start_kernel'; then r="ok"; else r="not ok"; \
		touch $(O)/check-target.failed; fi; \
	echo "$$r 1 - make debug: gdb-multiarch stops at start_kernel" \
		| tee -a $(if $(TAP),$(TAP),/dev/null)
	@! rm $(O)/check-target.failed 2>/dev/null
