// libFuzzer harness for the two readers of untrusted HDF5 files: read_case_file (case files passed to repro,
// shrink and corpus) and read_result_file (what an external implementation writes). docs/hardening.md says how
// to run it; scripts/run.sh fuzz-reader does.
//
// Contract under test: any bytes either read or are rejected with InputError. Any other exception escapes and
// aborts (libFuzzer reports it as a crash), and so does any sanitizer report or leak.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <unistd.h>

#include "core/problem/descriptor.hpp"
#include "core/storage/case_file.hpp"
#include "core/input_error.hpp"

namespace {

// Far below the CLI's default (2^28): the limit logic is the same, and a fuzzer that allocates a gigabyte per
// input for a file declaring an unwritten dataset of that size would spend its time in memset.
constexpr int64_t max_elements = int64_t{1} << 20;

// One scratch file per process, under $TMPDIR. Each input is written to a new inode (unlink, then create):
// HDF5 recognises an already-open file by device and inode, so rewriting one in place could let a handle
// leaked by an earlier input see stale metadata and make crashes depend on history.
const std::string &scratch_path() {
  static const std::string path =
      (std::filesystem::temp_directory_path() / ("convcheck-fuzz-" + std::to_string(getpid()) + ".h5")).string();
  return path;
}

void write_input(const uint8_t *data, size_t size) {
  const std::string &path = scratch_path();
  std::remove(path.c_str());
  std::FILE *file = std::fopen(path.c_str(), "wb");
  if (file == nullptr || std::fwrite(data, 1, size, file) != size || std::fclose(file) != 0) {
    std::perror(path.c_str()); // the harness's own environment is broken: stop rather than fuzz nothing
    std::abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace convcheck;
  write_input(data, size);
  try {
    read_case_file(scratch_path(), max_elements);
  } catch (const InputError &) {
    // The expected rejection.
  }
  // The result reader converts to the caller's dtype; the input's length picks one so both conversions are
  // exercised without reading every input twice.
  try {
    read_result_file(scratch_path(), parse_descriptor(size % 2 == 0 ? "ic1oc1ih1kh1" : "ic1oc1ih1kh1_f64"),
                     max_elements);
  } catch (const InputError &) {
  }
  return 0;
}
