# OpenBench builds engines with `make EXE=<path> [EVALFILE=<net>]`; the default target
# does that. EVALFILE embeds that network instead of nets/default.nnue (crates/engine's
# build.rs reads it); FEATURES=tune builds the SPSA binary (every search constant a UCI
# option, see docs/openbench.md).
EXE ?= sable
CARGO ?= cargo
EVALFILE ?=
FEATURES ?=

.PHONY: all clean

all:
	$(if $(EVALFILE),EVALFILE='$(abspath $(EVALFILE))') $(CARGO) build --release -p sable $(if $(FEATURES),--features '$(FEATURES)')
	cp $(or $(CARGO_TARGET_DIR),target)/release/sable$(if $(findstring .exe,$(EXE)),.exe,) $(EXE)

clean:
	$(CARGO) clean
