# W8Trackr for Linux. `make run` and `make test` are the two set-up commands of the README.
SWIFT ?= swift
CONFIG ?= release
BIN := .build/$(CONFIG)/w8

.PHONY: all deps build run test bench clean

all: build

deps:
	./scripts/install-deps

build: deps
	$(SWIFT) build -c $(CONFIG) --product w8

# Installs what is missing, builds, and runs the main job: your status (log a weight with `$(BIN) add 182.4`).
run: build
	@$(BIN) --version
	$(BIN) status

# Builds everything and runs every test: domain, store, the built CLI, and real notifications through dunst.
test: deps
	$(SWIFT) build --build-tests
	# The waiter's timing tests get a process of their own: the CLI tests block the 2-core test thread pool.
	$(SWIFT) test --skip-build --filter W8SchedulerTests
	$(SWIFT) test --skip-build --skip W8SchedulerTests

# Ratios against peers measured in the same run (see bench/README.md).
bench: deps
	$(SWIFT) build -c release --product w8
	./bench/run.sh .build/release/w8
	./bench/notify.sh .build/release/w8
	./bench/idle.sh .build/release/w8

clean:
	rm -rf .build artifacts
