# colophon: the README's two commands are `make demo` and `make test`.
#
#   make build   the programs under cmd/, into bin/, each stamped with its
#                build name (internal/build)
#   make test    go vet, then every test, every fuzz target's seeds among
#                them, and the race detector over the packages whose
#                goroutines meet: the host, the server and the line;
#                what .ci/run runs
#   make fuzz    each fuzz target for $(FUZZTIME) (5m unless given)
#   make fuzz-seeds  write the fuzz targets' seed corpora (internal/fuzzseed)
#   make demo    build, fetch the firmware, and talk to the MCP server
#   make roms    fetch the five firmware images into $(ROMS), pinned by hash
#   make bench   the benchmarks
#   make release the three programs for six platforms, an archive each with
#                the firmware beside them, and SHA256SUMS, into $(DIST)
#   make npm     the npm packages from those archives, packed, into $(DIST)/npm
#   make clean   remove bin/

GO   ?= go
BIN  := bin
# The firmware directory: ./roms, as the programs find it by default.
ROMS ?= roms

# Every program under cmd/, so a new one is built without a change here.
CMDS := $(notdir $(wildcard cmd/*))

.PHONY: all build test fuzz fuzz-seeds demo roms bench clean release npm $(addprefix $(BIN)/,$(CMDS))

all: build

build: $(addprefix $(BIN)/,$(CMDS))

# go build knows what is stale, so each program's rule always runs. The
# stamp names the build from git: the commit, and .dirty where a file the
# program compiles differs from it (spec, "The name of the build").
$(addprefix $(BIN)/,$(CMDS)): $(BIN)/%:
	@mkdir -p $(BIN)
	@flags="$$($(GO) run ./internal/build/stamp ./cmd/$*)" && \
	echo "$(GO) build -trimpath -ldflags '$$flags' -o $@ ./cmd/$*" && \
	$(GO) build -trimpath -ldflags "$$flags" -o $@ ./cmd/$*

# Plain go test runs each fuzz target's seeds in testdata/fuzz. The race
# detector runs over the packages where requests, machines' queues, a
# line's reader and the window's loop meet on goroutines of their own.
RACE_PKGS := ./internal/host/ ./internal/server/ ./internal/line/ ./internal/window/ ./internal/proxy/

test:
	$(GO) vet ./...
	$(GO) test -timeout 45m ./...
	$(GO) test -race -timeout 45m $(RACE_PKGS)

# Every fuzz target, found by its name, each run for FUZZTIME with
# FUZZPARALLEL workers, one target at a time: the machine is shared. A
# finding stops make, its input kept in the target's testdata/fuzz.
FUZZTIME     ?= 5m
FUZZPARALLEL ?= 1
FUZZ_TARGETS = $(shell grep -rH --include='*_test.go' --exclude-dir=testdata -o '^func Fuzz[A-Za-z0-9_]*' cmd internal 2>/dev/null | sed -E 's|^(.*)/[^/]*_test.go:func (Fuzz.*)|./\1:\2|' | LC_ALL=C sort)

fuzz:
	@for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		echo "== $$pkg $$name for $(FUZZTIME)"; \
		$(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) -parallel $(FUZZPARALLEL) $$pkg || exit 1; \
	done

fuzz-seeds:
	$(GO) run ./internal/fuzzseed/gen

roms: $(BIN)/colophon
	$(BIN)/colophon roms fetch --dir $(ROMS)

# The demo boots a machine through the real MCP server, end to end: a small
# client (test/demo) starts bin/colophon-mcp on the firmware directory and
# writes JSON-RPC to it as a client would, initialize, machine_open
# spectrum48, run, type p2+2 and ENTER, monitor; it writes monitor's
# picture to $(DEMO_PNG) and says where.
DEMO_PNG := $(BIN)/demo-spectrum48.png

demo: build roms
	@echo
	@echo "== the build"
	$(BIN)/colophon-mcp --version
	@echo
	@echo "== colophon-mcp over stdio: a spectrum48 typing p2+2"
	@rm -f $(DEMO_PNG)
	$(GO) run ./test/demo --server $(BIN)/colophon-mcp --roms $(ROMS) --out $(DEMO_PNG)

# Only the packages that have benchmarks, so the rest are not compiled for
# nothing.
BENCH_PKGS = $(patsubst %/,%,$(sort $(dir $(shell grep -rl --include='*_test.go' --exclude-dir=testdata '^func Benchmark' cmd internal 2>/dev/null))))

bench:
	@if [ -z "$(BENCH_PKGS)" ]; then echo "no benchmarks yet"; \
	else echo "$(GO) test -run '^$$' -bench . -benchmem $(addprefix ./,$(BENCH_PKGS))"; \
	$(GO) test -run '^$$' -bench . -benchmem $(addprefix ./,$(BENCH_PKGS)); fi

clean:
	rm -rf $(BIN)

# A release (internal/release): colophon-mcp, colophon and pidp10-mcp for
# each of $(PLATFORMS), cross-compiled with CGO_ENABLED=0, -trimpath and no
# build ID, each stamped as make build stamps it; each platform an archive
# (.zip for Windows, .tar.gz elsewhere) of the programs with roms/ beside
# them, the README, $(LICENSE) and the firmware's copyright notice; and
# SHA256SUMS over the archives. The firmware is fetched into $(ROMS) as make
# roms fetches it, unless ROMS=DIR is given, and every image is checked
# against its pin either way. The same commit gives the same bytes.
DIST      ?= dist
LICENSE   ?= LICENSE
PLATFORMS ?= linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
RELEASE_CMDS := colophon-mcp colophon pidp10-mcp

release: $(if $(filter command line environment,$(origin ROMS)),,roms)
	$(GO) run ./internal/release/assemble archives -out $(DIST) -roms $(ROMS) \
		-license $(LICENSE) -platforms "$(PLATFORMS)" \
		$(foreach c,$(RELEASE_CMDS),-stamp "$(c)=$$($(GO) run ./internal/build/stamp ./cmd/$(c))")

# The npm packages, laid out as esbuild lays out its own: colophon-mcp, a
# launcher in plain JavaScript (npm/colophon-mcp), with one optional
# dependency per platform, @colophon-mcp/<os>-<cpu>, each holding that
# platform's archive; each packed with npm pack into $(DIST)/npm.
npm: release
	$(GO) run ./internal/release/assemble npm -out $(DIST) -platforms "$(PLATFORMS)"
