#pragma once
// Why the `onednn` strategy (oracles/onednn/onednn.cpp) runs no kernel for a direction: oneDNN has none for the problem's
// formats at this ISA (a skip, with the reason), it takes no such padding (onednn_refused_padding, oracles/onednn/onednn.hpp),
// or the kernel it chose has a known bug and is held back (core/run/held_back.hpp).

#include <string>

#include <dnnl.hpp>

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

/// Why `direction` of a bf16 `problem` is held back from the kernel `pd` chose (core/run/held_back.hpp; "" when it
/// runs): two oneDNN 2.6 bf16 kernels that return wrong values (oracles/onednn/bf16_bugs.hpp).
std::string broken_bf16_kernel(const Problem &problem, Direction direction, OnednnPath path,
                               const dnnl::primitive_desc &pd);

/// Why the weight gradient of `problem` on `path` is held back (core/run/held_back.hpp; "" when it runs). Two
/// oneDNN 2.6 bugs, each in a kernel that writes or reads outside its memory, so neither is run and discarded:
///
/// 1. A crop at the end of an outer axis padded at the beginning: oneDNN 2.6's jit backward-weights kernel (jit:avx2 here; jit_avx2_conv_bwd_weights_kernel_f32) walks the
/// output rows of an outer axis padded at the beginning in a loop of its own, ended by the kernel height and not by
/// the output size, then counts the remaining rows from the input height (compute_oh_loop_common): right when
/// padding_r >= 0, but a crop at the end leaves fewer output rows than that, and the kernel reads past diff_dst.
/// Measured with a probe (every path and direction, one cropped axis at a time of 1-D, 2-D and 3-D convs: size
/// 1..10, kernel 1..4, stride 2..3, dilation 1..2, pad_begin 0..1, every accepted crop, groups 1..2, up to 32
/// channels, both data layouts, exact data): 186 of about 97,000 runs went wrong, every one a weight gradient on
/// jit:avx2 (any_weights and blocked paths) with the height axis padded at the beginning and cropped at the end:
/// wrong values, heap corruption ("free(): invalid next size"), SIGSEGV, SIGBUS, and once, with several OpenMP
/// threads, a kernel that never returned. gemm, on the same problems, was right, and so were cropped width and depth
/// axes. So only a jit kernel is held back. The depth axis is held back alike as a precaution: the avx2 kernel
/// takes no depth padding (those cases ran on gemm), and the avx512 kernels of other machines, which do, could not
/// be measured here.
///
/// 2. oneDNN issue #6035 (docs/findings.md): the jit_1x1 weight gradient of a strided 1x1 conv whose source is
/// channels-last (the user's layout, so not on the blocked path) with fewer input channels per group than the
/// kernel's channel block (8 on AVX2, 16 on AVX-512) writes past the scratchpad it asks for; the guard bytes
/// after it (ThreadScratch) catch it when this is run anyway (--run-held-back, corpus/upstream/).
std::string broken_weight_gradient(const Problem &problem, const CasePrimitives &primitives, OnednnPath path);

} // namespace convcheck::onednn_internal
