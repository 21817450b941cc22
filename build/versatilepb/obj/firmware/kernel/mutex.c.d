build/versatilepb/obj/firmware/kernel/mutex.c.o: firmware/kernel/mutex.c \
 firmware/include/lokal/mutex.h firmware/include/lokal/wait.h \
 firmware/include/lokal/list.h firmware/include/lokal/sched.h \
 arch/arm/include/asm/pgtable.h arch/arm/include/asm/memory.h \
 build/versatilepb/include/generated/config.h board/versatilepb/board.h \
 arch/arm/include/asm/cacheflush.h arch/arm/include/asm/kmap_size.h \
 firmware/include/lokal/preempt.h firmware/include/lokal/bug.h \
 arch/arm/include/asm/irqflags.h arch/arm/include/asm/ptrace.h
firmware/include/lokal/mutex.h:
firmware/include/lokal/wait.h:
firmware/include/lokal/list.h:
firmware/include/lokal/sched.h:
arch/arm/include/asm/pgtable.h:
arch/arm/include/asm/memory.h:
build/versatilepb/include/generated/config.h:
board/versatilepb/board.h:
arch/arm/include/asm/cacheflush.h:
arch/arm/include/asm/kmap_size.h:
firmware/include/lokal/preempt.h:
firmware/include/lokal/bug.h:
arch/arm/include/asm/irqflags.h:
arch/arm/include/asm/ptrace.h:
