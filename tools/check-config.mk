# `make check-config`: every make variable's limits on every board, the demo
# on small memories, bounded QEMU runs (tools/check-config.sh).
.PHONY: check-config
check-config: bootstrap
	@tools/check-config.sh $(if $(TAP),$(TAP),/dev/stdout)
