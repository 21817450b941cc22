build/versatilepb/obj/drivers/sp804.c.o: drivers/sp804.c \
 drivers/include/drivers/sp804.h drivers/include/drivers/mmio.h
drivers/include/drivers/sp804.h:
drivers/include/drivers/mmio.h:
