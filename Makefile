# colophon: the README's two commands are `make demo` and `make test`.
#
#   make build   the programs under cmd/, into bin/, each stamped with its
#                build name (internal/build)
#   make test    go vet, then every test; what .ci/run runs
#   make demo    build, fetch the firmware, and talk to the MCP server
#   make roms    fetch the five firmware images into $(ROMS), pinned by hash
#   make bench   the benchmarks
#   make clean   remove bin/

GO   ?= go
BIN  := bin
# The firmware directory: ./roms, as the programs find it by default.
ROMS ?= roms

# Every program under cmd/, so a new one is built without a change here.
CMDS := $(notdir $(wildcard cmd/*))

.PHONY: all build test demo roms bench clean $(addprefix $(BIN)/,$(CMDS))

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

test:
	$(GO) vet ./...
	$(GO) test -timeout 45m ./...

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
