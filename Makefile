# tritonc - a Triton compiler in C.  `make` builds the CLI and the libraries,
# `make test` runs every test, `make asan` runs them under ASan + UBSan.
# No configure step; every source file under src/ is part of the library
# except the CLI's main.

CC      ?= cc
BUILD   ?= build
OPT     ?= -O2 -g
SAN     ?=
# -Wshadow=local is gcc's; clang gets the flags it knows.
WSHADOW := $(shell $(CC) -Werror -Wshadow=local -x c -c /dev/null -o /dev/null 2>/dev/null && echo -Wshadow=local)
CFLAGS_ALL = -std=c11 -D_GNU_SOURCE $(OPT) $(SAN) -fPIC -Wall -Wextra -Werror \
             -Wno-unused-parameter $(WSHADOW) -Wstrict-prototypes -Wvla \
             -Iinclude -Isrc $(CFLAGS)
LDLIBS_ALL = -lm -ldl -lpthread

CLI_SRC  := src/driver/main.c
LIB_SRCS := $(filter-out $(CLI_SRC),$(sort $(shell find src -name '*.c')))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
UNIT_SRCS := $(sort $(wildcard tests/unit/*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
HDRS := $(shell find src include -name '*.h' -o -name '*.def')

# The library's build id, part of every source-keyed cache key
# (src/driver/source_cache.c): a checksum of every source and header, so a
# library rebuilt from changed sources never loads an entry an older one
# wrote. Reproducible (no dates); the one object that holds it depends on
# every source, so it is rebuilt whenever the id changes.
# (the rules below are not the default goal: `make` alone builds `all`)
.DEFAULT_GOAL := all
TC_BUILD_ID := $(shell cat $(LIB_SRCS) $(sort $(HDRS)) | cksum | cut -d' ' -f1)
$(BUILD)/obj/src/driver/source_cache.o: CFLAGS_ALL += -DTC_BUILD_ID='"$(TC_BUILD_ID)"'
$(BUILD)/obj/src/driver/source_cache.o: $(LIB_SRCS)

.PHONY: all test asan fuzz-ir fuzz-py fuzz-tri fuzz-compile demo clean
all: $(BUILD)/tritonc $(BUILD)/libtritonc.a $(BUILD)/libtritonc.so

# Profile-guided optimisation (gcc 10 or later; PGO=0 turns it off, and
# sanitizer builds never use it). The library is built a first time
# instrumented ($(BUILD)/pgo), tools/pgo_train compiles the kernel corpus
# with it (every specialisation of tests/kernels, to PTX for sm_90 and sm_80
# and to C), and the objects are then built from that profile: hot paths laid
# out straight and together, cold ones moved aside. Code the corpus never
# ran is optimised as without a profile (-fprofile-partial-training), so a
# kernel unlike the corpus compiles no slower than in a plain -O2 build.
# -dumpbase names each object as its instrumented twin: gcc finds the profile
# by that name and tells a file's static functions apart by it. A source
# change retrains, so a full build runs twice; PGO=0 for a quick edit loop.
# Every file passes -Werror in the instrumented build; the profile's own
# inlining can make gcc's flow-sensitive checks (maybe-uninitialized, ...)
# guess differently in the last one, which a newer gcc must not turn into a
# failed build, so there its warnings print and do not stop it.
PGO_FLAGS := -fprofile-use -fprofile-partial-training -Wno-missing-profile
PGO ?= $(if $(SAN),0,$(shell $(CC) -Werror $(PGO_FLAGS) -x c -c /dev/null -o /dev/null 2>/dev/null && echo 1))
ifeq ($(PGO),1)
PGO_OBJS := $(LIB_SRCS:%.c=$(BUILD)/pgo/obj/%.o)
PGO_GEN := -fprofile-generate -fprofile-update=atomic
$(BUILD)/pgo/obj/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	@echo "  CC(pgo) $<"
	@$(CC) $(CFLAGS_ALL) $(PGO_GEN) -c $< -o $@
$(BUILD)/pgo/obj/src/driver/source_cache.o: CFLAGS_ALL += -DTC_BUILD_ID='"$(TC_BUILD_ID)"'
$(BUILD)/pgo/pgo_train: tools/pgo_train.c tests/kernels/corpus_header.h $(PGO_OBJS)
	@echo "  LD      $@"
	@$(CC) $(CFLAGS_ALL) -o $@ $(filter %.c %.o,$^) -lgcov $(LDLIBS_ALL)
# (the profile of the last training only: older counts are removed first)
$(BUILD)/pgo/profile.stamp: $(BUILD)/pgo/pgo_train $(wildcard tests/kernels/*.py)
	find $(BUILD)/pgo -name '*.gcda' -delete
	$(BUILD)/pgo/pgo_train tests/kernels
	touch $@
$(BUILD)/obj/%.o: %.c $(HDRS) $(BUILD)/pgo/profile.stamp
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS_ALL) $(PGO_FLAGS) -Wno-error -dumpbase $(BUILD)/pgo/obj/$* -c $< -o $@
else
$(BUILD)/obj/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS_ALL) -c $< -o $@
endif

$(BUILD)/libtritonc.a: $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/libtritonc.so: $(LIB_OBJS) src/driver/exports.map
	$(CC) $(SAN) -shared -Wl,--version-script=src/driver/exports.map -o $@ $(LIB_OBJS) $(LDLIBS_ALL)

$(BUILD)/tritonc: $(BUILD)/obj/$(CLI_SRC:.c=.o) $(BUILD)/libtritonc.a
	$(CC) $(SAN) -o $@ $^ $(LDLIBS_ALL)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libtritonc.a $(HDRS) $(wildcard tests/kernels/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(BUILD)/libtritonc.a $(LDLIBS_ALL)

test: all $(UNIT_BINS)
	/usr/bin/python3 tests/run.py --build $(BUILD) $(if $(SAN),--sanitized)

asan:
	$(MAKE) BUILD=build-asan OPT="-O1 -g" \
	  SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  CFLAGS="-Wno-format-truncation" test
# (gcc 12 reports a false "null format string" under -fsanitize at -O1.)

# Fuzz targets (clang + libFuzzer). `make fuzz-ir FUZZ_TIME=60` runs one.
FUZZ_TIME ?= 30
FUZZ_FLAGS = -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Iinclude -Isrc
$(BUILD)/fuzz/%: tests/fuzz/%.c $(LIB_SRCS) $(HDRS)
	@mkdir -p $(dir $@)
	clang $(FUZZ_FLAGS) -o $@ $< $(LIB_SRCS) $(LDLIBS_ALL)
fuzz-ir: $(BUILD)/fuzz/fuzz_ir
	mkdir -p $(BUILD)/fuzz/corpus-ir && $< -max_total_time=$(FUZZ_TIME) $(BUILD)/fuzz/corpus-ir tests/ir
fuzz-py: $(BUILD)/fuzz/fuzz_py
	mkdir -p $(BUILD)/fuzz/corpus-py && $< -max_total_time=$(FUZZ_TIME) $(BUILD)/fuzz/corpus-py tests/kernels
fuzz-compile: $(BUILD)/fuzz/fuzz_compile
	mkdir -p $(BUILD)/fuzz/corpus-compile && $< -max_total_time=$(FUZZ_TIME) -max_len=16384 $(BUILD)/fuzz/corpus-compile tests/kernels
fuzz-tri: $(BUILD)/fuzz/fuzz_tri
	mkdir -p $(BUILD)/fuzz/corpus-tri && $< -max_total_time=$(FUZZ_TIME) $(BUILD)/fuzz/corpus-tri tests/tri

demo: all
	./examples/demo.sh

clean:
	rm -rf build build-asan
