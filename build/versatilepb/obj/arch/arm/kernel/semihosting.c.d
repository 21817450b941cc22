build/versatilepb/obj/arch/arm/kernel/semihosting.c.o: \
 arch/arm/kernel/semihosting.c arch/arm/include/asm/irqflags.h \
 arch/arm/include/asm/ptrace.h arch/arm/include/asm/cacheflush.h \
 firmware/include/lokal/platform.h
arch/arm/include/asm/irqflags.h:
arch/arm/include/asm/ptrace.h:
arch/arm/include/asm/cacheflush.h:
firmware/include/lokal/platform.h:
