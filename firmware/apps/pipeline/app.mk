# The example application: producer and consumer over a queue, a pool,
# time-outs and the board's DMA (docs/user-guide.md, "Your own application").
$(eval $(call app,pipeline))
