// `onednn`: oneDNN 3.x (3.13 from venvs/onednn, scripts/requirements/onednn.txt) convolution primitives on the CPU, in every rank it has: 1-D, 2-D and
// 3-D; float32, and the bf16 and f16 rows of the precision table (oneDNN accumulates them in float32), each tensor's
// memory descriptor in its role's format (onednn_type). Its CPU convolution has no float64. A low-precision
// combination oneDNN creates no primitive descriptor for (unimplemented: no f16 below avx512_core_fp16, no bf16
// below avx512_core, no bf16 backward kernel with a float32 diff_dst) is skipped with that reason (missing_kernel).
//
// Each direction of a conv is one oneDNN primitive, its primitive descriptor made from the memory descriptors (a deconv's
// are the deconvolution_forward / _backward_data / _backward_weights primitives with the same arguments: src is
// the deconv's data, dst its output, weights {G, C_out/G, C_in/G, k...} held as our IOHW per group, "giohw"; oneDNN
// takes output_padding as the destination's size, with padding_r the deconv's pad_end, so only below the stride):
//   output      convolution_forward(forward_training)  src=data, weights=weight          -> dst
//   grad_data   convolution_backward_data              diff_dst=grad_output, weights     -> diff_src
//   grad_weight convolution_backward_weights (no bias) src=data, diff_dst=grad_output    -> diff_weights
// The backward descriptors need the forward primitive descriptor as a hint; one is built per case and shared.
//
// Geometry translation (dnnl.hpp, convolution_forward::primitive_desc), for 1-D, 2-D and 3-D alike: tensors have rank
// 2 + ndims, the problem's own axes only ([N, C, W], [N, C, H, W], [N, C, D, H, W]); dilation counts from 0 in
// oneDNN, so it gets dilation - 1; padding_l is each axis's pad_begin, padding_r its pad_end; grouped weights have
// rank 3 + ndims {G, K/G, C/G, kernel...} ("goiw", "goihw", "goidhw"), ungrouped ones 2 + ndims {K, C, kernel...},
// which is how frameworks call oneDNN and so selects the ungrouped kernels. `onednn` asks for convolution_direct,
// judged under the summation bound; `onednn_auto` (oracles/onednn/onednn_auto.cpp) asks for convolution_auto
// through the same code, and each result declares the algorithm class of
// the kernel that ran, so it is judged under that class's bound (core/numerics/algorithm_bound.hpp). oneDNN takes negative padding only at the end of an axis and smaller than the
// stride (onednn_refused_padding, oracles/onednn/skips.cpp, says why); other crops are skipped. Kernels with a
// known bug are held back by the rows of oracles/onednn/known_bugs.cpp (core/run/known_bug.hpp), asked once the
// kernel is chosen and before it runs, and every buffer oneDNN reads or writes is followed by guards
// (oracles/onednn/memory.hpp).
//
// The parts, one file each: memory descriptors and format tags (oracles/onednn/descs.hpp), a case's
// primitive descriptors, conv and deconv (primitives.hpp), its inputs held and reordered (held_input.hpp), why a
// direction is skipped (skips.hpp), its known bugs (known_bugs.cpp); here, running them.
//
// Paths (oracles/onednn/onednn.hpp). Every fuzz case has a new shape, and oneDNN pays per shape: primitive descriptors
// (its dispatcher runs each candidate kernel's setup until one accepts), JIT code generation for the jit kernels
// and for every reorder, and page-protection changes for the code. The plain path (x64:gemm:jit almost always: no
// per-shape JIT, no reorders) costs well under half of the two others (any_weights: brgconv / jit for NHWC, gemm
// for NCHW, weight reorders; blocked: jit:avx512_core, jit_dw, jit_1x1, gemm, about six JIT-compiled reorders per
// case); docs/performance.md ("Machine figures behind the code") has the per-path figures. With every case
// `blocked`, oneDNN dominated convcheck's time. So a case takes `blocked` with probability 1/8, `any_weights` 1/8
// and `plain` 3/4, decided by a hash of (seed, case index): over a campaign every path and kernel family keeps
// being fuzzed with the full config distribution (a nightly 100k-case run sends 12.5k cases down each JIT path),
// at about half the cost. The plain path gets its weights in the layout
// oneDNN's plain kernels read, not the case's weight layout, because oneDNN serves OHWI, or HWIO with NCHW data,
// only from its reference implementation (ref:any), which is not what frameworks run. Reorders, in the two other
// paths, are part of what is tested.

#include "oracles/onednn/onednn.hpp"

#include <cassert>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>
#include <oneapi/dnnl/dnnl_debug.h>
#include <fmt/format.h>

#include "core/problem/descriptor.hpp"
#include "core/run/known_bug.hpp"
#include "core/problem/op.hpp"
#include "core/problem/precision_table.hpp"
#include "oracles/onednn/accumulation_modes.hpp"
#include "oracles/onednn/isa_caps.hpp"
#include "core/numerics/fill.hpp"
#include "core/tensor/layout.hpp"
#include "oracles/onednn/descs.hpp"
#include "oracles/onednn/held_input.hpp"
#include "oracles/onednn/isa_server.hpp"
#include "oracles/onednn/memory.hpp"
#include "oracles/onednn/primitives.hpp"
#include "oracles/onednn/skips.hpp"

namespace convcheck {

using namespace onednn_internal; // this strategy's parts (the other files of oracles/onednn/)

std::string onednn_version() {
  const dnnl_version_t *version = dnnl_version();
  return fmt::format("{}.{}.{}", version->major, version->minor, version->patch);
}

std::string onednn_strategy_name(OnednnAlgorithm algorithm) {
  switch (algorithm) {
  case OnednnAlgorithm::direct: return "onednn";
  case OnednnAlgorithm::automatic: break;
  }
  return "onednn_auto";
}

namespace {

/// Runs the primitive of `direction` and returns its result in canonical layout.
Tensor run_direction(const Case &c, OnednnPath path, const CasePrimitives &primitives, const dnnl::primitive_desc &pd,
                     HeldInputs &held, Direction direction, dnnl::stream &stream) {
  const Problem &config = c.problem;
  const auto wanted = [&pd](int argument) { return pd.query_md(dnnl::query::exec_arg_md, argument); };
  const Descs &user = primitives.user();
  std::unordered_map<int, memory> arguments;
  Tensor result;
  memory::desc result_desc;
  int result_argument = 0;
  switch (direction) {
  case Direction::output:
    arguments = {{DNNL_ARG_SRC, held.data.as(wanted(DNNL_ARG_SRC), stream)},
                 {DNNL_ARG_WEIGHTS, held.weight.as(wanted(DNNL_ARG_WEIGHTS), stream)}};
    result = Tensor::uninitialized(result_dtype(config, direction), data_shape_in(config.output_shape(), config.data_layout));
    result_desc = user.output, result_argument = DNNL_ARG_DST;
    break;
  case Direction::grad_data:
    arguments = {{DNNL_ARG_DIFF_DST, held.grad_output.as(wanted(DNNL_ARG_DIFF_DST), stream)},
                 {DNNL_ARG_WEIGHTS, held.weight.as(wanted(DNNL_ARG_WEIGHTS), stream)}};
    result = Tensor::uninitialized(result_dtype(config, direction), data_shape_in(config.data_shape(), config.data_layout));
    result_desc = user.data, result_argument = DNNL_ARG_DIFF_SRC;
    break;
  case Direction::grad_weight:
    arguments = {{DNNL_ARG_SRC, held.data.as(wanted(DNNL_ARG_SRC), stream)},
                 {DNNL_ARG_DIFF_DST, held.grad_output.as(wanted(DNNL_ARG_DIFF_DST), stream)}};
    result = Tensor::uninitialized(result_dtype(config, direction), weight_shape_in(config.weight_shape(), held_weight_layout(config, path)));
    result_desc = user.weight, result_argument = DNNL_ARG_DIFF_WEIGHTS;
    break;
  }
  GuardedMemory user_result(result_desc, GuardedMemory::Guard::result);
  std::optional<GuardedMemory> chosen; // the result in the layout the primitive chose, when not the user's
  if (result_desc != wanted(result_argument)) chosen.emplace(wanted(result_argument), GuardedMemory::Guard::result);
  arguments[result_argument] = chosen ? chosen->get() : user_result.get();
  ThreadScratch &scratch = ThreadScratch::current();
  arguments[DNNL_ARG_SCRATCHPAD] = scratch.scratchpad(pd.scratchpad_desc());
  dnnl::primitive(pd).execute(stream, arguments);
  if (chosen) {
    memory from = chosen->get(), to = user_result.get();
    dnnl::reorder(from, to).execute(stream, from, to);
  }
  stream.wait();
  scratch.check_guard();
  const char *result_name = direction == Direction::output      ? "dst"
                            : direction == Direction::grad_data ? "diff_src"
                                                                : "diff_weights";
  if (chosen) chosen->check(result_name);
  user_result.check(result_name);
  assert(result.byte_size() == user_result.size());
  std::memcpy(result.bytes(), user_result.data(), result.byte_size());
  if (direction == Direction::grad_weight) {
    const WeightLayout layout = held_weight_layout(config, path);
    return layout == WeightLayout::oix ? std::move(result) : from_weight_layout(result, layout);
  }
  return config.data_layout == DataLayout::ncx ? std::move(result) : from_data_layout(result, config.data_layout);
}

/// dnnl::error::what() names only the failing call; add the status ("unimplemented", "invalid_arguments").
std::string describe(const dnnl::error &error) {
  return fmt::format("onednn: {} ({})", error.what(), dnnl_status2str(error.status));
}

/// Every direction gets the same error: without a forward primitive descriptor none can run.
RunResults all_failed(const Op op, const std::string &error) {
  RunResults runs;
  for (const DirectionInfo &each : directions(op)) runs[each.direction].error = error;
  return runs;
}

/// The bf16 and f16 rows of the precision table (all accumulate in float32, as oneDNN does): oneDNN computes those it
/// has kernels for and skips the others with the reason (missing_kernel).
std::vector<Precision> low_precisions() {
  std::vector<Precision> rows = precisions_storing(DType::bfloat16);
  for (const Precision &precision : precisions_storing(DType::float16)) rows.push_back(precision);
  return rows;
}

const Registration registration{{
    .name = "onednn",
    .description = "oneDNN 3.x direct convolution and deconvolution primitives (CPU, 1-D, 2-D and 3-D; per case plain "
                   "layouts, any weights, or blocked layouts with reorders); float32, no float64 (oneDNN's CPU "
                   "convolution has none), bf16 where the ISA has avx512_core and f16 with avx512_core_fp16 or "
                   "avx2_vnni_2 (else skipped with oneDNN's reason; deconvolution float32 only); crops only at the end "
                   "of an axis and smaller than its stride, as oneDNN's descriptor requires; holds back the kernels of "
                   "its known bugs (`strategies --known-bugs`; --run-held-back runs them)",
    .supports = {.ops = {Op::conv, Op::deconv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32},
                 .precisions = low_precisions(),
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .unsupported = [](const Problem &problem, Direction) -> std::string {
      // Its deconvolution primitives are checked here in float32 only (tests/oracles/onednn/onednn_test.cpp).
      if (problem.op == Op::deconv && problem.precision != Precision::uniform(DType::float32))
        return "oneDNN's deconvolution is run in float32 only";
      return onednn_refused_padding(problem);
    },
    // Under the case's ISA cap (oracles/onednn/isa_caps.hpp): in this process when it runs at that cap, else in a server
    // process started with it (oracles/onednn/isa_server.hpp).
    .run_case = [](const Case &c, const Asked &asked) {
      return onednn_results_capped(c, onednn_path(c), OnednnAlgorithm::direct, asked.run_held_back);
    },
    // No warm_up: oneDNN's engine is a SYCL CPU device whose runtime keeps threads (its host-task pool, TBB's), and
    // a process forked after it made them waits forever on its first primitive. Each worker makes its own engine.
    .identity =
        [] { return ImplementationIdentity{"oneDNN", onednn_version()}; },
    // Called for a failed direction only, so it builds only the primitive descriptor (no JIT code generation).
    // It must not throw: the caller records it outside its exception guard.
    .implementation = [](const Case &c, Direction direction) -> std::string {
      if (c.problem.precision.acc != DType::float32) return "";
      const OnednnPath path = onednn_path(c);
      const std::string cap = isa_cap_of(c), mode = acc_mode_of(c);
      if (!cap.empty() && !host_lacks(cap).empty()) return "";
      try {
        return fmt::format("{} ({} path, cap {}, oneDNN isa {}, accumulation mode {})",
                           onednn_implementation_under(cap, c.problem, direction, path, OnednnAlgorithm::direct, mode),
                           to_string(path), cap.empty() ? "none" : cap, onednn_isa_under(cap),
                           mode.empty() ? "none set" : mode);
      } catch (const std::exception &error) {
        return fmt::format("unknown: {}", error.what());
      }
    },
}};

} // namespace

std::string to_string(OnednnPath path) {
  switch (path) {
  case OnednnPath::plain: return "plain";
  case OnednnPath::any_weights: return "any_weights";
  case OnednnPath::blocked: return "blocked";
  }
  return "?";
}

OnednnPath onednn_path(const Case &conv_case) {
  switch (mix64(mix64(conv_case.seed ^ 0x6f6e65646e6e2d70ULL) ^ conv_case.case_index) % 8) {
  case 0: return OnednnPath::blocked;
  case 1: return OnednnPath::any_weights;
  default: return OnednnPath::plain;
  }
}

namespace {

dnnl::algorithm dnnl_algorithm(OnednnAlgorithm algorithm) {
  return algorithm == OnednnAlgorithm::direct ? dnnl::algorithm::convolution_direct : dnnl::algorithm::convolution_auto;
}

/// One direction of `runs` on `primitives`, declaring the class of the kernel that ran when the algorithm was not
/// direct.
void run_one(const Case &c, OnednnPath path, OnednnAlgorithm algorithm, const CasePrimitives &primitives,
             const dnnl::primitive_desc &pd, HeldInputs &held, Direction direction, RunResult &run,
             dnnl::stream &stream) {
  if (algorithm != OnednnAlgorithm::direct) {
    const std::string implementation = pd.impl_info_str();
    run.algorithm = onednn_algorithm_class(implementation);
    if (!run.algorithm) {
      run.skipped = fmt::format("oneDNN ran {}, a Winograd kernel whose transforms convcheck is not told, so no "
                                "bound can judge it",
                                implementation);
      return;
    }
  }
  // A direct kernel's sums are what the accumulation mode allows (oracles/onednn/accumulation_modes.hpp).
  if (const std::string mode = acc_mode_of(c); !mode.empty() && (!run.algorithm || *run.algorithm == Algorithm{})) {
    const AccumulationClass promised = accumulation_class(mode, c.problem, direction);
    if (!promised.not_judged.empty()) {
      run.skipped = promised.not_judged;
      return;
    }
    if (promised.algorithm != Algorithm{}) run.algorithm = promised.algorithm;
  }
  run.result = run_direction(c, path, primitives, pd, held, direction, stream);
}

/// The error of a primitive descriptor oneDNN would not create under the case's accumulation mode `mode` when it
/// creates it without one (`make` creates it under a given mode): the mode is what it refuses, and that is an error
/// of the mode, never a missing kernel. "" when the mode is none or oneDNN refuses the problem without it too.
std::string refused_mode(const std::string &mode, const dnnl::error &error, const std::function<void(const std::string &)> &make,
                         const char *primitive) {
  if (mode.empty() || error.status != dnnl_unimplemented) return "";
  try {
    make("");
  } catch (const dnnl::error &) {
    return "";
  }
  return fmt::format("threw: {}: oneDNN creates the {} without an accumulation mode and refuses it with the mode "
                     "{} (dnnl_accumulation_mode_{})",
                     describe(error), primitive, mode, mode);
}

/// onednn_results, on the calling thread.
RunResults results_here(const Case &c, OnednnPath path, OnednnAlgorithm algorithm, bool run_held_back) {
  RunResults runs;
  bool any_left = false;
  for (const DirectionInfo &each : directions(c.problem.op))
    any_left |= (runs[each.direction].skipped = missing_at_this_isa(c.problem.precision, each.direction)).empty();
  if (!any_left) return runs;
  const std::string mode = acc_mode_of(c);
  std::optional<CasePrimitives> made;
  try {
    made.emplace(c.problem, path, dnnl_algorithm(algorithm), mode);
  } catch (const dnnl::error &error) {
    const auto forward = [&](const std::string &with) { CasePrimitives(c.problem, path, dnnl_algorithm(algorithm), with); };
    if (std::string refused = refused_mode(mode, error, forward, "forward primitive descriptor"); !refused.empty())
      return all_failed(c.problem.op, refused);
    if (std::string missing = missing_kernel_of(c.problem, Direction::output, true, error); !missing.empty())
      return every_direction_skipped(c.problem.op, missing);
    return all_failed(c.problem.op, "threw: " + describe(error));
  }
  try {
    const CasePrimitives &primitives = *made;
    const Descs &user = primitives.user();
    HeldInputs held{hold_data(c[Role::data], c.problem.data_layout, user.data),
                    hold_weight(c[Role::weight], held_weight_layout(c.problem, path), user.weight),
                    hold_data(c[Role::grad_output], c.problem.data_layout, user.output)};
    dnnl::stream &stream = ThreadScratch::current().stream();
    for (const DirectionInfo &each : directions(c.problem.op)) {
      const Direction direction = each.direction;
      RunResult &run = runs[direction];
      if (!run.skipped.empty()) continue;
      dnnl::primitive_desc pd;
      try {
        pd = primitives.of(direction);
      } catch (const dnnl::error &error) {
        const auto backward = [&](const std::string &with) {
          CasePrimitives(c.problem, path, dnnl_algorithm(algorithm), with).of(direction);
        };
        if (run.error = refused_mode(mode, error, backward, "primitive descriptor of this direction"); !run.error.empty())
          continue;
        run.skipped = missing_kernel_of(c.problem, direction, false, error);
        if (run.skipped.empty()) run.error = "threw: " + describe(error);
        continue;
      }
      try {
        // The kernel is chosen, not yet run: a known bug of it holds the direction back (known_bugs.cpp).
        const Ran ran([&] { return onednn_ran(pd, path); });
        if (const KnownBug *bug = Asked{{}, run_held_back}.held_back(onednn_strategy_name(algorithm), c, direction, ran))
          run.held_back = held_back_detail(*bug, ran());
        else
          run_one(c, path, algorithm, primitives, pd, held, direction, run, stream);
      } catch (const dnnl::error &error) {
        run.error = "threw: " + describe(error);
      } catch (const OutOfBoundsWrite &error) {
        run.error = std::string("threw: ") + error.what();
      }
    }
  } catch (const dnnl::error &error) {
    return all_failed(c.problem.op, "threw: " + describe(error));
  }
  return runs;
}

} // namespace

RunResults onednn_results(const Case &c, OnednnPath path, OnednnAlgorithm algorithm, bool run_held_back) {
  return one_thread_arena().execute([&] { return results_here(c, path, algorithm, run_held_back); });
}

WeightLayout onednn_weight_layout(const Problem &config, OnednnPath path) { return held_weight_layout(config, path); }

std::string onednn_implementation(const Problem &config, Direction direction, OnednnPath path,
                                  OnednnAlgorithm algorithm, const std::string &acc_mode) {
  return one_thread_arena().execute([&]() -> std::string { // planned as running plans it
    try {
      return CasePrimitives(config, path, dnnl_algorithm(algorithm), acc_mode).of(direction).impl_info_str();
    } catch (const dnnl::error &error) {
      return "none: " + describe(error);
    }
  });
}

} // namespace convcheck
