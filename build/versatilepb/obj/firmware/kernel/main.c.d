build/versatilepb/obj/firmware/kernel/main.c.o: firmware/kernel/main.c \
 firmware/include/lokal/app.h firmware/include/lokal/thread.h \
 firmware/include/lokal/sched.h arch/arm/include/asm/pgtable.h \
 arch/arm/include/asm/memory.h \
 build/versatilepb/include/generated/config.h board/versatilepb/board.h \
 arch/arm/include/asm/cacheflush.h arch/arm/include/asm/kmap_size.h \
 firmware/include/lokal/list.h firmware/include/lokal/platform.h \
 build/versatilepb/include/lokal/mm.h firmware/include/lokal/bug.h \
 arch/arm/include/asm/setup.h
firmware/include/lokal/app.h:
firmware/include/lokal/thread.h:
firmware/include/lokal/sched.h:
arch/arm/include/asm/pgtable.h:
arch/arm/include/asm/memory.h:
build/versatilepb/include/generated/config.h:
board/versatilepb/board.h:
arch/arm/include/asm/cacheflush.h:
arch/arm/include/asm/kmap_size.h:
firmware/include/lokal/list.h:
firmware/include/lokal/platform.h:
build/versatilepb/include/lokal/mm.h:
firmware/include/lokal/bug.h:
arch/arm/include/asm/setup.h:
