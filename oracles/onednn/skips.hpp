#pragma once
// Why the `onednn` strategy (oracles/onednn/onednn.cpp) runs no kernel for a direction: oneDNN has none for the
// problem's formats at this ISA (a skip, with the reason) or it takes no such padding (onednn_refused_padding,
// oracles/onednn/onednn.hpp). A kernel with a known bug is held back by a row of known_bugs.cpp instead.

#include <string>

#include <oneapi/dnnl/dnnl.hpp>

#include "core/problem/direction.hpp"
#include "core/problem/precision_table.hpp"
#include "core/problem/problem.hpp"
#include "oracles/onednn/onednn.hpp"
#include "oracles/onednn/primitives.hpp"

namespace convcheck::onednn_internal {

/// The skip reason of a direction's primitive descriptor that failed to be created (missing_kernel): the forward
/// one fails every direction, since it is every backward one's hint.
std::string missing_kernel_of(const Problem &problem, Direction direction, bool forward_failed,
                              const dnnl::error &error);

/// missing_kernel for `direction` of every problem of `precision` in this process, known before any of them is
/// tried: oneDNN selects its convolutions by data types first (each implementation's init checks them before any
/// shape, and ref:any takes every shape of the types it takes), so a small probe conv whose descriptor is refused as
/// unimplemented stands for every shape. Asked once per process (the ISA is the process's) and precision, so a case
/// whose formats oneDNN has no kernel for costs no descriptor creation (oneDNN tries each of its ~30 candidates and
/// throws): measured, that was most of what low precision added to a default one-worker fuzz.
std::string missing_at_this_isa(const Precision &precision, Direction direction);

/// What the known-bug rows (known_bugs.cpp) are told would run: oneDNN's implementation name and the path the
/// case's tensors take, "jit_1x1:avx2 (plain path)".
std::string onednn_ran(const dnnl::primitive_desc &pd, OnednnPath path);

} // namespace convcheck::onednn_internal
