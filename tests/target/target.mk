# Target test images: every tests/target/test_*.c is one image, linked with
# the ktest harness. tests/target/tests.list says what each must print and
# with which status it must exit; tools/run-target-tests.sh runs them.
TARGET_TESTS := $(basename $(notdir $(wildcard tests/target/test_*.c)))

$(foreach t,$(TARGET_TESTS),$(eval $(call image,tests/$(t),tests/target/$(t).c tests/target/ktest.c)))

.PHONY: target-images check-target
target-images: $(TARGET_TESTS:%=$(O)/tests/%.elf)

check-target: bootstrap
	@tools/run-target-tests.sh tests/target/tests.list $(if $(TAP),$(TAP),/dev/stdout)
