#pragma once
// `convcheck repro CASE.h5 --emit KIND [--out FILE]`: a reproducer of a saved finding in a library's own terms, for
// its maintainers: `benchdnn` (oneDNN's harness, cmd/emit_benchdnn.cpp) and `c` (a program against oneDNN's C API
// for an `onednn` finding, cmd/emit_c.cpp) and `pytorch` (a torch.nn.functional script, cmd/emit_pytorch.cpp), and
// the name of every room whose rows are servers (`jax`, `tvm`, ...: the room's own server code on the case, judged
// against NumPy, cmd/emit_server.cpp), and `external` (the user's own command or server, cmd/emit_external.cpp). Each writes text that needs nothing of convcheck. A deconv is written as the
// library's own deconv: oneDNN's deconvolution primitives, F.conv_transpose*d, the room's server's.

#include <string>
#include <vector>

#include "core/storage/case_file.hpp"

namespace convcheck {

/// The kinds `--emit` takes, for its help and its error: "benchdnn, c, pytorch, iree, jax, ...".
std::string emit_kinds();

/// The rooms under oracles/ whose rows are servers (oracles/outside/adapter.hpp), sorted: each an --emit kind.
std::vector<std::string> server_rooms();

/// The reproducer of `kind` for the case saved in `case_path`; throws InputError for an unknown kind, a case the
/// kind cannot express, or a finding of a strategy the kind does not run (unless `anyway`: then its first line
/// says it is not that finding's reproducer) (cmd/emit.cpp).
/// `script_dir` is the directory the reproducer is written to ("" for standard output): a script that reads the case
/// file finds it relative to itself from there, and by its absolute path otherwise.
std::string emit_reproducer(const std::string &kind, const CaseFile &case_file, const std::string &case_path,
                            bool anyway = false, const std::string &script_dir = "");

/// The first line of a reproducer written with --emit-anyway for a finding of `finder`: it runs `runs_what`.
std::string not_the_finder_line(const std::string &finder, const std::string &runs_what);

/// benchdnn command lines: one for the finding's direction, or one per direction for a case without a finding.
std::string emit_benchdnn(const CaseFile &case_file, const std::string &case_path);

/// A C program against oneDNN's C API that runs the finding's direction on the case's inputs, under its ISA cap
/// and on its oneDNN path, and exits 1 when the bug shows; for an `onednn` finding only.
std::string emit_c(const CaseFile &case_file, const std::string &case_path);

/// A Python script that runs the case's op through torch.nn.functional (layout, format, ISA cap of the case) on the
/// case file's inputs, compares against float64 and exits 1 when the bug shows.
std::string emit_pytorch(const CaseFile &case_file, const std::string &case_path, const std::string &script_dir = "");

/// A Python script that runs room `room`'s server code (the row of the case's finding, or the room's first row for
/// a case without one) on the case's request and judges its answer against float64 NumPy under convcheck's bound of
/// the case; exit 1 when the bug shows. Throws InputError for a finding of a strategy that is not the room's.
std::string emit_server(const std::string &room, const CaseFile &case_file, const std::string &case_path,
                        bool anyway = false);

/// A Python script that runs the user's own implementation, a per-case command (`externals`, NAME=COMMAND as
/// --external takes them) or a server (`servers`, as --external-server), the one of the case's finding, on the case
/// and judges its answer against float64 NumPy under convcheck's bound of the case; exit 1 when the bug shows.
/// Throws InputError when none is named, or none is the finding's (unless `anyway`) (cmd/emit_external.cpp).
std::string emit_external(const CaseFile &case_file, const std::string &case_path,
                          const std::vector<std::string> &externals, const std::vector<std::string> &servers,
                          bool anyway = false);

} // namespace convcheck
