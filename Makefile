SHELL := /bin/bash
# RunWay Core — the two commands a fresh Debian 12 machine needs are `make demo` and `make test`.
SWIFT ?= swift
RELEASE := .build/release

.PHONY: all deps test-deps build demo test bench soak lint format clean

all: build

deps:
	@scripts/install-deps.sh build

test-deps:
	@scripts/install-deps.sh test

build: deps
	$(SWIFT) build -c release

## A simulated 5 km Mission Flight, end to end, on the built-in simulated board.
demo: build
	$(RELEASE)/runway demo

## Every test: lint, unit tests of each rule, and the end-to-end CLI tests.
test: test-deps lint
	$(SWIFT) build --build-tests
	@$(SWIFT) test --skip-build --parallel 2>&1 | tee .build/test.log | grep -vE '^(Test Case|Test Suite|◇|✔ Test|✔ Suite) '; \
	  status=$${PIPESTATUS[0]}; \
	  grep -E 'Test run with [0-9]+ tests|Executed [0-9]+ tests' .build/test.log | tail -n 2; \
	  exit $$status

## Figures: engine cost per fix, peak memory, accuracy against ground truth.
bench: build
	$(RELEASE)/runway-bench

## 500 power cuts: a child records the demo flight and is SIGKILLed at a random moment.
soak: test-deps
	$(SWIFT) build --build-tests
	@RUNWAY_KILL_ITERATIONS=500 $(SWIFT) test --skip-build --filter KillTests 2>&1 | grep -E 'kill test|Test run|✘'

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

format:
	$(SWIFT) format format --in-place --recursive Package.swift Sources Tests

clean:
	rm -rf .build
