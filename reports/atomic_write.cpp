#include "reports/atomic_write.hpp"

#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <unistd.h>

#include "core/input_error.hpp"

namespace convcheck {

void write_text_atomically(const std::string &path, const std::string &text) {
  const std::string temporary = fmt::format("{}.tmp-{}", path, getpid());
  {
    std::ofstream out(temporary);
    out << text;
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw InputError(fmt::format("cannot write report {}", path));
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) throw InputError(fmt::format("cannot write report {}: {}", path, error.message()));
}

} // namespace convcheck
