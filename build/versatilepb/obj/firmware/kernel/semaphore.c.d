build/versatilepb/obj/firmware/kernel/semaphore.c.o: \
 firmware/kernel/semaphore.c firmware/include/lokal/mutex.h \
 firmware/include/lokal/wait.h firmware/include/lokal/list.h \
 firmware/include/lokal/preempt.h arch/arm/include/asm/irqflags.h \
 arch/arm/include/asm/ptrace.h
firmware/include/lokal/mutex.h:
firmware/include/lokal/wait.h:
firmware/include/lokal/list.h:
firmware/include/lokal/preempt.h:
arch/arm/include/asm/irqflags.h:
arch/arm/include/asm/ptrace.h:
