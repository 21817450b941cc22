# cyclic: timer-to-handler and timer-to-thread latency under a chosen load
# (docs/latency.md). `make cyclic` builds and runs it; its parameters are
# the CYCLIC_* rows of config.table.
$(eval $(call app,cyclic))
