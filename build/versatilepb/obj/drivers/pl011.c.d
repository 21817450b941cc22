build/versatilepb/obj/drivers/pl011.c.o: drivers/pl011.c \
 drivers/include/drivers/pl011.h drivers/include/drivers/mmio.h
drivers/include/drivers/pl011.h:
drivers/include/drivers/mmio.h:
