build/versatilepb/obj/board/versatilepb/board.c.o: \
 board/versatilepb/board.c arch/arm/include/asm/mach.h \
 firmware/include/lokal/platform.h firmware/include/lokal/irq.h \
 firmware/include/lokal/ringbuf.h drivers/include/drivers/pl011.h \
 drivers/include/drivers/pl190.h drivers/include/drivers/sp804.h \
 drivers/include/drivers/pl061.h \
 drivers/include/drivers/versatile_sysctl.h \
 drivers/include/drivers/mmio.h board/versatilepb/board.h
arch/arm/include/asm/mach.h:
firmware/include/lokal/platform.h:
firmware/include/lokal/irq.h:
firmware/include/lokal/ringbuf.h:
drivers/include/drivers/pl011.h:
drivers/include/drivers/pl190.h:
drivers/include/drivers/sp804.h:
drivers/include/drivers/pl061.h:
drivers/include/drivers/versatile_sysctl.h:
drivers/include/drivers/mmio.h:
board/versatilepb/board.h:
