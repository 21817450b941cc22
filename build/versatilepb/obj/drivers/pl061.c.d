build/versatilepb/obj/drivers/pl061.c.o: drivers/pl061.c \
 drivers/include/drivers/pl061.h drivers/include/drivers/mmio.h
drivers/include/drivers/pl061.h:
drivers/include/drivers/mmio.h:
