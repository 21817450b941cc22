# make -s -f board/B/board.mk -f tools/lib/board-var.mk print-VAR: one of a
# board's variables as its board.mk sets it, without the whole Makefile.
print-%:
	@echo '$($*)'
