build/versatilepb/obj/arch/arm/kernel/irq.c.o: arch/arm/kernel/irq.c \
 firmware/include/lokal/irq.h firmware/include/lokal/platform.h \
 firmware/include/lokal/bug.h arch/arm/include/asm/mach.h \
 arch/arm/include/asm/ptrace.h arch/arm/include/asm/irqflags.h \
 board/versatilepb/board.h
firmware/include/lokal/irq.h:
firmware/include/lokal/platform.h:
firmware/include/lokal/bug.h:
arch/arm/include/asm/mach.h:
arch/arm/include/asm/ptrace.h:
arch/arm/include/asm/irqflags.h:
board/versatilepb/board.h:
