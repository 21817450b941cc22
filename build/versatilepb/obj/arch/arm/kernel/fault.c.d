build/versatilepb/obj/arch/arm/kernel/fault.c.o: arch/arm/kernel/fault.c \
 firmware/include/lokal/sched.h arch/arm/include/asm/pgtable.h \
 arch/arm/include/asm/memory.h \
 build/versatilepb/include/generated/config.h board/versatilepb/board.h \
 arch/arm/include/asm/cacheflush.h arch/arm/include/asm/kmap_size.h \
 firmware/include/lokal/list.h firmware/include/lokal/platform.h \
 arch/arm/include/asm/ptrace.h arch/arm/include/asm/cp15.h \
 arch/arm/include/asm/setup.h
firmware/include/lokal/sched.h:
arch/arm/include/asm/pgtable.h:
arch/arm/include/asm/memory.h:
build/versatilepb/include/generated/config.h:
board/versatilepb/board.h:
arch/arm/include/asm/cacheflush.h:
arch/arm/include/asm/kmap_size.h:
firmware/include/lokal/list.h:
firmware/include/lokal/platform.h:
arch/arm/include/asm/ptrace.h:
arch/arm/include/asm/cp15.h:
arch/arm/include/asm/setup.h:
