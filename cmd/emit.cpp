// `repro --emit KIND`: which writer writes the reproducer, and whether it can show the case's finding at all. A
// reproducer runs one implementation (benchdnn and the C program oneDNN, the script PyTorch, a room's script its
// server); written for a finding of another, it would print "agreed" over a real bug. So a finding of another
// strategy is refused, one line naming both, unless `--emit-anyway` asks for it, and then its first line says so.

#include <algorithm>

#include <fmt/format.h>

#include "cmd/emit.hpp"
#include "core/input_error.hpp"

namespace convcheck {

namespace {

struct Writer {
  const char *kind;
  const char *runs_what;          // "oneDNN", for the refusal
  std::vector<std::string> finds; // the strategies whose findings it reproduces
  std::string (*write)(const CaseFile &, const std::string &case_path, const std::string &script_dir);
};

const Writer writers[] = {
    {"benchdnn", "oneDNN's benchdnn", {"onednn", "onednn_auto"},
     [](const CaseFile &c, const std::string &path, const std::string &) { return emit_benchdnn(c, path); }},
    {"c", "oneDNN's C API", {"onednn"},
     [](const CaseFile &c, const std::string &path, const std::string &) { return emit_c(c, path); }},
    {"pytorch", "PyTorch", {"torch", "torch_native", "pytorch_server"}, emit_pytorch},
};

} // namespace

std::string not_the_finder_line(const std::string &finder, const std::string &runs_what) {
  return fmt::format("# NOT a reproducer of this finding: it was found by {}, and this runs {} on the same problem "
                     "and inputs, which may well agree (written with --emit-anyway)\n",
                     finder, runs_what);
}

std::string emit_reproducer(const std::string &kind, const CaseFile &case_file, const std::string &case_path,
                            bool anyway, const std::string &script_dir) {
  // Every writer spells every op: benchdnn's driver per op, oneDNN's convolution or deconvolution API,
  // F.conv*d or F.conv_transpose*d, the room's server's.
  for (const Writer &writer : writers) {
    if (kind != writer.kind) continue;
    const std::string &finder = case_file.finding ? case_file.finding->strategy : std::string();
    if (finder.empty() || std::find(writer.finds.begin(), writer.finds.end(), finder) != writer.finds.end())
      return writer.write(case_file, case_path, script_dir);
    if (!anyway || kind == std::string("c"))
      throw InputError(fmt::format("repro --emit {}: {} is a finding of {}, which {} does not run: its reproducer "
                                   "would run another implementation and could pass over the bug{}",
                                   kind, case_path, finder, writer.runs_what,
                                   kind == std::string("c") ? "" : " (--emit-anyway writes it, saying so)"));
    return not_the_finder_line(finder, writer.runs_what) + writer.write(case_file, case_path, script_dir);
  }
  for (const std::string &room : server_rooms())
    if (kind == room) return emit_server(room, case_file, case_path, anyway);
  throw InputError(fmt::format("unknown --emit kind '{}' (known: {})", kind, emit_kinds()));
}

std::string emit_kinds() {
  std::string kinds;
  for (const Writer &writer : writers) kinds += (kinds.empty() ? "" : ", ") + std::string(writer.kind);
  for (const std::string &room : server_rooms()) kinds += ", " + room;
  return kinds + ", external";
}

} // namespace convcheck
