build/versatilepb/obj/drivers/pl190.c.o: drivers/pl190.c \
 drivers/include/drivers/pl190.h drivers/include/drivers/mmio.h
drivers/include/drivers/pl190.h:
drivers/include/drivers/mmio.h:
