#pragma once
// `onednn`: oneDNN's convolution primitives (oracles/onednn/onednn.cpp). A case reaches oneDNN by one of three paths,
// chosen from (seed, case index) so that shrinking and `repro` keep the path of the case they replay; tests run
// every path on every config.

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "core/numerics/algorithm.hpp"
#include "core/numerics/case.hpp"
#include "core/problem/direction.hpp"
#include "core/run/strategy.hpp"

namespace convcheck {

enum class OnednnPath {
  /// Data and grad_output in the case's layout, weights in the plain layout oneDNN's plain-layout kernels read
  /// for it (OIHW with NCHW, as PyTorch hands them; HWIO with NHWC, as TensorFlow does; likewise OIW/WIO and
  /// OIDHW/DHWIO in 1-D and 3-D): no reorders.
  plain,
  /// Data and grad_output in the case's layout, weights format_tag::any (the case's weight reordered into
  /// oneDNN's choice): PyTorch's mkldnn path; with NHWC it reaches the brgemm convolutions.
  any_weights,
  /// Every tensor format_tag::any: oneDNN's JIT direct kernels in blocked layouts (nChw16c, OIhw16i16o, ...),
  /// with reorders from and to the case's layouts.
  blocked,
};

/// "plain", "any_weights", "blocked".
std::string to_string(OnednnPath path);

/// The convolution algorithm oneDNN is asked for (dnnl::algorithm::convolution_direct, _winograd, _auto): `onednn`
/// asks for direct, `onednn_winograd` and `onednn_auto` for the others (oracles/onednn/onednn_winograd.cpp).
/// winograd_inference is winograd with the output direction as forward_inference: oneDNN then takes the weights
/// already transformed (its Winograd weight reorder does it), and only then runs its jit_fp32_wino_2x3 kernel.
enum class OnednnAlgorithm : uint8_t { direct, winograd, winograd_inference, automatic };

/// "2.6.3": the library's own version, as it reports it at run time.
std::string onednn_version();

/// The strategy that runs oneDNN with `algorithm`: onednn (direct), onednn_auto, onednn_winograd.
std::string onednn_strategy_name(OnednnAlgorithm algorithm);

/// The algorithm class of a oneDNN implementation by its name (impl_info_str): its Winograd kernels with their
/// F(m, r) and interpolation points (onednn_winograd.cpp says where each comes from), everything else direct;
/// nothing for a Winograd kernel whose transforms convcheck does not know (its result cannot be judged).
std::optional<Algorithm> onednn_algorithm_class(const std::string &implementation);

/// The path `conv_case` takes: a hash of its seed and case index (see onednn.cpp for the proportions and why).
OnednnPath onednn_path(const Case &conv_case);

/// All three directions through `path`, each in canonical layout, or why it has none. float32 only; a problem
/// oneDNN refuses (a crop it does not take, see support/onednn_skips.cpp) fails every direction with oneDNN's error, and a weight
/// gradient whose jit kernel oneDNN 2.6 gets wrong (a crop, see support/onednn_skips.hpp) is skipped, with the reason, unrun.
/// With `algorithm` other than direct, each result declares the class of the kernel oneDNN ran
/// (onednn_algorithm_class); a problem oneDNN has no winograd kernel for is skipped with oneDNN's answer, and so is
/// a Winograd weight gradient (its kernel tiles the sum over output positions, which the Winograd bound does not
/// model: docs/bounds.md).
/// `run_held_back` runs the directions its known bugs (known_bugs.cpp) would hold back (Asked, core/run/strategy.hpp).
RunResults onednn_results(const Case &conv_case, OnednnPath path, OnednnAlgorithm algorithm = OnednnAlgorithm::direct,
                          bool run_held_back = false);

/// The weight layout the user hands oneDNN on `path` (the plain path holds them as oneDNN's plain kernels read them).
WeightLayout onednn_weight_layout(const Problem &config, OnednnPath path);

/// oneDNN's name for the implementation `direction` gets on `path` (impl_info_str), without running it.
std::string onednn_implementation(const Problem &config, Direction direction, OnednnPath path,
                                  OnednnAlgorithm algorithm = OnednnAlgorithm::direct);

/// Why oneDNN takes no convolution descriptor for the padding of `problem` ("" when it does): it takes a crop only
/// at the end of an axis and smaller than the stride (support/onednn_skips.cpp says how that was measured).
std::string onednn_refused_padding(const Problem &problem);

} // namespace convcheck
