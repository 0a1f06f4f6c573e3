#pragma once
// `onednn`: oneDNN's convolution primitives (oracles/onednn.cpp). A case reaches oneDNN by one of three paths,
// chosen from (seed, case index) so that shrinking and `repro` keep the path of the case they replay; tests run
// every path on every config.

#include <array>
#include <string>

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

/// The path `conv_case` takes: a hash of its seed and case index (see onednn.cpp for the proportions and why).
OnednnPath onednn_path(const Case &conv_case);

/// All three directions through `path`, each in canonical layout, or why it has none. float32 only; a problem
/// oneDNN refuses (a crop it does not take, see onednn.cpp) fails every direction with oneDNN's error, and a weight
/// gradient whose jit kernel oneDNN 2.6 gets wrong (a crop, see onednn.cpp) is skipped, with the reason, unrun.
RunResults onednn_results(const Case &conv_case, OnednnPath path);

/// The weight layout the user hands oneDNN on `path` (the plain path holds them as oneDNN's plain kernels read them).
WeightLayout onednn_weight_layout(const Problem &config, OnednnPath path);

/// oneDNN's name for the implementation `direction` gets on `path` (impl_info_str), without running it.
std::string onednn_implementation(const Problem &config, Direction direction, OnednnPath path);

} // namespace convcheck
