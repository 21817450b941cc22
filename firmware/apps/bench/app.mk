# The benchmarks' image (make bench runs it under QEMU -icount; the shell
# links the same files without main.c for its `bench` command).
$(eval $(call app,bench))
