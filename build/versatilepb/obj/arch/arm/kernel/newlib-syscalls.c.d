build/versatilepb/obj/arch/arm/kernel/newlib-syscalls.c.o: \
 arch/arm/kernel/newlib-syscalls.c arch/arm/include/asm/mach.h \
 arch/arm/include/asm/irqflags.h arch/arm/include/asm/ptrace.h \
 firmware/include/lokal/platform.h
arch/arm/include/asm/mach.h:
arch/arm/include/asm/irqflags.h:
arch/arm/include/asm/ptrace.h:
firmware/include/lokal/platform.h:
