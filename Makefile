# OpenBench convention: `make EXE=<name>` builds the engine to <name> (default: minkowski).
# It needs cargo; EVALFILE and the other variables OpenBench passes are ignored.

EXE ?= minkowski
CARGO ?= cargo

.PHONY: all build test bench clean-exe

all: build

# `--emit link=` places the linked binary at $(EXE) (on Windows name it with .exe yourself).
build:
	$(CARGO) rustc --release --bin minkowski -- --emit link=$(EXE)

test:
	$(CARGO) test --release

# The bench signature: the last line reads "<N> nodes <M> nps".
bench: build
	$(abspath $(EXE)) bench

clean-exe:
	rm -f $(EXE)
