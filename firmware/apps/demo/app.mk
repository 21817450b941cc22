# The demo: what `make run` shows (threads preempted while they hold local
# kmaps, highmem through pkmap, DMA with the board's engine). Its image
# keeps the kernel's name, $(O)/lokal.elf.
$(eval $(call app,demo,lokal))
