SHELL := /bin/bash
# RunWay Core — the two commands a fresh Debian 12 machine needs are `make demo` and `make test`.
SWIFT ?= swift
RELEASE := .build/release

.PHONY: all deps test-deps build install install-files deb deb-check demo test cross-check board-test bench bench-daemon bench-export bench-viewer bench-callouts bench-elevation bench-voice bench-conditions bench-slips soak fuzz sanitize lint format clean

all: build

deps:
	@scripts/install-deps.sh build

test-deps:
	@scripts/install-deps.sh test

build: deps
	$(SWIFT) build -c release

## Installs runwayd and runway with their systemd units, sysusers file, udev rules and a default
## configuration (an existing /etc/runway/runway.json is never overwritten). DESTDIR and PREFIX
## as usual; the units' ExecStart follows PREFIX. On the board, then:
##   systemd-sysusers && udevadm control --reload && systemctl daemon-reload
##   systemctl enable --now runwayd.socket runwayd.service
PREFIX ?= /usr
DESTDIR ?=
UNITDIR ?= /lib/systemd/system
BINDIR ?= $(RELEASE)
install: build install-files

install-files:
	install -D -m 0755 $(BINDIR)/runwayd $(DESTDIR)$(PREFIX)/bin/runwayd
	install -D -m 0755 $(BINDIR)/runway $(DESTDIR)$(PREFIX)/bin/runway
	install -d $(DESTDIR)$(UNITDIR)
	sed 's|^ExecStart=/usr/bin/|ExecStart=$(PREFIX)/bin/|' systemd/runwayd.service > $(DESTDIR)$(UNITDIR)/runwayd.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/runwayd.service
	install -m 0644 systemd/runwayd.socket $(DESTDIR)$(UNITDIR)/runwayd.socket
	sed 's|/usr/bin/runway |$(PREFIX)/bin/runway |' 'systemd/runway-export@.service' > '$(DESTDIR)$(UNITDIR)/runway-export@.service'
	chmod 0644 '$(DESTDIR)$(UNITDIR)/runway-export@.service'
	install -m 0644 'systemd/runway-stick@.service' '$(DESTDIR)$(UNITDIR)/runway-stick@.service'
	for unit in runway-gadget.service runway-drive.service; do \
	  sed 's|/usr/bin/runway |$(PREFIX)/bin/runway |; s|/usr/lib/runway/|$(PREFIX)/lib/runway/|' systemd/$$unit > $(DESTDIR)$(UNITDIR)/$$unit; \
	  chmod 0644 $(DESTDIR)$(UNITDIR)/$$unit; done
	install -m 0644 systemd/runway-drive.path $(DESTDIR)$(UNITDIR)/runway-drive.path
	install -D -m 0755 board/runway-gadget $(DESTDIR)$(PREFIX)/lib/runway/runway-gadget
	install -D -m 0644 systemd/runway.sysusers $(DESTDIR)/usr/lib/sysusers.d/runway.conf
	install -D -m 0644 udev/60-runway.rules $(DESTDIR)/lib/udev/rules.d/60-runway.rules
	install -D -m 0644 udev/61-runway-export.rules $(DESTDIR)/lib/udev/rules.d/61-runway-export.rules
	install -D -m 0644 README.md $(DESTDIR)$(PREFIX)/share/doc/runway/README.md
	test -e $(DESTDIR)/etc/runway/runway.json || install -D -m 0644 board/runway.json $(DESTDIR)/etc/runway/runway.json

## A Debian package of runwayd and runway (static Swift runtime), for this machine's architecture,
## or with SWIFT_SDK=NAME for an installed Swift SDK's target (`swift build --swift-sdk NAME`; the
## package's Architecture is the target's, e.g. arm64): README, "Building for arm64".
## `scripts/make-deb.sh --plan` says what it would build.
SWIFT_SDK ?=
deb: deps
	@if [ -n "$(SWIFT_SDK)" ]; then scripts/install-deps.sh cross; fi
	SWIFT=$(SWIFT) SWIFT_SDK=$(SWIFT_SDK) scripts/make-deb.sh .build

## The package checked: control fields, conffiles, every file with its owner and mode, the
## maintainer scripts, and the binaries run from the extracted tree without a Swift runtime.
deb-check: deps
	@rm -f .build/runway_*.deb
	@scripts/check-deb.sh "$$(SWIFT=$(SWIFT) SWIFT_SDK= scripts/make-deb.sh .build | tail -n 1)"

## A simulated 5 km Mission Flight, end to end, on the built-in simulated board.
demo: build
	$(RELEASE)/runway demo

# Suites that keep real time with a live feed (gpsfake's replay, runwayd on the simulated board):
# a consumer the pool holds up for seconds misses what the feed already sent, so they run in a
# process of their own.
# The sensors' scans (a 1 s scan answered past its 11 s deadline when two parallel suites held
# the pool) and gpsd's hostile endpoints (a retry timed against its back-off) are such suites too.
REAL_TIME_SUITES := RunWayDaemonTests\.(BoardServiceTests|SleeperTests|StatusReporterTests|DaemonEndToEndTests|ControlCommandTests|DaemonShutdownTests|DaemonBatteryTests|GPSDFaultTests|SecondDaemonTests|SimulatedStartTests|WorkoutThroughTheSocketTests|SensorServiceTests)|RunWayHardwareTests\.(GPSDClientTests|GPSDHostileTests)
## What can be checked for arm64 here (issue 29): the C shims compile, link and load for x86_64 and,
## with Debian's aarch64 cross compiler and the arm64 -dev packages (multiarch), for aarch64 under
## qemu-aarch64; the ABI table (Tests/Fixtures/abi/abi.tsv) holds for both. Installs what it needs
## (scripts/install-deps.sh cross); ~2 s once installed. CROSS_CHECK=skip skips it in `make test`.
cross-check:
	@if [ "$(CROSS_CHECK)" = skip ]; then echo "cross-check: skipped (CROSS_CHECK=skip)"; else \
	  scripts/install-deps.sh cross && scripts/cross-check.sh; fi

## Every test: lint, the arm64 cross-check, unit tests of each rule, and the end-to-end CLI tests.
test: test-deps lint cross-check
	@scripts/interop-venv.sh >/dev/null
	@# The board test's judging of the buzzer line, on traces made here (the board test is its own target).
	@python3 -m unittest discover -s Tests/Board -p 'test_*.py'
	$(SWIFT) build --build-tests
	@$(SWIFT) test --skip-build --parallel --skip '$(REAL_TIME_SUITES)' 2>&1 | tee .build/test.log \
	  | grep -vE '^(Test Case|Test Suite|◇|✔ Test|✔ Suite) '; \
	  status=$${PIPESTATUS[0]}; \
	  grep -E 'Test run with [0-9]+ tests|Executed [0-9]+ tests' .build/test.log | tail -n 2; \
	  [ $$status -eq 0 ] || exit $$status
	@# runwayd's services keep real time on Swift's cooperative pool; the suites that time them run
	@# in a process of their own, where no other suite's blocking work can hold the pool's threads.
	@$(SWIFT) test --skip-build --filter '$(REAL_TIME_SUITES)' 2>&1 | tee .build/test-real-time.log \
	  | grep -vE '^(Test Case|Test Suite|◇|✔ Test|✔ Suite) '; \
	  status=$${PIPESTATUS[0]}; \
	  grep -E 'Test run with [0-9]+ tests|Executed [0-9]+ tests' .build/test-real-time.log | tail -n 1; \
	  [ $$status -eq 0 ] || exit $$status
	@$(MAKE) --no-print-directory deb-check

## Figures: engine cost per fix, peak memory, accuracy against ground truth.
## The firmware as installed on Debian's own kernel under qemu: real i2c-stub, gpio-sim, serial GPS, systemd,
## 20 power cuts (Tests/Board; installs what it needs; BOARD_TEST=skip skips it, BOARD_CUTS=N).
board-test: deps
	SWIFT=$(SWIFT) scripts/board-test.sh

bench: build
	$(RELEASE)/runway-bench

# Only the export figures (a 24-hour flight to FIT, GPX, TCX, and gpxpy's GPX for the ratio).
bench-export: build test-deps
	$(RELEASE)/runway-bench export

# Only the viewer's figures (300 runs and a 24-hour flight in headless Chromium): ~30 s.
bench-viewer: build test-deps
	$(RELEASE)/runway-bench viewer

# Only the callout figures (GPWS episodes at a band edge, SPLIT callout delay): ~10 s.
bench-callouts: build
	$(RELEASE)/runway-bench callouts

# Only the elevation figures (barometer vs GPS altitude alone, loop closure): ~10 s.
bench-elevation: build
	$(RELEASE)/runway-bench elevation

# Only issue 26's hard conditions (cold start, outages, tree cover, urban stops, weather, intervals,
# slow, fast, 10 Hz), median and worst over 20 seeds: ~3 s. `runway-bench conditions --json` for scripts.
bench-conditions: build
	$(RELEASE)/runway-bench conditions

# Issue 27's slips: a PAUSE bump, a car, a bus, a forgotten stop, a sprint finish (20 seeds).
bench-slips: build
	$(RELEASE)/runway-bench slips

# Only runwayd's figures (start → READY, idle wake-ups, CPU per hour, memory over 24 h): ~10 min.
# runwayd and the bench built as the .deb builds them (the Swift runtime linked statically, in the
# package's own build folder .build/deb), so its RSS is the board's (issue 29).
bench-daemon: deps
	$(SWIFT) build -c release --scratch-path .build/deb --static-swift-stdlib --product runwayd
	$(SWIFT) build -c release --scratch-path .build/deb --static-swift-stdlib --product runway-bench
	.build/deb/release/runway-bench daemon

# Only the voice's figures (synthesis per utterance, split callout → sound, memory): ~20 s.
bench-voice: build
	$(RELEASE)/runway-bench voice

## 500 power cuts: a child records the demo flight and is SIGKILLed at a random moment; then 300
## flights with a damaged journal sector and 300 whose card fills mid-run.
soak: test-deps
	$(SWIFT) build --build-tests
	@RUNWAY_KILL_ITERATIONS=500 $(SWIFT) test --skip-build --filter KillTests 2>&1 | grep -E 'kill test|Test run|✘'
	@RUNWAY_CARD_SOAK_ITERATIONS=300 $(SWIFT) test --skip-build --filter CardSoakTests 2>&1 \
	  | grep -E 'soak:|Test run|✘'

## libFuzzer on each parser that takes outside bytes, FUZZ_SECONDS each (default 60), seeded from
## Tests/Fixtures/fuzz, with inputs up to 64 KiB (the control socket's line limit; issue 22's
## overflow needed that much); findings land in .build/fuzz/findings. Copy a finding into the seed
## folder once fixed: the test suite replays every seed.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= trace pressure mission control configuration
fuzz: deps
	$(SWIFT) build --product runway-fuzz --scratch-path .build/fuzz \
	  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld
	@mkdir -p .build/fuzz/findings
	@set -o pipefail; for target in $(FUZZ_TARGETS); do \
	  mkdir -p .build/fuzz/corpus/$$target; \
	  echo "== fuzzing $$target for $(FUZZ_SECONDS) s"; \
	  .build/fuzz/debug/runway-fuzz $$target .build/fuzz/corpus/$$target Tests/Fixtures/fuzz/$$target \
	    -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
	    -artifact_prefix=.build/fuzz/findings/$$target- -print_final_stats=1 2>&1 \
	    | grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==ERROR|SUMMARY)' \
	    || { echo "fuzz: $$target found a crash, kept in .build/fuzz/findings"; exit 1; }; \
	done

## The test suite under ThreadSanitizer, then AddressSanitizer (each in its own build folder).
sanitize: test-deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build/tsan
	$(SWIFT) test --skip-build --sanitize=thread --scratch-path .build/tsan 2>&1 | tee .build/tsan.log \
	  | grep -E 'ThreadSanitizer|Test run with|✘' ; exit $${PIPESTATUS[0]}
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build/asan
	LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan.supp \
	  $(SWIFT) test --skip-build --sanitize=address --scratch-path .build/asan 2>&1 | tee .build/asan.log \
	  | grep -E 'AddressSanitizer|LeakSanitizer|Test run with|✘' ; exit $${PIPESTATUS[0]}

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

format:
	$(SWIFT) format format --in-place --recursive Package.swift Sources Tests

clean:
	rm -rf .build
