# OpenBench builds engines with `make EXE=<path>`; the default target does that.
EXE ?= sable
CARGO ?= cargo

.PHONY: all clean

all:
	$(CARGO) build --release -p sable
	cp target/release/sable$(if $(findstring .exe,$(EXE)),.exe,) $(EXE)

clean:
	$(CARGO) clean
