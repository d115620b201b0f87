# OpenBench convention: `make EXE=<name>` builds the engine to <name> (default: minkowski).
# It needs cargo; EVALFILE and the other variables OpenBench passes are ignored.
#
# `make` builds for the CPU it runs on (CPU=native: popcnt, BMI2, AVX2 where present), which is
# what you want for the machine that plays. `make CPU=x86-64-v3` targets any AVX2-era x86-64;
# `make CPU=` (empty) gives the portable build, the same as `cargo build --release`.
# Non-portable builds go to their own target directory, so they never invalidate the portable one.

EXE ?= minkowski
CARGO ?= cargo
CPU ?= native

ifeq ($(strip $(CPU)),)
BUILD_ENV :=
TARGET_DIR := target
else
BUILD_ENV := RUSTFLAGS="$(RUSTFLAGS) -C target-cpu=$(CPU)"
TARGET_DIR := target/cpu-$(CPU)
endif

.PHONY: all build test bench clean-exe

all: build

# `--emit link=` places the linked binary at $(EXE) (on Windows name it with .exe yourself).
build:
	$(BUILD_ENV) $(CARGO) rustc --release --bin minkowski --target-dir $(TARGET_DIR) -- --emit link=$(EXE)

test:
	$(CARGO) test --release

# The bench signature: the last line reads "<N> nodes <M> nps".
bench: build
	$(abspath $(EXE)) bench

clean-exe:
	rm -f $(EXE)
