# ARMv5 (ARM926EJ-S) architecture sources.
ARCH_SRCS := arch/arm/kernel/head.S arch/arm/kernel/entry.S \
             arch/arm/kernel/switch_to.S arch/arm/kernel/setup.c \
             arch/arm/kernel/irq.c arch/arm/kernel/fault.c \
             arch/arm/kernel/thread.c \
             arch/arm/kernel/semihosting.c arch/arm/kernel/newlib-syscalls.c \
             arch/arm/kernel/newlib-locks.c \
             arch/arm/mm/mmu.c arch/arm/mm/kmap-layout.c arch/arm/mm/ram-layout.c arch/arm/mm/stack.c \
             arch/arm/mm/cache-arm926.S arch/arm/mm/dma-arm926.S arch/arm/mm/tlb-arm926.S
