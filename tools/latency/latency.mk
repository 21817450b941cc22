# tools/latency: the latency report for captures and trace dumps, and its tests.
.PHONY: check-tools
check-tools: bootstrap
	@PYTHONDONTWRITEBYTECODE=1 $(PYTHON) tests/tools/run-tap.py $(if $(TAP),$(TAP),/dev/stdout)
