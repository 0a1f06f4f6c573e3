#include "oracles/onednn/skips.hpp"

#include <map>
#include <mutex>
#include <utility>

#include <oneapi/dnnl/dnnl_debug.h>
#include <fmt/format.h>

#include "core/problem/descriptor.hpp"
#include "core/problem/fields.hpp"
#include "core/problem/op.hpp"
#include "oracles/onednn/isa_server.hpp"

namespace convcheck {

/// Why oneDNN cannot take the padding of `problem` ("" when it can). oneDNN 2.6 creates no convolution descriptor
/// (forward, backward data or backward weights alike, so on every path) unless, on every axis, padding_l >= 0 and
/// padding_r + stride > 0 (conv_desc_init, src/common/convolution.cpp; measured: every other negative padding of a
/// 1-D conv of size 9, kernel 3, stride 1..3 threw invalid_arguments on all three paths, and every accepted one
/// ran; the test SkipsExactlyTheCropsOneDnnRefuses keeps measuring it). So it takes a crop only at the end of an
/// axis and smaller than its stride. Such a crop still matters: it can drop the last output (size 6, kernel 2,
/// stride 2, pad_end -1: 2 outputs instead of 3), and the inputs it drops must get a zero gradient.
std::string onednn_refused_padding(const Problem &problem) {
  for (int64_t index = problem.first_axis(); index < max_ndims; ++index) {
    const SpatialAxis &axis = problem.axes[static_cast<size_t>(index)];
    // oneDNN checks a deconv's sizes as (dst - dilated kernel + padding_l + padding_r) / stride + 1 == src
    // (deconv_desc_init, src/common/deconvolution.cpp): the destination's extra rows are output padding only
    // while they stay below the stride.
    if (problem.op == Op::deconv && axis.output_padding >= axis.stride)
      return fmt::format("oneDNN takes output padding only below the stride (it infers it from the destination's "
                         "size): {} is {} with {} {}",
                         find_int_field("output_padding")->label(index), axis.output_padding,
                         find_int_field("stride")->label(index), axis.stride);
    if (axis.pad_begin < 0)
      return fmt::format("oneDNN takes no crop at the beginning of an axis: {} is {} (it requires padding_l >= 0)",
                         find_int_field("pad_begin")->label(index), axis.pad_begin);
    if (axis.pad_end + axis.stride <= 0)
      return fmt::format("oneDNN takes a crop at the end of an axis only when smaller than the stride: {} is {} "
                         "with {} {} (it requires padding_r > -stride)",
                         find_int_field("pad_end")->label(index), axis.pad_end,
                         find_int_field("stride")->label(index), axis.stride);
  }
  return "";
}

namespace onednn_internal {

namespace {

/// Why oneDNN creating no primitive descriptor of `kind` for `problem` is a skip ("" when it is a finding). For a
/// float32 problem oneDNN always has ref:any, so `unimplemented` there is wrong. For bf16 and f16 oneDNN 2.6 has no
/// kernel for some combinations: no backward one with a float32 diff_dst (it has bf16 diff_dst with a float32
/// diff_src or diff_weights, which no precision row asks for), none at all for bf16 below avx512_core (its ref
/// kernels too require platform::has_data_type_support, src/cpu/platform.cpp), and f16 only with avx512_core_fp16.
/// The reason names the ISA oneDNN runs at, so that a capped case says why its host had no kernel.
std::string missing_kernel(const Problem &problem, const char *kind, const dnnl::error &error) {
  if (error.status != dnnl_unimplemented || problem.precision == Precision::uniform(DType::float32)) return "";
  const dnnl_version_t *version = dnnl_version();
  return fmt::format("oneDNN {}.{}.{} has no {} {} at ISA {} (primitive descriptor creation: unimplemented)",
                     version->major, version->minor, version->patch, precision_words(problem.precision), kind,
                     onednn_process_isa());
}

/// oneDNN's name for the primitive of `direction`.
const char *primitive_kind(Direction direction) {
  switch (direction) {
  case Direction::output: return "convolution forward";
  case Direction::grad_data: return "convolution backward data";
  case Direction::grad_weight: break;
  }
  return "convolution backward weights";
}

} // namespace

std::string missing_kernel_of(const Problem &problem, Direction direction, bool forward_failed,
                              const dnnl::error &error) {
  return missing_kernel(problem, forward_failed ? "convolution forward (every direction's hint)"
                                                : primitive_kind(direction), error);
}

std::string missing_at_this_isa(const Precision &precision, Direction direction) {
  if (precision == Precision::uniform(DType::float32)) return "";
  static std::mutex mutex;
  static std::map<std::pair<std::string, Direction>, std::string> probed;
  const std::lock_guard lock(mutex);
  const auto key = std::pair(precision_words(precision), direction);
  if (const auto found = probed.find(key); found != probed.end()) return found->second;
  Problem probe = parse_descriptor("mb1ic16ih4iw4oc16kh1kw1");
  probe.precision = precision;
  std::string reason;
  bool forward_failed = true;
  try {
    const CasePrimitives primitives(probe, OnednnPath::plain, dnnl::algorithm::convolution_direct);
    forward_failed = false;
    primitives.of(direction);
  } catch (const dnnl::error &error) {
    reason = missing_kernel_of(probe, direction, forward_failed, error);
  }
  return probed[key] = reason;
}

std::string onednn_ran(const dnnl::primitive_desc &pd, OnednnPath path) {
  return fmt::format("{} ({} path)", pd.impl_info_str(), to_string(path));
}

} // namespace onednn_internal

} // namespace convcheck
